import type { CompiledQuery, Kysely } from 'kysely';
import { sql } from 'kysely';
import { insertStatements, numberedPlaceholders, runStatements } from '../batch-insert';
import {
  buildRollups,
  companyDayRange,
  EARLIEST_TIME_MS,
  encodeDowntimeFigures,
  epochMs,
  piecesOf,
  rollupBuckets,
  segmentsOf,
  shopDateOf,
} from '@takt/domain';
import type { CompanyCalendar, EpochMs } from '@takt/domain';
import type { Database } from '../schema';
import { loadCalendar } from './calendar';
import { isManualWorkCenter, rederiveManualStates } from './manual-states';
import { writeChangedRows } from './changed-rows';
import { writeRollupDays } from './days';
import { noteRecompute } from './version';
import { loadDowntimeFacts, loadRollupSources } from './sources';
import { plannedLimitReachBack } from './planned-reach';
import { downtimeFigures } from './downtime-edges';

// Rollups (packages/domain rollup.ts) stored per machine × bucket, so every report is a sum of rows.
// A recompute replaces whole company days (writing only the rows that changed, decision 1153): buckets never
// straddle a day, an hour or a shift boundary.
// The facts they are built from: sources.ts; the company calendar: calendar.ts.

/** What to recompute: one machine's company days touching [from, to), built up to `now`. */
export interface RecomputeInput {
  companyId: string;
  machineId: string;
  from: number;
  to: number;
  now: number;
  calendar?: CompanyCalendar;
}

/**
 * Recompute a machine's rollups for every company day touching [from, to), from what is stored: state
 * intervals, spindle/in-cut spans, cycles with their job run's standards, part adjustments, annotations
 * (the downtime they cover, judged at `now`) and job runs. Buckets are built up to `now`; later ones don't exist yet.
 */
export async function recomputeRollups(db: Kysely<Database>, input: RecomputeInput): Promise<number> {
  // Decision 0980: nothing is recomputed before 2014-04-01 or after now (a year-1 part adjustment once made
  // this build every bucket from year 1 and run the process out of memory), and a long range is done in
  // slices of RECOMPUTE_SLICE_MS, yielding to the event loop between them so /healthz keeps answering.
  // A `to` at or before `from` still means the company day of `from`, as it always did; a `from` after now
  // recomputes today up to now.
  if (!Number.isFinite(input.from) || !Number.isFinite(input.to) || input.now <= EARLIEST_TIME_MS) return 0;
  // Decision 1073: a manual work center's states are derived from its floor evidence first, from the evidence
  // before the change on (a count can turn the gap before it into downtime), and its rollups from there.
  let changedFrom = input.from;
  if (await isManualWorkCenter(db, input.companyId, input.machineId)) {
    const anchor = await rederiveManualStates(db, { ...input, from: Math.max(input.from, EARLIEST_TIME_MS) });
    if (anchor !== null) changedFrom = Math.min(changedFrom, anchor);
  }
  const start = Math.min(Math.max(changedFrom, EARLIEST_TIME_MS), input.now - 1);
  const end = Math.min(Math.max(input.to, start + 1), input.now);
  const calendar = input.calendar ?? (await loadCalendar(db, input.companyId));
  let rows = 0;
  // Decision 1155: a downtime judged on its duration that began on an earlier day and is now counted the other
  // way there has those days recomputed too, from its start (and so on back: each reach is earlier).
  for (let span = { start, end }; span.start < span.end;) {
    let reachBack: number | null = null;
    for (let from = span.start; from < span.end; from += RECOMPUTE_SLICE_MS) {
      if (from > span.start) await new Promise<void>((resolve) => setImmediate(resolve));
      const to = Math.min(from + RECOMPUTE_SLICE_MS, span.end);
      const slice = await recomputeSlice(db, { ...input, from, to, calendar });
      rows += slice.rows;
      if (from === span.start) reachBack = slice.reachBack;
    }
    span = { start: reachBack ?? span.start, end: span.start };
  }
  return rows;
}

/** The longest range recomputed in one transaction (a week of a machine's buckets). */
export const RECOMPUTE_SLICE_MS = 7 * 86_400_000;

