import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { DEFAULT_PLANNED_LIMIT_MS, epochMs } from '@takt/domain';
import type { Rollup } from '@takt/domain';
import type { Database } from '../schema';
import { BOUNDS_CHUNK, isPostgres } from './range-reads';
import { storedMeasures } from './read';
import { firstStateFrom } from './state-reads';

// Decision 1155: the stored hourly rows a live figure can take instead of summing the facts again (the tile's
// goal): those a build from the facts now would give, so only the facts before and after them are read.

/** A machine's stored rows that still hold: whole buckets, contiguous, over [from, to). */
export interface HeldRows {
  rows: Rollup[];
  /**
   * Each row's computed_at and its measures as stored, in the rows' order (decision 1191): a row whose values changed
   * was rewritten with the recompute's computed_at (decision 1153 keeps an unchanged row's), and its measures
   * compared as well cover two recomputes at one instant (a fixed clock). Every column a held row is built from
   * belongs here.
   */
  stamps: { computedAt: number[]; measures: string[] };
  from: number;
  to: number;
}

/**
 * For each machine, its stored hourly rows starting at or after `from` and ending by `now` that still hold:
 * none at or after the start of a pending dirty mark (facts changed there and the worker has not recomputed
 * them yet; read in the same statement as the rows, so a mark and the rows it covers are seen together), and
 * none computed while a downtime judged on its duration (plannedWithLimit, an annotation without an end) was
 * still within its limit if it is past it now (nothing marks a period that crosses its limit by time passing).
 * The rows stop at the first gap. Machines without such a row are left out. Only the company's rows are read.
 */
export async function loadHeldRollups(
  db: Kysely<Database>,
  companyId: string,
  wants: ReadonlyArray<{ machineId: string; from: number }>,
  now: number,
): Promise<Map<string, HeldRows>> {
  const out = new Map<string, HeldRows>();
  if (wants.length === 0) return out;
  const fromOf = new Map(wants.map((w) => [w.machineId, w.from]));
  const minFrom = Math.min(...wants.map((w) => w.from));
  const [stored, limited] = await Promise.all([
    isPostgres(db)
      ? heldRowsListed(db, companyId, wants, now)
      : Promise.all(
          Array.from({ length: Math.ceil(wants.length / BOUNDS_CHUNK) }, (_, i) =>
            wants.slice(i * BOUNDS_CHUNK, (i + 1) * BOUNDS_CHUNK),
          ).map((chunk) => heldRowsValues(db, companyId, chunk, now)),
        ).then((parts) => parts.flat()),
    limitedAnnotations(db, companyId, [...fromOf.keys()], minFrom, now),
  ]);
  const byMachine = new Map<string, typeof stored>();
  for (const r of stored) {
    const list = byMachine.get(r.machine_id);
    if (list) list.push(r);
    else byMachine.set(r.machine_id, [r]);
  }
  // Only an annotation some row was computed within its limit of matters: its period's end is read for those.
  const judged = await pastTheirLimit(
    db,
    limited.filter((a) =>
      (byMachine.get(a.machineId) ?? []).some(
        (r) => Number(r.computed_at) <= a.settledAt && Number(r.end_at) > a.start,
      ),
    ),
    now,
  );
  for (const [machineId, rows] of byMachine) {
    const cuts = judged.get(machineId) ?? [];
    const held: Rollup[] = [];
    const stamps = { computedAt: [] as number[], measures: [] as string[] };
    let to = Number(rows[0]!.start_at);
    for (const r of rows) {
      const start = Number(r.start_at);
      const end = Number(r.end_at);
      const computedAt = Number(r.computed_at);
      if (start !== to) break;
      // Computed while such a downtime in it still counted as planned: read from the facts.
      if (cuts.some((c) => computedAt <= c.settledAt && end > c.start && start < c.end)) break;
      held.push({
        ...storedMeasures(r.measures),
        machineId,
        start: epochMs(start),
        end: epochMs(end),
        shiftId: r.shift_id,
      });
      stamps.computedAt.push(computedAt);
      stamps.measures.push(r.measures);
      to = end;
    }
    if (held.length > 0) out.set(machineId, { rows: held, stamps, from: Number(held[0]!.start), to });
  }
  return out;
}

/**
 * On SQLite a hundred machines a statement, their starts a `values` list each row of which seeks its machine's rows on
 * the rollups key (`cross join` keeps the list outside): an OR of a hundred (machine, start) terms took SQLite 120-340
 * ms a statement at 1,000 machines (decision 1202).
 */
async function heldRowsValues(
  db: Kysely<Database>,
  companyId: string,
  wants: ReadonlyArray<{ machineId: string; from: number }>,
  now: number,
) {
  const list = sql<{ m: string; f: number }>`(select column1 as m, column2 as f from (values ${sql.join(
    wants.map((w) => sql`(${w.machineId}, ${w.from})`),
  )}))`;
  return db
    .selectFrom(list.as('w'))
    .crossJoin('rollups as r')
    .leftJoin('rollup_dirty as d', (j) =>
      j.onRef('d.machine_id', '=', 'r.machine_id').onRef('d.company_id', '=', 'r.company_id'),
    )
    .select(HELD_COLUMNS)
    .where(heldOf(companyId, now))
    .orderBy('r.machine_id')
    .orderBy('r.start_at')
    .execute();
}

/**
 * A row `r` of rollups (with its machine's dirty mark `d`) of the machine `w.m` from `w.f` on: the company's, ending by
 * `now`, not at or after a pending mark (read in the same statement as the rows, so a mark and the rows it covers are
 * seen together).
 */
