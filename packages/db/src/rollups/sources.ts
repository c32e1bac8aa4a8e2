import { sql } from 'kysely';
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Annotation, DowntimePiece, RollupSource } from '@takt/domain';
import type { Database } from '../schema';
import {
  BOUNDS_CHUNK,
  chunksOf,
  isPostgres,
  loadDowntimeFacts,
  loadFlagSpans,
  loadMonitoredFrom,
} from './range-reads';
import type { CompanyDb, DowntimeFacts } from './range-reads';
import { toRollupSource } from './rollup-source-map';

export { isPostgres, loadDowntimeFacts, loadMonitoredFrom } from './range-reads';
export type { CompanyDb, DowntimeFacts, StateRowOf } from './range-reads';

// A machine's stored facts as the domain's RollupSource (what its rollups are built from), for a range.

/**
 * Everything a machine's rollups are built from, for [range.start, range.end): stored state intervals,
 * spindle/in-cut spans, cycles with their job run's standards, part adjustments, the downtime its
 * annotations cover (with the planned value judged at `now`) and job runs, clipped to the range. Open
 * records end at range.end. `now` defaults to range.end (a live range ends now).
 */
export async function loadRollupSource(
  of: CompanyDb,
  machineId: string,
  range: { start: number; end: number },
  opts: { now?: number } = {},
): Promise<RollupSource> {
  return (await loadRollupSources(of, [machineId], range, opts)).get(machineId)!;
}

/**
 * loadRollupSource for many machines at once, of `of.companyId`'s machines: the same queries with `machine_id IN (…)`, so a live
 * dashboard of 50+ machines costs a handful of round trips instead of several per machine. Every id gets
 * a source. `downtimeOnly`: only the states, the downtime annotations cover and the monitored life (what
 * domain noDataSpans reads), without spans, cycles, adjustments or runs. `facts`: loadDowntimeFacts of the
 * same machines over the same range, when the caller has read them already. `within`: each machine's cycles and
 * part adjustments only inside its own span in the range (a tile goal's head, decision 1155: the machines' runs
 * start at different times; the other facts are few). `spans: false`: no spindle or in-cut spans (a parts goal).
 * `life`: loadMonitoredFrom of the machines, read once for several ranges.
 */