async function recomputeSlice(
  db: Kysely<Database>,
  input: RecomputeInput & { calendar: CompanyCalendar },
): Promise<{ rows: number; reachBack: number | null }> {
  const { companyId, machineId, now, calendar } = input;
  const first = companyDayRange(calendar, shopDateOf(calendar, epochMs(input.from)));
  const last = companyDayRange(calendar, shopDateOf(calendar, epochMs(Math.max(input.from, input.to - 1))));
  const range = { start: first.start, end: Math.min(last.end, now) };
  if (range.end <= range.start) return { rows: 0, reachBack: null };

  const of = { db, companyId };
  const facts = await loadDowntimeFacts(of, [machineId], range);
  // The downtime pieces split once, for the rollups' covered downtime and the report's figures (decision 1188).
  const pieces = piecesOf(
    segmentsOf(facts.intervals.map((r) => ({ start: r.start_at, end: r.end_at, state: r.state }))),
    facts.annotations,
  );
  const split = new Map([[machineId, pieces]]);
  const source = (await loadRollupSources(of, [machineId], range, { now, facts, pieces: split })).get(
    machineId,
  )!;
  const reachBack = await plannedLimitReachBack(db, companyId, machineId, range.start, now, facts);
  const buckets = rollupBuckets(calendar, { start: range.start as EpochMs, end: range.end as EpochMs });
  const rows = buildRollups(source, buckets);
  const downtime = await downtimeFigures(
    of,
    { machineId, range, now, calendar, buckets },
    facts,
    split,
    source,
  );

  await db.transaction().execute(async (trx) => {
    // Decision 1153: only the buckets that changed are written; the day and week rows likewise.
    const values = rows.map((r, i) => {
      const { machineId: _m, start, end, shiftId, ...measures } = r;
      return {
        company_id: companyId,
        machine_id: machineId,
        start_at: start,
        end_at: end,
        shift_id: shiftId,
        measures: JSON.stringify(measures),
        computed_at: now,
        downtime: encodeDowntimeFigures(downtime[i]!),
      };
    });
    const span = { companyId, machineId, start: first.start, end: last.end };
    const changed = await writeChangedRows(trx, 'rollups', span, values);
    // Decision 0804: the day rows sum exactly these rows, in the same transaction, so they never disagree.
    await writeRollupDays(trx, {
      companyId,
      machineId,
      clock: calendar,
      from: first.start,
      to: last.end,
      rows,
      downtime,
      computedAt: now,
      changed: changed > 0,
    });
  });
  noteRecompute(companyId, now);
  return { rows: rows.length, reachBack: reachBack !== null && reachBack < range.start ? reachBack : null };
}

/** Take the dirty marks (at most `limit`), oldest first. */
export async function takeDirty(db: Kysely<Database>, limit: number) {
  return db.selectFrom('rollup_dirty').selectAll().orderBy('marked_at').limit(limit).execute();
}

/**
 * Done with a mark taken at `markedAt` and recomputed up to `to` (decision 0980): cleared when `done` and not
 * renewed since; otherwise it goes on from `to`, or from an earlier renewal's start (`renewed_from`), and is free
 * for the next run of any worker. A renewal never restarts a long mark from its old start, and never goes unseen.
 */
export async function finishDirty(
  db: Kysely<Database>,
  input: { companyId: string; machineId: string; markedAt: number; to: number; done: boolean },
): Promise<void> {
  const { companyId, machineId, markedAt, to, done } = input;
  await db.transaction().execute(async (trx) => {
    if (done)
      await trx
        .deleteFrom('rollup_dirty')
        .where('machine_id', '=', machineId)
        .where('company_id', '=', companyId)
        .where('marked_at', '<=', markedAt)
        .execute();
    await trx
      .updateTable('rollup_dirty')
      .set({
        from_at: sql<number>`CASE WHEN renewed_from IS NOT NULL AND renewed_from < ${to} THEN renewed_from ELSE ${to} END`,
        renewed_from: null,
        claimed_until: null,
      })
      .where('machine_id', '=', machineId)
      .where('company_id', '=', companyId)
      .execute();
  });
}