const heldOf = (companyId: string, now: number) =>
  sql<boolean>`r.company_id = ${companyId} and r.machine_id = w.m and r.start_at >= w.f and r.end_at <= ${now}
    and (d.from_at is null or r.end_at <= d.from_at)`;

const HELD_COLUMNS = [
  'r.machine_id',
  'r.start_at',
  'r.end_at',
  'r.shift_id',
  'r.measures',
  'r.computed_at',
] as const;

/**
 * On PostgreSQL the machines and their starts are one list of two array parameters, each machine's rows read by a
 * lateral index range (decision 1202): one statement for any number of machines, where an OR of a hundred
 * (machine, start) terms a chunk took a statement each hundred machines (4 at 334 running jobs).
 */
async function heldRowsListed(
  db: Kysely<Database>,
  companyId: string,
  wants: ReadonlyArray<{ machineId: string; from: number }>,
  now: number,
) {
  const list = sql<{ m: string; f: number }>`(select * from unnest(${wants.map(
    (w) => w.machineId,
  )}::text[], ${wants.map((w) => w.from)}::bigint[]) as u(m, f))`;
  return db
    .selectFrom(list.as('w'))
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('rollups as r')
          .leftJoin('rollup_dirty as d', (j) =>
            j.onRef('d.machine_id', '=', 'r.machine_id').onRef('d.company_id', '=', 'r.company_id'),
          )
          .select(HELD_COLUMNS)
          .where(heldOf(companyId, now))
          .offset(0)
          .as('h'),
      (j) => j.onTrue(),
    )
    .selectAll('h')
    .orderBy('h.machine_id')
    .orderBy('h.start_at')
    .execute();
}

/** A plannedWithLimit annotation without an end: rows computed at or before `settledAt` judged it within its limit. */
interface LimitedAnnotation {
  id: string;
  machineId: string;
  start: number;
  limitMs: number;
  settledAt: number;
}

/** The machines' plannedWithLimit annotations without an end whose limit ends after `from`. */
async function limitedAnnotations(
  db: Kysely<Database>,
  companyId: string,
  machineIds: readonly string[],
  from: number,
  now: number,
): Promise<LimitedAnnotation[]> {
  const longest = sql<number>`(select coalesce(max(l.planned_limit_ms), ${DEFAULT_PLANNED_LIMIT_MS})
    from annotation_types l where l.company_id = ${companyId} and l.planned_behavior = 'plannedWithLimit')`;
  const rows = await db
    .selectFrom('annotations as a')
    .innerJoin('annotation_types as t', 't.id', 'a.annotation_type_id')
    .where('t.company_id', '=', companyId)
    .where('a.machine_id', 'in', [...machineIds])
    .where('a.end_at', 'is', null)
    .where('t.planned_behavior', '=', 'plannedWithLimit')
    .where('a.start_at', '<', now)
    .where(sql<boolean>`a.start_at > ${from} - ${longest}`)
    .select(['a.id', 'a.machine_id', 'a.start_at', 't.planned_limit_ms'])
    .execute();
  return rows
    .map((r) => {
      const limitMs = Number(r.planned_limit_ms ?? DEFAULT_PLANNED_LIMIT_MS);
      const start = Number(r.start_at);
      return { id: r.id, machineId: r.machine_id, start, limitMs, settledAt: start + limitMs };
    })
    .filter((a) => a.settledAt >= from);
}

/**
 * Of those annotations, the downtime each covers that is past its limit now: its piece ends at the next ACTIVE or
 * SETUP state or the next annotation, as derive/downtime-pieces.ts splits it (an estimate that can only be later
 * than the piece's end, so never a period taken for within its limit when it is not).
 */
async function pastTheirLimit(
  db: Kysely<Database>,
  annotations: readonly LimitedAnnotation[],
  now: number,
): Promise<Map<string, Array<{ start: number; end: number; settledAt: number }>>> {
  const out = new Map<string, Array<{ start: number; end: number; settledAt: number }>>();
  if (annotations.length === 0) return out;
  // Of the annotation's own company's machine (decision 1130): the same id under another company is another machine.
  const active = firstStateFrom(
    { machineId: sql.ref('a.machine_id'), companyId: sql.ref('a.company_id') },
    sql.ref('a.start_at'),
    ['ACTIVE', 'SETUP'],
    '>',
  );
  const rows = await db
    .selectFrom('annotations as a')
    .where(
      'a.id',
      'in',
      annotations.map((a) => a.id),
    )
    .select((eb) => [
      'a.id',
      // One key step a machine (decision 1180), where min() through the state_intervals view reads every later state.
      active.closed.as('active_at'),
      active.open.as('open_active_at'),
      eb
        .selectFrom('annotations as b')
        .whereRef('b.machine_id', '=', 'a.machine_id')
        .whereRef('b.company_id', '=', 'a.company_id')
        .whereRef('b.start_at', '>', 'a.start_at')
        .select((e) => e.fn.min<number>('b.start_at').as('t'))
        .as('next_at'),
    ])
    .execute();
  const byId = new Map(annotations.map((a) => [a.id, a]));
  for (const r of rows) {
    const a = byId.get(r.id)!;
    const ends = [r.active_at, r.open_active_at, r.next_at].filter((t) => t != null).map(Number);
    const end = ends.length > 0 ? Math.min(...ends) : Number.POSITIVE_INFINITY;
    if (Math.min(end, now) - a.start <= a.limitMs) continue;
    const list = out.get(a.machineId) ?? [];
    list.push({ start: a.start, end, settledAt: a.settledAt });
    out.set(a.machineId, list);
  }
  return out;
}
