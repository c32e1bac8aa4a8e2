import type { Expression, ExpressionBuilder, Kysely, Selectable, SqlBool } from 'kysely';
import { sql } from 'kysely';
import {
  applyStandards,
  buildRollups,
  companyDayRange,
  EARLIEST_TIME_MS,
  epochMs,
  piecePlannedValue,
  piecesOf,
  rollupBuckets,
  segmentsOf,
  shopDateOf,
} from '@takt/domain';
import type {
  Annotation,
  AnnotationTypeLike,
  AnnotationType,
  CompanyCalendar,
  CompanyClock,
  DowntimeAnnotation,
  EpochMs,
  MachineCycle,
  PartAdjustmentFact,
  RollupSource,
  RunStandards,
  ShiftDefinition,
  Span,
  StateInterval,
} from '@takt/domain';
import type { Database } from '../schema';
import { toAnnotation, toAnnotationType } from '../rows';
import { writeRollupDays } from './days';

// Rollups (packages/domain rollup.ts) stored per machine × bucket, so every report is a sum of rows.
// A recompute replaces whole company days: buckets never straddle a day, an hour or a shift boundary.

/** The company's time zone and start-of-day contexts (the one read of them for calendars and clocks). */
export async function loadCompanyClock(db: Kysely<Database>, companyId: string): Promise<CompanyClock> {
  const company = await db
    .selectFrom('companies')
    .select([
      'timezone',
      'time_context_offset_ms',
      'future_time_context_offset_ms',
      'future_time_context_effective',
    ])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  return {
    timezone: company.timezone,
    currentTimeContext: { offset_millis: company.time_context_offset_ms },
    futureTimeContext:
      company.future_time_context_offset_ms != null && company.future_time_context_effective
        ? {
            offset_millis: company.future_time_context_offset_ms,
            effectivedate: company.future_time_context_effective,
          }
        : null,
  };
}

/** The company's calendar: time zone, start-of-day contexts and shifts with every version. */
export async function loadCalendar(db: Kysely<Database>, companyId: string): Promise<CompanyCalendar> {
  const clock = await loadCompanyClock(db, companyId);
  const [shifts, versions] = await Promise.all([
    db.selectFrom('shifts').select(['id', 'name']).where('company_id', '=', companyId).execute(),
    db
      .selectFrom('shift_versions')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy('effectivedate')
      .execute(),
  ]);
  const definitions: ShiftDefinition[] = shifts.map((s) => ({
    id: s.id,
    name: s.name,
    versions: versions
      .filter((v) => v.shift_id === s.id)
      .map((v) => ({
        startoffsetminutes: v.startoffsetminutes,
        endoffsetminutes: v.endoffsetminutes,
        byweekday: v.byweekday.split(',').filter(Boolean).map(Number),
        effectivedate: v.effectivedate,
        terminationdate: v.terminationdate,
      })),
  }));
  return { ...clock, shifts: definitions };
}

/**
 * Everything a machine's rollups are built from, for [range.start, range.end): stored state intervals,
 * spindle/in-cut spans, cycles with their job run's standards, part adjustments, the downtime its
 * annotations cover (with the planned value judged at `now`) and job runs, clipped to the range. Open
 * records end at range.end. `now` defaults to range.end (a live range ends now).
 */
export async function loadRollupSource(
  db: Kysely<Database>,
  machineId: string,
  range: { start: number; end: number },
  opts: { now?: number } = {},
): Promise<RollupSource> {
  return (await loadRollupSources(db, [machineId], range, opts)).get(machineId)!;
}

/** Machines per query where each machine has its own bounds (keeps the OR list well under SQL limits). */
const BOUNDS_CHUNK = 100;

/** A stored state row of one machine. */
export interface StateRowOf {
  machine_id: string;
  start_at: number;
  end_at: number | null;
  state: string;
  reason: string | null;
}

/** What decides which annotation covers which downtime of the machines around a range. */
export interface DowntimeFacts {
  /** State rows over each machine's wider bounds (whole downtime periods at both ends of the range). */
  intervals: StateRowOf[];
  /** Annotations over the same bounds (an open one from before them belongs to an earlier period). */
  annotations: Annotation[];
  /** The annotation types (downtime reasons) those annotations name. */
  types: Map<string, AnnotationType>;
}

