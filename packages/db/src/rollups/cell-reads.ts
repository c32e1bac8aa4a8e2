import type { ExpressionBuilder } from 'kysely';
import { sql } from 'kysely';
import { addDowntimeByReasonInto, packSeriesRows, wholeWeeksOfCells } from '@takt/domain';
import type { CompanyClock, DowntimeMs, RollupSeries, SeriesRow } from '@takt/domain';
import type { Database } from '../schema';
import { numberedPlaceholders } from '../batch-insert';
import type { CompanyScope } from '../scope';

// Report cells read from the stored sums (decisions 0804 and 0953), split from days.ts (the writers) when it passed
// 500 lines.

/**
 * The machines' stored sums starting in [start, end) for report cells, packed per machine (RollupSeries)
 * with the measures the packed series keep: the whole company weeks inside the cells from the week rows,
 * the rest from the day rows. Every such row falls wholly inside one cell (`cellStarts`: the report's cell
 * starts, sorted, each a company-day start, decision 0804), so summing the packed rows per cell and shift
 * selection (efficiencyTotalsSeries, knownStateMsSeries) gives exactly what summing the hourly rows gives:
 * whole ms and counts. Also the latest computed_at of each machine's rows in the range, from the same scan,
 * so deciding which machines the stored rows cover (decision 0700) costs no second pass over them.
 */
export async function loadRollupCells(
  scope: CompanyScope,
  input: {
    machineIds: readonly string[];
    start: number;
    end: number;
    cellStarts: readonly number[];
    clock: CompanyClock;
  },
): Promise<{ series: Map<string, RollupSeries>; computedAt: Map<string, number> }> {
  const series = new Map<string, RollupSeries>();
  const computedAt = new Map<string, number>();
  if (input.machineIds.length === 0) return { series, computedAt };
  const { weeks, days } = weeksAndDays(input.clock, input.cellStarts, input);
  // Both at once (PostgreSQL runs them on two connections).
  const read = (table: 'rollup_days' | 'rollup_weeks', ranges: Ranges) =>
    ranges.length > 0 ? seriesRows(scope, table, input.machineIds, ranges) : Promise.resolve([]);
  const parts = (await Promise.all([read('rollup_days', days), read('rollup_weeks', weeks)])).flat();
  const byMachine = new Map<string, SeriesRow[]>();
  for (const p of parts) {
    const rows = JSON.parse(p.rows) as SeriesRow[];
    const list = byMachine.get(p.machine_id);
    if (!list) byMachine.set(p.machine_id, rows);
    else for (const r of rows) list.push(r);
    const latest = Number(p.computed_at);
    computedAt.set(p.machine_id, Math.max(latest, computedAt.get(p.machine_id) ?? latest));
  }
  // Each machine's rows packed in time order: the database hands them out in no particular order.
  for (const [id, list] of byMachine) {
    let sorted = true;
    for (let i = 1; i < list.length && sorted; i++) sorted = list[i - 1]![1] <= list[i]![1];
    if (!sorted) list.sort((a, b) => a[1] - b[1]);
    series.set(id, packSeriesRows(list));
  }
  return { series, computedAt };
}

export type Ranges = Array<{ start: number; end: number }>;

/**
 * Which parts of [start, end) a report reads from week rows (the whole company weeks inside its cells: a
 * seventh of the day rows) and which from day rows (the rest); a cell's sums are the same either way.
 */
export function weeksAndDays(
  clock: CompanyClock,
  cellStarts: readonly number[],
  range: { start: number; end: number },
): { weeks: Ranges; days: Ranges } {
  const weeks = wholeWeeksOfCells(clock, cellStarts, range.end).filter(
    (w) => w.start >= range.start && w.end <= range.end,
  );
  const days: Ranges = [];
  let at = range.start;
  for (const w of [...weeks, { start: range.end, end: range.end }]) {
    if (w.start > at) days.push({ start: at, end: w.start });
    at = w.end;
  }
  return { weeks, days };
}