export async function loadRollupSources(
  of: CompanyDb,
  machineIds: readonly string[],
  range: { start: number; end: number },
  opts: {
    now?: number;
    downtimeOnly?: boolean;
    facts?: DowntimeFacts;
    within?: ReadonlyMap<string, { start: number; end: number }>;
    spans?: false;
    /** loadMonitoredFrom of the machines, when the caller has read it already. */
    life?: ReadonlyMap<string, number>;
    /**
     * With `facts`: each machine's downtime pieces of those facts (piecesOf(segmentsOf(its state rows), its
     * annotations)), when the caller has split them already (decision 1172).
     */
    pieces?: ReadonlyMap<string, ReadonlyArray<DowntimePiece<Annotation>>>;
  } = {},
): Promise<Map<string, RollupSource>> {
  const out = new Map<string, RollupSource>();
  if (machineIds.length === 0) return out;
  const { db, companyId } = of;
  const ids = [...machineIds];
  const now = opts.now ?? range.end;
  const unless = <T>(q: () => Promise<T[]>): Promise<T[]> => (opts.downtimeOnly ? Promise.resolve([]) : q());
  // Which annotation covers which downtime is decided on whole downtime periods, as the downtime list
  // decides it; state time is still clipped to the range.
  // The machines' rows in the range (each in its own span of it with `within`: the lists below). Every read is of
  // `companyId`'s rows only: the cycles view joins cycle_rows to (company_id, machine_id), and another company's
  // machine of the same id is another machine (decision 1130).
  const perMachine = <T extends 'cycles' | 'part_adjustments'>(
    eb: ExpressionBuilder<Database, T>,
    at: 'end_at' | 'adjustment_time',
  ) =>
    eb.and([
      eb(sql.ref('machine_id'), 'in', ids),
      eb(sql.ref<number>(at), '>=', range.start),
      eb(sql.ref<number>(at), '<', range.end),
    ]);
  // On PostgreSQL each machine's own span is a row of a list, each row's facts read by a lateral index range: an OR
  // of a few hundred (machine, start, end) terms cost it ~300 ms at 1,000 machines, a plain join (or a lateral one
  // the planner flattens; `offset 0` keeps it apart) a scan of every cycle (decision 1164).
  const spans = opts.within && isPostgres(db) ? withinList(ids, range, opts.within) : null;
  // On SQLite the spans a `values` list each row of which seeks its machine's rows on the (machine, time) index (`cross
  // join` keeps the list outside): an OR of 334 such terms took it 250-330 ms at 1,000 machines (decision 1202).
  const listed = opts.within && !spans ? withinValues(ids, range, opts.within) : null;
  const [downtime, flagSpans, cycles, adjustments, runs, life] = await Promise.all([
    opts.facts ?? loadDowntimeFacts(of, ids, range),
    unless(() =>
      opts.spans === false
        ? Promise.resolve([])
        : Promise.all(
            chunksOf(ids, BOUNDS_CHUNK / 2).map((chunk) => loadFlagSpans(db, chunk, range, companyId)),
          ).then((parts) => parts.flat()),
    ),
    unless(() =>
      spans
        ? db
            .selectFrom(spans.as('w'))
            .innerJoinLateral(
              (eb) =>
                eb
                  .selectFrom('cycles')
                  .selectAll()
                  .whereRef('cycles.machine_id', '=', 'w.m')
                  .where('cycles.company_id', '=', companyId)
                  .whereRef('cycles.end_at', '>=', 'w.s')
                  .whereRef('cycles.end_at', '<', 'w.e')
                  .offset(0)
                  .as('c'),
              (j) => j.onTrue(),
            )
            .selectAll('c')
            .orderBy('c.end_at')
            .execute()
        : listed
          ? db
              .selectFrom(listed.as('w'))
              .crossJoin('cycles')
              .selectAll('cycles')
              .where('cycles.company_id', '=', companyId)
              .whereRef('cycles.machine_id', '=', 'w.m')
              .whereRef('cycles.end_at', '>=', 'w.s')
              .whereRef('cycles.end_at', '<', 'w.e')
              .orderBy('cycles.end_at')
              .execute()
          : db
              .selectFrom('cycles')
              .selectAll()
              .where('company_id', '=', companyId)
              .where((eb) => perMachine(eb, 'end_at'))
              .orderBy('end_at')
              .execute(),
    ),
    unless(() =>
      spans
        ? db
            .selectFrom(spans.as('w'))
            .innerJoinLateral(
              (eb) =>
                eb
                  .selectFrom('part_adjustments')
                  .select(ADJUSTMENT_COLUMNS)
                  .whereRef('part_adjustments.machine_id', '=', 'w.m')
                  .where('part_adjustments.company_id', '=', companyId)
                  .whereRef('part_adjustments.adjustment_time', '>=', 'w.s')
                  .whereRef('part_adjustments.adjustment_time', '<', 'w.e')
                  .offset(0)
                  .as('a'),
              (j) => j.onTrue(),
            )
            .selectAll('a')
            .execute()
        : listed
          ? db
              .selectFrom(listed.as('w'))
              .crossJoin('part_adjustments')
              .select(ADJUSTMENT_COLUMNS.map((c) => `part_adjustments.${c}` as const))
              .where('part_adjustments.company_id', '=', companyId)
              .whereRef('part_adjustments.machine_id', '=', 'w.m')
              .whereRef('part_adjustments.adjustment_time', '>=', 'w.s')
              .whereRef('part_adjustments.adjustment_time', '<', 'w.e')
              .execute()
          : db
              .selectFrom('part_adjustments')
              .select(ADJUSTMENT_COLUMNS)
              .where('company_id', '=', companyId)
              .where((eb) => perMachine(eb, 'adjustment_time'))
              .execute(),
    ),
    unless(() =>
      db
        .selectFrom('job_runs')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('machine_id', 'in', ids)
        .where('start_at', '<', range.end)
        .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', range.start)]))
        .execute(),
    ),
    opts.life ?? loadMonitoredFrom(db, ids),
  ]);
  const { intervals, annotations, types } = downtime;
  const before = await manycyclesBefore(db, runs, range.start);
  // The rows of each machine, in their read order. The annotations as read (decision 1186: a copy of each with a
  // machine_id was 5 % of a categorized month's downtime report).
  const byMachine = <R>(
    rows: R[],
    machineOf: (r: R) => string = (r) => (r as { machine_id: string }).machine_id,
  ) => {
    const m = new Map<string, R[]>();
    for (const r of rows) {
      const list = m.get(machineOf(r));
      if (list) list.push(r);
      else m.set(machineOf(r), [r]);
    }
    return (id: string) => m.get(id) ?? [];
  };
  const f = {
    intervals: byMachine(intervals),
    spans: byMachine(flagSpans),
    cycles: byMachine(cycles),
    adjustments: byMachine(adjustments),
    annotations: byMachine(annotations, (a) => a.machineId),
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
          pieces: opts.facts ? opts.pieces?.get(machineId) : undefined,
        },
        before,
      ),
    );
  }
  return out;
}

const ADJUSTMENT_COLUMNS = [
  'machine_id',
  'adjustment_time',
  'count',
  'scrapcount',
  'reject_behavior',
  'type_id',
  'kind',
] as const;

/** Each machine's span of the range: its start and end clipped to the range. */
const spansOf = (
  ids: readonly string[],
  range: { start: number; end: number },
  within: ReadonlyMap<string, { start: number; end: number }>,
) =>
  ids.map((id) => {
    const w = within.get(id) ?? range;
    return { m: id, s: Math.max(w.start, range.start), e: Math.min(w.end, range.end) };
  });

/** spansOf as the rows (m, s, e) of a SQLite `values` list. */
const withinValues = (
  ids: readonly string[],
  range: { start: number; end: number },
  within: ReadonlyMap<string, { start: number; end: number }>,
) =>
  sql<{
    m: string;
    s: number;
    e: number;
  }>`(select column1 as m, column2 as s, column3 as e from (values ${sql.join(
    spansOf(ids, range, within).map((x) => sql`(${x.m}, ${x.s}, ${x.e})`),
  )}))`;

/** Each machine's span of the range as the rows (m, s, e) of a PostgreSQL list, three array parameters. */
function withinList(
  ids: readonly string[],
  range: { start: number; end: number },
  within: ReadonlyMap<string, { start: number; end: number }>,
) {
  const spans = spansOf(ids, range, within);
  return sql<{
    m: string;
    s: number;
    e: number;
  }>`(select * from unnest(${spans.map((x) => x.m)}::text[], ${spans.map(
    (x) => x.s,
  )}::bigint[], ${spans.map((x) => x.e)}::bigint[]) as u(m, s, e))`;
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
        .where('company_id', '=', r.company_id)
        .where('machine_id', '=', r.machine_id)
        .where('end_at', '>=', r.start_at)
        .where('end_at', '<', r.end_at == null ? from : Math.min(from, r.end_at))
        .executeTakeFirst();
      out.set(r.id, Number(row?.n ?? 0));
    }),
  );
  return out;
}