/**
 * The facts that split the machines' downtime around [range.start, range.end) into periods and pieces, read
 * as GET /api/downtime reads them (services/downtime.ts downtimePieces): a period crossing range.start began
 * where the last ACTIVE before it ended, one crossing range.end ends where the next ACTIVE begins. A fixed
 * number of queries whatever the number of machines.
 */
export async function loadDowntimeFacts(
  db: Kysely<Database>,
  machineIds: readonly string[],
  range: { start: number; end: number },
): Promise<DowntimeFacts> {
  const ids = [...machineIds];
  if (ids.length === 0) return { intervals: [], annotations: [], types: new Map() };
  const activePerMachine = () =>
    db
      .selectFrom('state_intervals')
      .where('machine_id', 'in', ids)
      .where('state', '=', 'ACTIVE')
      .groupBy('machine_id');
  const [runStarts, runEnds] = await Promise.all([
    activePerMachine()
      .select(['machine_id', (eb) => eb.fn.max<number>('end_at').as('at')])
      .where('end_at', '<=', range.start)
      .execute(),
    activePerMachine()
      .select(['machine_id', (eb) => eb.fn.min<number>('start_at').as('at')])
      .where('start_at', '>=', range.end)
      .execute(),
  ]);
  const startOf = new Map(runStarts.map((r) => [r.machine_id, Number(r.at)]));
  const endOf = new Map(runEnds.map((r) => [r.machine_id, Number(r.at)]));
  const bounds = new Map(
    ids.map((id) => [
      id,
      {
        from: Math.min(startOf.get(id) ?? Number.MIN_SAFE_INTEGER, range.start),
        to: Math.max((endOf.get(id) ?? Number.MAX_SAFE_INTEGER - 1) + 1, range.end),
      },
    ]),
  );
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += BOUNDS_CHUNK) chunks.push(ids.slice(i, i + BOUNDS_CHUNK));
  // One query a chunk of machines, each read over its own bounds: rows that start before the bounds end and
  // reach back into them (`reaches`).
  const inBounds = <T extends 'state_intervals' | 'annotations'>(
    eb: ExpressionBuilder<Database, T>,
    chunk: readonly string[],
    reaches: (b: { from: number; to: number }) => Expression<SqlBool>,
  ) =>
    eb.or(
      chunk.map((id) => {
        const b = bounds.get(id)!;
        return eb.and([eb(sql.ref('machine_id'), '=', id), eb(sql.ref('start_at'), '<', b.to), reaches(b)]);
      }),
    );
  const [intervals, annotationRows] = await Promise.all([
    Promise.all(
      chunks.map((chunk) =>
        db
          .selectFrom('state_intervals')
          .select(['machine_id', 'start_at', 'end_at', 'state', 'reason'])
          .where((eb) =>
            inBounds(eb, chunk, (b) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', b.from)])),
          )
          .orderBy('start_at')
          .execute(),
      ),
    ).then((parts) => parts.flat()),
    Promise.all(
      chunks.map((chunk) =>
        db
          .selectFrom('annotations')
          .selectAll()
          .where((eb) =>
            inBounds(eb, chunk, (b) =>
              eb.or([
                eb.and([eb('end_at', 'is', null), eb('start_at', '>=', b.from)]),
                eb('end_at', '>', b.from),
              ]),
            ),
          )
          .orderBy('start_at')
          .orderBy('created_at')
          .execute(),
      ),
    ).then((parts) => parts.flat()),
  ]);
  const typeIds = [
    ...new Set(annotationRows.flatMap((r) => (r.annotation_type_id ? [r.annotation_type_id] : []))),
  ];
  const typeRows =
    typeIds.length === 0
      ? []
      : await db.selectFrom('annotation_types').selectAll().where('id', 'in', typeIds).execute();
  return {
    intervals,
    annotations: annotationRows.map(toAnnotation),
    types: new Map(typeRows.map((r) => [r.id, toAnnotationType(r)])),
  };
}

/**
 * loadRollupSource for many machines at once: the same queries with `machine_id IN (…)`, so a live
 * dashboard of 50+ machines costs a handful of round trips instead of several per machine. Every id gets
 * a source.
 */
