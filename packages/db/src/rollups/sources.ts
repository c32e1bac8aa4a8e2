import type { Expression, ExpressionBuilder, Kysely, Selectable, SqlBool } from 'kysely';
import { sql } from 'kysely';
import { applyStandards, epochMs, manualCycles, piecePlannedValue, piecesOf, segmentsOf } from '@takt/domain';
import type {
  Annotation,
  AnnotationTypeLike,
  AnnotationType,
  DowntimeAnnotation,
  MachineCycle,
  PartAdjustmentFact,
  RollupSource,
  RunStandards,
  Span,
  StateInterval,
} from '@takt/domain';
import type { Database, FlagSpansTable } from '../schema';
import { toAnnotation, toAnnotationType } from '../rows';
import { toManualRun } from './manual-states';

// A machine's stored facts as the domain's RollupSource (what its rollups are built from), for a range.

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

/**
 * Where each machine's monitored life starts (METRICS.md §1, decision 1010): its first stored observation,
 * its first state interval (the deriver starts there) or, for a manual work center, its first manual count;
 * absent: not monitored yet. One index lookup per machine and fact (min over (machine_id, time) indexes).
 */
export async function loadMonitoredFrom(
  db: Kysely<Database>,
  machineIds: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (machineIds.length === 0) return out;
  const rows = await db
    .selectFrom('machines as m')
    .where('m.id', 'in', [...machineIds])
    .select((eb) => [
      'm.id',
      eb
        .selectFrom('observations as o')
        .whereRef('o.machine_id', '=', 'm.id')
        .select((e) => e.fn.min<number>('o.ts').as('t'))
        .as('observed'),
      eb
        .selectFrom('state_intervals as s')
        .whereRef('s.machine_id', '=', 'm.id')
        .select((e) => e.fn.min<number>('s.start_at').as('t'))
        .as('derived'),
      eb
        .selectFrom('part_adjustments as p')
        .whereRef('p.machine_id', '=', 'm.id')
        .where('p.kind', '=', 'manual')
        .select((e) => e.fn.min<number>('p.adjustment_time').as('t'))
        .as('counted'),
    ])
    .execute();
  for (const r of rows) {
    const times = [r.observed, r.derived, r.counted].filter((t) => t != null).map(Number);
    if (times.length > 0) out.set(r.id, Math.min(...times));
  }
  return out;
}

const chunksOf = (ids: readonly string[], size: number): string[][] => {
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += size) chunks.push(ids.slice(i, i + size));
  return chunks;
};

/** The kinds of flag span, each its own series of rows that never overlap. */
const FLAG_KINDS: ReadonlyArray<FlagSpansTable['kind']> = ['spindle', 'incut'];

/**
 * Where a machine's rows reaching into a range from `from` on start (decision 1076): at the last row that
 * starts at or before `from` (of one `kind` of flag span), as rows of one machine (and kind) never overlap;
 * `from` when none does. A bound on the (machine_id[, kind], start_at) key, so a range near now reads the
 * rows near now instead of the machine's whole history before it.
 */