/** Clear a company's machine's mark unless it was renewed after it was taken at `markedAt` (then it is done next round). */
export async function clearDirty(
  db: Kysely<Database>,
  mark: { company_id: string; machine_id: string },
  markedAt: number,
): Promise<void> {
  await db
    .deleteFrom('rollup_dirty')
    .where('machine_id', '=', mark.machine_id)
    .where('company_id', '=', mark.company_id)
    .where('marked_at', '<=', markedAt)
    .execute();
}

/** Mark a machine's rollups stale from `from` on (keeps the earliest mark until the worker clears it). */
export async function markRollupsDirty(
  db: Kysely<Database>,
  input: { companyId: string; machineId: string; from: number; now: number },
): Promise<void> {
  await markRollupsDirtyMany(db, [input]);
}

/** markRollupsDirtyMany's upsert below, as text for PostgreSQL's one statement. */
const DIRTY_UPSERT =
  'on conflict ("machine_id", "company_id") do update set ' +
  '"from_at" = CASE WHEN excluded.from_at < rollup_dirty.from_at THEN excluded.from_at ELSE rollup_dirty.from_at END, ' +
  '"marked_at" = excluded.marked_at, ' +
  '"renewed_from" = CASE WHEN rollup_dirty.renewed_from IS NULL OR excluded.from_at < rollup_dirty.renewed_from ' +
  'THEN excluded.from_at ELSE rollup_dirty.renewed_from END';

/**
 * markRollupsDirty for several machines in one statement (PostgreSQL) or one per 500 (SQLite); an ingest batch marks
 * every machine it derived for. Two marks of one machine become its earliest `from` and latest `now`.
 */
export async function markRollupsDirtyMany(
  db: Kysely<Database>,
  marks: ReadonlyArray<{ companyId: string; machineId: string; from: number; now: number }>,
): Promise<void> {
  await runStatements(db, markRollupsDirtyStatements(db, marks));
}

/** markRollupsDirtyMany's statements, built to be run later (an ingest batch's, before its transaction: decision 1177). */
export function markRollupsDirtyStatements(
  db: Kysely<Database>,
  marks: ReadonlyArray<{ companyId: string; machineId: string; from: number; now: number }>,
): CompiledQuery[] {
  // Keyed by company and machine: the same machine id under another company is another machine (decision 1190).
  const byMachine = new Map<string, { companyId: string; machineId: string; from: number; now: number }>();
  for (const m of marks) {
    const key = `${m.companyId}\u0000${m.machineId}`;
    const seen = byMachine.get(key);
    byMachine.set(
      key,
      seen ? { ...seen, from: Math.min(seen.from, m.from), now: Math.max(seen.now, m.now) } : m,
    );
  }
  const rows = [...byMachine.values()];
  if (numberedPlaceholders(db))
    // PostgreSQL: one statement of an array a column for them all (decision 1165); the same upsert as below.
    return insertStatements(
      true,
      'rollup_dirty',
      ['machine_id', 'company_id', 'from_at', 'marked_at'],
      rows,
      (params, at, m) => {
        params[at] = m.machineId;
        params[at + 1] = m.companyId;
        params[at + 2] = m.from;
        params[at + 3] = m.now;
      },
      DIRTY_UPSERT,
      ['text', 'text', 'bigint', 'bigint'],
    );
  const out: CompiledQuery[] = [];
  for (let i = 0; i < rows.length; i += 500)
    out.push(
      db
        .insertInto('rollup_dirty')
        .values(
          rows.slice(i, i + 500).map((m) => ({
            machine_id: m.machineId,
            company_id: m.companyId,
            from_at: m.from,
            marked_at: m.now,
          })),
        )
        // Keep the earliest mark; `excluded` is the row that was refused (same syntax on both dialects).
        .onConflict((oc) =>
          oc.columns(['machine_id', 'company_id']).doUpdateSet({
            from_at: sql<number>`CASE WHEN excluded.from_at < rollup_dirty.from_at THEN excluded.from_at ELSE rollup_dirty.from_at END`,
            marked_at: sql<number>`excluded.marked_at`,
            // The earliest renewal since the worker last advanced the mark (finishDirty; decision 0980).
            renewed_from: sql<number>`CASE WHEN rollup_dirty.renewed_from IS NULL OR excluded.from_at < rollup_dirty.renewed_from THEN excluded.from_at ELSE rollup_dirty.renewed_from END`,
          }),
        )
        .compile(),
    );
  return out;
}