export async function loadRollupSources(
  db: Kysely<Database>,
  machineIds: readonly string[],
  range: { start: number; end: number },
  opts: { now?: number } = {},
): Promise<Map<string, RollupSource>> {
  const out = new Map<string, RollupSource>();
  if (machineIds.length === 0) return out;
  const ids = [...machineIds];
  const now = opts.now ?? range.end;
  // Which annotation covers which downtime is decided on whole downtime periods, as the downtime list
  // decides it; state time is still clipped to the range.
  const [downtime, spans, cycles, adjustments, runs] = await Promise.all([
    loadDowntimeFacts(db, ids, range),
    db
      .selectFrom('flag_spans')
      .select(['machine_id', 'kind', 'start_at', 'end_at'])
      .where('machine_id', 'in', ids)
      .where('start_at', '<', range.end)
      .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', range.start)]))
      .orderBy('start_at')
      .execute(),
    db
      .selectFrom('cycles')
      .selectAll()
      .where('machine_id', 'in', ids)
      .where('end_at', '>=', range.start)
      .where('end_at', '<', range.end)
      .orderBy('end_at')
      .execute(),
    db
      .selectFrom('part_adjustments')
      .select(['machine_id', 'adjustment_time', 'count', 'scrapcount', 'reject_behavior', 'type_id'])
      .where('machine_id', 'in', ids)
      .where('adjustment_time', '>=', range.start)
      .where('adjustment_time', '<', range.end)
      .execute(),
    db
      .selectFrom('job_runs')
      .selectAll()
      .where('machine_id', 'in', ids)
      .where('start_at', '<', range.end)
      .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', range.start)]))
      .execute(),
  ]);
  const { intervals, types } = downtime;
  const annotations = downtime.annotations.map((a) => ({ ...a, machine_id: a.machineId }));
  const byMachine = <R extends { machine_id: string }>(rows: R[]) => {
    const m = new Map<string, R[]>();
    for (const r of rows) {
      const list = m.get(r.machine_id);
      if (list) list.push(r);
      else m.set(r.machine_id, [r]);
    }
    return (id: string) => m.get(id) ?? [];
  };
  const f = {
    intervals: byMachine(intervals),
    spans: byMachine(spans),
    cycles: byMachine(cycles),
    adjustments: byMachine(adjustments),
    annotations: byMachine(annotations),
    runs: byMachine(runs),
  };
  for (const machineId of ids) {
    out.set(
      machineId,
      toRollupSource(machineId, range, now, types, {
        intervals: f.intervals(machineId),
        spans: f.spans(machineId),
        cycles: f.cycles(machineId),
        adjustments: f.adjustments(machineId),
        annotations: f.annotations(machineId),
        runs: f.runs(machineId),
      }),
    );
  }
  return out;
}

type FactRows = {
  /** Over the machine's wider bounds (whole downtime periods at both ends of the range). */
  intervals: Array<{ start_at: number; end_at: number | null; state: string; reason: string | null }>;
  spans: Array<{ kind: string; start_at: number; end_at: number | null }>;
  cycles: Array<Selectable<Database['cycles']>>;
  adjustments: Array<{
    adjustment_time: number;
    count: number;
    scrapcount: number;
    reject_behavior: Selectable<Database['part_adjustments']>['reject_behavior'];
    type_id: string | null;
  }>;
  /** Over the machine's wider bounds. */
  annotations: Annotation[];
  runs: Array<Selectable<Database['job_runs']>>;
};

/**
 * The downtime covered by annotations, as the downtime list splits it (one engine: packages/domain
 * derive/downtime-pieces.ts), with the METRICS.md §5 planned value judged on each period's actual duration
 * at `now`. An open annotation covers only its own downtime period, never later ones; a live
 * plannedWithLimit period stops counting as planned once it passes the limit, whatever was stored at save.
 */