/** A day or week row's SeriesRow fields and its computed_at, as seriesRows reads them. */
const SERIES_ROW_COLUMNS = [
  sql.ref('shift_id'),
  sql.ref('start_at'),
  sql.ref('end_at'),
  sql.ref('duration_ms'),
  sql.ref('active_ms'),
  sql`active_ms + setup_ms + inactive_ms + fault_ms + unavailable_ms`,
  sql.ref('spindle_ms'),
  sql.ref('in_cut_ms'),
  sql.ref('planned_downtime_ms'),
  sql.ref('ideal_ms'),
  sql`parts + adjustment_count`,
  sql.ref('rejected'),
  sql.ref('min_expected_part_time'),
  sql.ref('standard_run_ms'),
  sql.ref('computed_at'),
] as const;

/**
 * `table`'s rows of the machines starting in `ranges` (null: all the company's machines, all time), one
 * result row per machine: its latest computed_at and its rows as a JSON array of SeriesRow tuples, each
 * with the row's computed_at after them (for the week index, decision 1157). A JSON text per machine
 * instead of a driver row per stored row: materializing ~16,000 rows of 14 columns (100 machines × 1 year of week rows) cost the
 * drivers 2–4× what the database's own JSON aggregate costs (decision 0953). The aggregate is named
 * differently on the two dialects; both write numbers in their shortest exact form (SQLite 3.53 bundled
 * with better-sqlite3; PostgreSQL with its default extra_float_digits = 1).
 */
export async function seriesRows(
  scope: CompanyScope,
  table: 'rollup_days' | 'rollup_weeks',
  machineIds: readonly string[] | null,
  ranges: Ranges | null,
): Promise<Array<{ machine_id: string; computed_at: number | string; rows: string }>> {
  const tuple = sql.join(SERIES_ROW_COLUMNS);
  const rows = numberedPlaceholders(scope.db)
    ? sql<string>`json_agg(json_build_array(${tuple}))::text`
    : sql<string>`json_group_array(json_array(${tuple}))`;
  let q = scope
    .selectFrom(table)
    .select((eb) => ['machine_id', eb.fn.max('computed_at').as('computed_at'), rows.as('rows')])
    .groupBy('machine_id');
  if (machineIds && ranges && ranges.length > 1 && machineIds.length * ranges.length <= MAX_SPREAD_IDS)
    // Each range a key range of (machine_id, start_at) with the machines in it: SQLite reads
    // `machine_id IN (…) AND (range OR range)` by machine alone, every day row of each machine (a year: ~5× the
    // rows of a mid-day range's two partial weeks), where the machines inside each term give a multi-index OR
    // (decision 1183). Bounded so the parameters stay far below SQLite's 32,766.
    q = q.where((eb) =>
      eb.or(
        ranges.map((r) =>
          eb.and([
            eb('machine_id', 'in', [...machineIds]),
            eb('start_at', '>=', r.start),
            eb('start_at', '<', r.end),
          ]),
        ),
      ),
    );
  else {
    if (machineIds) q = q.where('machine_id', 'in', [...machineIds]);
    if (ranges) q = q.where((eb) => inRanges(eb, ranges));
  }
  return q.execute();
}

/** Each machine's pending dirty mark (decision 0700): time from which its stored rows are stale. */
export async function rollupDirtyMarks(
  scope: CompanyScope,
  machineIds: readonly string[],
): Promise<Map<string, number>> {
  if (machineIds.length === 0) return new Map();
  const marks = await scope
    .selectFrom('rollup_dirty')
    .select(['machine_id', 'from_at'])
    .where('machine_id', 'in', [...machineIds])
    .execute();
  return new Map(marks.map((m) => [m.machine_id, Number(m.from_at)]));
}