const sinceLastStart = (
  table: 'state_intervals' | 'flag_spans',
  machineId: string,
  kind: FlagSpansTable['kind'] | null,
  from: number,
) =>
  sql<number>`coalesce((select max(l.start_at) from ${sql.table(table)} as l where l.machine_id = ${machineId}${
    kind === null ? sql`` : sql` and l.kind = ${kind}`
  } and l.start_at <= ${from}), ${from})`;

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
  // The last ACTIVE before the range and the first after it, one (machine_id, start_at) index step per machine
  // (decision 1076): a machine's state rows never overlap, so the last to end is the last to start. A max()
  // over the machine's rows read its whole history at every tile push.
  const activeRow = (eb: ExpressionBuilder<Database, 'machines'>) =>
    eb
      .selectFrom('state_intervals as s')
      .whereRef('s.machine_id', '=', 'machines.id')
      .where('s.state', '=', 'ACTIVE');
  const runBounds = await db
    .selectFrom('machines')
    .where('machines.id', 'in', ids)
    .select((eb) => [
      'machines.id',
      activeRow(eb)
        .select('s.end_at')
        .where('s.start_at', '<=', range.start)
        .where('s.end_at', '<=', range.start)
        .orderBy('s.start_at', 'desc')
        .limit(1)
        .as('run_start'),
      activeRow(eb)
        .select('s.start_at')
        .where('s.start_at', '>=', range.end)
        .orderBy('s.start_at')
        .limit(1)
        .as('run_end'),
    ])
    .execute();
  const startOf = new Map(
    runBounds.flatMap((r) => (r.run_start == null ? [] : [[r.id, Number(r.run_start)]])),
  );
  const endOf = new Map(runBounds.flatMap((r) => (r.run_end == null ? [] : [[r.id, Number(r.run_end)]])));
  const bounds = new Map(
    ids.map((id) => [
      id,
      {
        from: Math.min(startOf.get(id) ?? Number.MIN_SAFE_INTEGER, range.start),
        to: Math.max((endOf.get(id) ?? Number.MAX_SAFE_INTEGER - 1) + 1, range.end),
      },
    ]),
  );
  const chunks = chunksOf(ids, BOUNDS_CHUNK);
  // One query a chunk of machines, each read over its own bounds: rows that start before the bounds end and
  // reach back into them (`reaches`).
  const inBounds = <T extends 'state_intervals' | 'annotations'>(
    eb: ExpressionBuilder<Database, T>,
    chunk: readonly string[],
    reaches: (b: { from: number; to: number }, id: string) => Expression<SqlBool>,
  ) =>
    eb.or(
      chunk.map((id) => {
        const b = bounds.get(id)!;
        return eb.and([
          eb(sql.ref('machine_id'), '=', id),
          eb(sql.ref('start_at'), '<', b.to),
          reaches(b, id),
        ]);
      }),
    );
  const [intervals, annotationRows] = await Promise.all([
    Promise.all(
      chunks.map((chunk) =>
        db
          .selectFrom('state_intervals')
          .select(['machine_id', 'start_at', 'end_at', 'state', 'reason'])
          .where((eb) =>
            inBounds(eb, chunk, (b, id) =>
              eb.and([
                eb('start_at', '>=', sinceLastStart('state_intervals', id, null, b.from)),
                eb.or([eb('end_at', 'is', null), eb('end_at', '>', b.from)]),
              ]),
            ),
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
 * a source. `downtimeOnly`: only the states, the downtime annotations cover and the monitored life (what
 * domain noDataSpans reads), without spans, cycles, adjustments or runs.
 */
export async function loadRollupSources(
  db: Kysely<Database>,
  machineIds: readonly string[],
  range: { start: number; end: number },
  opts: { now?: number; downtimeOnly?: boolean } = {},
): Promise<Map<string, RollupSource>> {
  const out = new Map<string, RollupSource>();
  if (machineIds.length === 0) return out;
  const ids = [...machineIds];
  const now = opts.now ?? range.end;
  const unless = <T>(q: () => Promise<T[]>): Promise<T[]> => (opts.downtimeOnly ? Promise.resolve([]) : q());
  // Which annotation covers which downtime is decided on whole downtime periods, as the downtime list
  // decides it; state time is still clipped to the range.
  const [downtime, spans, cycles, adjustments, runs, life] = await Promise.all([
    loadDowntimeFacts(db, ids, range),
    unless(() =>
      Promise.all(
        chunksOf(ids, BOUNDS_CHUNK / 2).map((chunk) =>
          db
            .selectFrom('flag_spans')
            .select(['machine_id', 'kind', 'start_at', 'end_at'])
            .where((eb) =>
              eb.or(
                chunk.flatMap((id) =>
                  FLAG_KINDS.map((kind) =>
                    eb.and([
                      eb('machine_id', '=', id),
                      eb('kind', '=', kind),
                      eb('start_at', '>=', sinceLastStart('flag_spans', id, kind, range.start)),
                    ]),
                  ),
                ),
              ),
            )
            .where('start_at', '<', range.end)
            .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', range.start)]))
            .orderBy('start_at')
            .execute(),
        ),
      ).then((parts) => parts.flat()),
    ),
    unless(() =>
      db
        .selectFrom('cycles')
        .selectAll()
        .where('machine_id', 'in', ids)
        .where('end_at', '>=', range.start)
        .where('end_at', '<', range.end)
        .orderBy('end_at')
        .execute(),
    ),
    unless(() =>
      db
        .selectFrom('part_adjustments')
        .select([
          'machine_id',
          'adjustment_time',
          'count',
          'scrapcount',
          'reject_behavior',
          'type_id',
          'kind',
        ])
        .where('machine_id', 'in', ids)
        .where('adjustment_time', '>=', range.start)
        .where('adjustment_time', '<', range.end)
        .execute(),
    ),
    unless(() =>
      db
        .selectFrom('job_runs')
        .selectAll()
        .where('machine_id', 'in', ids)
        .where('start_at', '<', range.end)
        .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', range.start)]))
        .execute(),
    ),
    loadMonitoredFrom(db, ids),
  ]);
  const { intervals, types } = downtime;
  const annotations = downtime.annotations.map((a) => ({ ...a, machine_id: a.machineId }));
  const before = await manycyclesBefore(db, runs, range.start);
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
      toRollupSource(
        machineId,
        range,
        now,
        types,
        life.get(machineId) ?? null,
        {
          intervals: f.intervals(machineId),
          spans: f.spans(machineId),
          cycles: f.cycles(machineId),
          adjustments: f.adjustments(machineId),
          annotations: f.annotations(machineId),
          runs: f.runs(machineId),
        },
        before,
      ),
    );
  }
  return out;
}

/**
 * For each manycycles run that started before `from`: the count of its cycles that ended before `from`, so a
 * range starting mid-run credits every requiredCycles-th cycle of the run, not of the range (METRICS.md §3,
 * decision 1022). One aggregate per such run (usually none).
 */
async function manycyclesBefore(
  db: Kysely<Database>,
  runs: ReadonlyArray<Selectable<Database['job_runs']>>,
  from: number,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const cut = runs.filter((r) => r.part_behavior === 'manycycles' && r.start_at < from);
  await Promise.all(
    cut.map(async (r) => {
      const row = await db
        .selectFrom('cycles')
        .select((eb) => eb.fn.sum<number | string | null>('count').as('n'))
        .where('machine_id', '=', r.machine_id)
        .where('end_at', '>=', r.start_at)
        .where('end_at', '<', r.end_at == null ? from : Math.min(from, r.end_at))
        .executeTakeFirst();
      out.set(r.id, Number(row?.n ?? 0));
    }),
  );
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
    kind: Selectable<Database['part_adjustments']>['kind'];
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
  monitoredFrom: number | null,
  { intervals, spans, cycles, adjustments, annotations, runs }: FactRows,
  cyclesBefore: ReadonlyMap<string, number> = new Map(),
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
  // Decision 1073: a manual work center's Add Parts are its cycles for Performance (their parts count once,
  // as the adjustments they are).
  const added = adjustments
    .filter((a) => a.kind === 'manual')
    .map((a) => ({ at: Number(a.adjustment_time), count: a.count }));
  const standardCycles = applyStandards(machineCycles, runStandards, cyclesBefore);
  const allCycles =
    added.length === 0
      ? standardCycles
      : [...standardCycles, ...manualCycles(runs.map(toManualRun), added)].sort((a, b) => a.end - b.end);

  return {
    machineId,
    monitoredFrom: monitoredFrom === null ? null : epochMs(monitoredFrom),
    intervals: stateIntervals,
    spindle: spans.filter((s) => s.kind === 'spindle').map(toSpan),
    inCut: spans.filter((s) => s.kind === 'incut').map(toSpan),
    cycles: allCycles,
    adjustments: facts,
    annotations: downtime,
    runs: runStandards,
  };
}