function coveredDowntime(
  range: { start: number; end: number },
  now: number,
  types: ReadonlyMap<string, AnnotationTypeLike>,
  intervals: FactRows['intervals'],
  annotations: readonly Annotation[],
): DowntimeAnnotation[] {
  const pieces = piecesOf(
    segmentsOf(intervals.map((r) => ({ start: r.start_at, end: r.end_at, state: r.state }))),
    annotations,
  );
  const out: DowntimeAnnotation[] = [];
  for (const p of pieces) {
    const a = p.annotation;
    // Setup annotations are not downtime reasons (live-operations §5): their time stays uncategorized here.
    if (!a || a.setup) continue;
    const start = Math.max(p.start, range.start);
    const end = Math.min(p.end ?? Number.POSITIVE_INFINITY, range.end);
    if (end <= start) continue;
    const type = a.category_id ? types.get(a.category_id) : undefined;
    out.push({
      start: epochMs(start),
      end: epochMs(end),
      reasonId: a.category_id,
      countsAsPlanned: type ? piecePlannedValue(type, a, p, now).countsAsPlanned : false,
    });
  }
  return out;
}

/** One machine's stored facts, clipped to the range, as the domain's RollupSource (the one mapping). */
function toRollupSource(
  machineId: string,
  range: { start: number; end: number },
  now: number,
  types: ReadonlyMap<string, AnnotationTypeLike>,
  { intervals, spans, cycles, adjustments, annotations, runs }: FactRows,
): RollupSource {
  const clipEnd = (end: number | null) => (end == null ? range.end : Math.min(end, range.end));
  const stateIntervals: StateInterval[] = intervals
    .map((r) => ({
      start: epochMs(Math.max(r.start_at, range.start)),
      end: epochMs(clipEnd(r.end_at)),
      state: r.state as StateInterval['state'],
      reason: r.reason,
    }))
    .filter((i) => i.end > i.start);
  const toSpan = (r: { start_at: number; end_at: number | null }): Span => ({
    start: epochMs(Math.max(r.start_at, range.start)),
    end: epochMs(clipEnd(r.end_at)),
  });
  const runStandards: RunStandards[] = runs.map((r) => ({
    id: r.id,
    jobId: r.job_id,
    start: epochMs(r.start_at),
    end: r.end_at == null ? null : epochMs(r.end_at),
    productionStart: r.setup_end == null ? null : epochMs(r.setup_end),
    expectedCycleTime: r.expected_cycle_time,
    idealCycleTime: r.ideal_cycle_time,
    startInSetup: r.setup_mode,
    partBehavior: r.part_behavior,
    actualParts: r.actual_parts,
    reportedParts: r.reported_parts,
    requiredCycles: r.required_cycles,
  }));
  const machineCycles: MachineCycle[] = cycles.map((c) => ({
    start: epochMs(c.start_at),
    end: epochMs(c.end_at),
    duration: c.duration as MachineCycle['duration'],
    count: c.count,
    source: c.source as MachineCycle['source'],
    setup: c.setup === 1,
  }));
  const facts: PartAdjustmentFact[] = adjustments.map((a) => ({
    adjustmenttime: epochMs(a.adjustment_time),
    count: a.count,
    scrapcount: a.reject_behavior ? a.scrapcount : 0,
    rejectBehavior: a.reject_behavior,
    categoryId: a.type_id,
  }));
  const downtime = coveredDowntime(range, now, types, intervals, annotations);

  return {
    machineId,
    intervals: stateIntervals,
    spindle: spans.filter((s) => s.kind === 'spindle').map(toSpan),
    inCut: spans.filter((s) => s.kind === 'incut').map(toSpan),
    cycles: applyStandards(machineCycles, runStandards),
    adjustments: facts,
    annotations: downtime,
    runs: runStandards,
  };
}

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
  const start = Math.min(Math.max(input.from, EARLIEST_TIME_MS), input.now - 1);
  const end = Math.min(Math.max(input.to, start + 1), input.now);
  const calendar = input.calendar ?? (await loadCalendar(db, input.companyId));
  let rows = 0;
  for (let from = start; from < end; from += RECOMPUTE_SLICE_MS) {
    if (from > start) await new Promise<void>((resolve) => setImmediate(resolve));
    const to = Math.min(from + RECOMPUTE_SLICE_MS, end);
    rows += await recomputeSlice(db, { ...input, from, to, calendar });
  }
  return rows;
}

/** The longest range recomputed in one transaction (a week of a machine's buckets). */
export const RECOMPUTE_SLICE_MS = 7 * 86_400_000;