/**
 * The downtime by reason of the machines' day rows starting in [start, end) in shift time (in the selected
 * shifts when `shiftIds` is given): the same sums as adding the rows' `downtimeByReason` maps (whole ms).
 * On SQLite the database sums them from the JSON `reasons` column (json_each: one row per reason instead
 * of a JSON parse per day row, measured ~80 ms against ~130 ms for 100 machines × 1 year); on PostgreSQL
 * json_each (or jsonb_each) over a cast of the text column measured about twice as slow as reading the
 * column and parsing it here (~290 ms against ~150 ms, decision 0804), so it does that.
 */
export async function loadRollupDayDowntimeByReason(
  scope: CompanyScope,
  input: {
    machineIds: readonly string[];
    start: number;
    end: number;
    shiftIds: ReadonlySet<string> | null;
    clock: CompanyClock;
  },
): Promise<Record<string, DowntimeMs>> {
  const out: Record<string, DowntimeMs> = {};
  if (input.machineIds.length === 0 || input.shiftIds?.size === 0) return out;
  // Any whole week of the range is read from its week rows, the rest from day rows.
  const { weeks, days } = weeksAndDays(input.clock, [input.start], input);
  for (const [table, ranges] of [
    ['rollup_days', days],
    ['rollup_weeks', weeks],
  ] as const)
    if (ranges.length > 0) await addStoredDowntimeByReason(scope, table, input, ranges, out);
  return out;
}

/**
 * Mutates `out`: adds the downtime by reason of `table`'s rows starting in `ranges` (in shift time, in the
 * selected shifts). The week index (decision 1166) reads the partial weeks' day rows through it.
 */
export async function addStoredDowntimeByReason(
  scope: CompanyScope,
  table: 'rollup_days' | 'rollup_weeks',
  input: { machineIds: readonly string[]; shiftIds: ReadonlySet<string> | null },
  ranges: Ranges,
  out: Record<string, DowntimeMs>,
): Promise<void> {
  if (numberedPlaceholders(scope.db)) {
    let q = scope
      .selectFrom(table)
      .select('reasons')
      .where('machine_id', 'in', [...input.machineIds])
      .where((eb) => inRanges(eb, ranges));
    q = input.shiftIds ? q.where('shift_id', 'in', [...input.shiftIds]) : q.where('shift_id', 'is not', null);
    for (const r of await q.execute())
      addDowntimeByReasonInto(
        out,
        (JSON.parse(r.reasons) as { downtimeByReason: Record<string, DowntimeMs> }).downtimeByReason,
      );
    return;
  }
  const ids = sql.join([...input.machineIds]);
  const shifts = input.shiftIds
    ? sql`AND d.shift_id IN (${sql.join([...input.shiftIds])})`
    : sql`AND d.shift_id IS NOT NULL`;
  const within = sql.join(
    ranges.map((r) => sql`(d.start_at >= ${r.start} AND d.start_at < ${r.end})`),
    sql` OR `,
  );
  const { rows } = await sql<ReasonRow>`SELECT j.key AS reason,
      sum(json_extract(j.value, '$.plannedMs')) AS planned_ms,
      sum(json_extract(j.value, '$.unplannedMs')) AS unplanned_ms
    FROM ${sql.table(table)} d, json_each(d.reasons, '$.downtimeByReason') j
    WHERE d.company_id = ${scope.companyId} AND d.machine_id IN (${ids}) AND (${within}) ${shifts}
    GROUP BY j.key`.execute(scope.db);
  for (const r of rows) {
    const into = (out[r.reason] ??= { plannedMs: 0, unplannedMs: 0 });
    into.plannedMs += Number(r.planned_ms);
    into.unplannedMs += Number(r.unplanned_ms);
  }
}

/** The most machine ids seriesRows repeats in its ranges' terms (machines × ranges). */
const MAX_SPREAD_IDS = 10_000;

/** start_at in one of `ranges`. */
function inRanges(eb: ExpressionBuilder<Database, 'rollup_days' | 'rollup_weeks'>, ranges: Ranges) {
  return eb.or(ranges.map((r) => eb.and([eb('start_at', '>=', r.start), eb('start_at', '<', r.end)])));
}

interface ReasonRow {
  reason: string;
  planned_ms: number | string;
  unplanned_ms: number | string;
}