async function recomputeSlice(
  db: Kysely<Database>,
  input: RecomputeInput & { calendar: CompanyCalendar },
): Promise<number> {
  const { companyId, machineId, now, calendar } = input;
  const first = companyDayRange(calendar, shopDateOf(calendar, epochMs(input.from)));
  const last = companyDayRange(calendar, shopDateOf(calendar, epochMs(Math.max(input.from, input.to - 1))));
  const range = { start: first.start, end: Math.min(last.end, now) };
  if (range.end <= range.start) return 0;

  const source = await loadRollupSource(db, machineId, range, { now });
  const buckets = rollupBuckets(calendar, { start: range.start as EpochMs, end: range.end as EpochMs });
  const rows = buildRollups(source, buckets);

  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('rollups')
      .where('machine_id', '=', machineId)
      .where('start_at', '>=', first.start)
      .where('start_at', '<', last.end)
      .execute();
    const values = rows.map((r) => {
      const { machineId: _m, start, end, shiftId, ...measures } = r;
      return {
        company_id: companyId,
        machine_id: machineId,
        start_at: start,
        end_at: end,
        shift_id: shiftId,
        measures: JSON.stringify(measures),
        computed_at: now,
      };
    });
    for (let i = 0; i < values.length; i += 200)
      await trx
        .insertInto('rollups')
        .values(values.slice(i, i + 200))
        .execute();
    // Decision 0804: the day rows sum exactly these rows, in the same transaction, so they never disagree.
    await writeRollupDays(trx, {
      companyId,
      machineId,
      clock: calendar,
      from: first.start,
      to: last.end,
      rows,
      computedAt: now,
    });
  });
  return rows.length;
}

/** Take the dirty marks (at most `limit`), oldest first. */
export async function takeDirty(db: Kysely<Database>, limit: number) {
  return db.selectFrom('rollup_dirty').selectAll().orderBy('marked_at').limit(limit).execute();
}

/** Clear a mark unless it was renewed after it was taken (then it is done next round). */
/**
 * Done with a mark taken at `markedAt` and recomputed up to `to` (decision 0980): cleared when `done` and not
 * renewed since; otherwise it goes on from `to`, or from an earlier renewal's start (`renewed_from`), and is free
 * for the next run of any worker. A renewal never restarts a long mark from its old start, and never goes unseen.
 */
export async function finishDirty(
  db: Kysely<Database>,
  input: { machineId: string; markedAt: number; to: number; done: boolean },
): Promise<void> {
  const { machineId, markedAt, to, done } = input;
  await db.transaction().execute(async (trx) => {
    if (done)
      await trx
        .deleteFrom('rollup_dirty')
        .where('machine_id', '=', machineId)
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
      .execute();
  });
}

export async function clearDirty(db: Kysely<Database>, machineId: string, markedAt: number): Promise<void> {
  await db
    .deleteFrom('rollup_dirty')
    .where('machine_id', '=', machineId)
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

/**
 * markRollupsDirty for several machines in one statement per 500 (an ingest batch marks every machine it
 * derived for). Two marks of one machine become its earliest `from` and latest `now`.
 */
export async function markRollupsDirtyMany(
  db: Kysely<Database>,
  marks: ReadonlyArray<{ companyId: string; machineId: string; from: number; now: number }>,
): Promise<void> {
  const byMachine = new Map<string, { companyId: string; machineId: string; from: number; now: number }>();
  for (const m of marks) {
    const seen = byMachine.get(m.machineId);
    byMachine.set(
      m.machineId,
      seen ? { ...seen, from: Math.min(seen.from, m.from), now: Math.max(seen.now, m.now) } : m,
    );
  }
  const rows = [...byMachine.values()];
  for (let i = 0; i < rows.length; i += 500)
    await db
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
        oc.column('machine_id').doUpdateSet({
          from_at: sql<number>`CASE WHEN excluded.from_at < rollup_dirty.from_at THEN excluded.from_at ELSE rollup_dirty.from_at END`,
          marked_at: sql<number>`excluded.marked_at`,
          // The earliest renewal since the worker last advanced the mark (finishDirty; decision 0980).
          renewed_from: sql<number>`CASE WHEN rollup_dirty.renewed_from IS NULL OR excluded.from_at < rollup_dirty.renewed_from THEN excluded.from_at ELSE rollup_dirty.renewed_from END`,
        }),
      )
      .execute();
}
