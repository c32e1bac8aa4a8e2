import type { ExpressionBuilder, Insertable, Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import {
  addDowntimeByReasonInto,
  companyWeekRange,
  decodeDowntimeFigures,
  downtimeDays,
  downtimeWeeks,
  encodeDowntimeFigures,
  epochMs,
  packSeriesRows,
  rollupDays,
  rollupWeeks,
  wholeWeeksOfCells,
} from '@takt/domain';
import type {
  CompanyClock,
  DowntimeFigures,
  DowntimeMs,
  Rollup,
  RollupSeries,
  SeriesRow,
} from '@takt/domain';
import type { Database, RollupDaysTable } from '../schema';
import { numberedPlaceholders } from '../batch-insert';
import { writeChangedRows } from './changed-rows';
import type { CompanyScope } from '../scope';

// Decision 0804: rollup_days, the stored sum of a machine's rollups per company day × shift. Written only
// by writeRollupDays, in the transaction that writes the hourly rows it sums, so the two never disagree
// (only the rows that changed, decision 1153).

/** The one mapping of a domain row to a rollup_days row. */
function toRow(
  companyId: string,
  r: Rollup,
  computedAt: number,
  downtime: DowntimeFigures | null,
): Insertable<RollupDaysTable> {
  return {
    company_id: companyId,
    machine_id: r.machineId,
    start_at: r.start,
    end_at: r.end,
    shift_id: r.shiftId,
    duration_ms: r.durationMs,
    active_ms: r.stateMs.ACTIVE,
    setup_ms: r.stateMs.SETUP,
    inactive_ms: r.stateMs.INACTIVE,
    fault_ms: r.stateMs.FAULT,
    unavailable_ms: r.stateMs.UNAVAILABLE,
    spindle_ms: r.spindleMs,
    in_cut_ms: r.inCutMs,
    planned_downtime_ms: r.plannedDowntimeMs,
    unplanned_downtime_ms: r.unplannedDowntimeMs,
    cycles: r.cycles,
    ideal_ms: r.idealMs,
    standard_run_ms: r.standardRunMs,
    expected_ms: r.expectedMs,
    parts: r.parts,
    adjustment_count: r.adjustmentCount,
    rejected: r.rejected,
    min_expected_part_time: r.minExpectedPartTime,
    reasons: JSON.stringify({ downtimeByReason: r.downtimeByReason, rejectsByType: r.rejectsByType }),
    computed_at: computedAt,
    downtime: downtime && encodeDowntimeFigures(downtime),
  };
}

type DayRow = Omit<Selectable<RollupDaysTable>, 'company_id' | 'computed_at' | 'reasons' | 'downtime'> & {
  reasons?: string;
};

const EMPTY = '{"downtimeByReason":{},"rejectsByType":{}}';

/** The one mapping of a rollup_days row to the domain's Rollup (literal in a fixed order: one hidden class). */
function fromRow(r: DayRow): Rollup {
  const reasons = JSON.parse(r.reasons ?? EMPTY) as {
    downtimeByReason: Record<string, DowntimeMs>;
    rejectsByType: Record<string, number>;
  };
  return {
    machineId: r.machine_id,
    start: epochMs(Number(r.start_at)),
    end: epochMs(Number(r.end_at)),
    shiftId: r.shift_id,
    durationMs: r.duration_ms,
    stateMs: {
      ACTIVE: r.active_ms,
      SETUP: r.setup_ms,
      INACTIVE: r.inactive_ms,
      FAULT: r.fault_ms,
      UNAVAILABLE: r.unavailable_ms,
    },
    spindleMs: r.spindle_ms,
    inCutMs: r.in_cut_ms,
    plannedDowntimeMs: r.planned_downtime_ms,
    unplannedDowntimeMs: r.unplanned_downtime_ms,
    downtimeByReason: reasons.downtimeByReason,
    cycles: r.cycles,
    idealMs: r.ideal_ms,
    standardRunMs: r.standard_run_ms,
    expectedMs: r.expected_ms,
    parts: r.parts,
    adjustmentCount: r.adjustment_count,
    rejected: r.rejected,
    rejectsByType: reasons.rejectsByType,
    minExpectedPartTime: r.min_expected_part_time,
  };
}

/** Which machine's sums to write, for which company days [from, to), stamped when. */
interface SumsTarget {
  companyId: string;
  machineId: string;
  clock: CompanyClock;
  from: number;
  to: number;
  computedAt: number;
}

/**
 * Mutates: the machine's day rows starting in [from, to) (whole company days) become the sums of `rows`, the
 * hourly rows just written for the same days, and the week rows of the weeks holding them the sums of their
 * day rows. Call inside the transaction that writes the hourly rows. Only rows that changed are written
 * (decision 1153); `changed`: whether that transaction changed any hourly row.
 */
export async function writeRollupDays(
  trx: Kysely<Database>,
  input: SumsTarget & {
    rows: readonly Rollup[];
    /** Each row's downtime report figures (decision 1188); absent: the sums are stored without them. */
    downtime?: readonly DowntimeFigures[];
    changed?: boolean;
  },
): Promise<void> {
  const days = rollupDays(input.clock, input.rows);
  const figures = downtimeDays(input.clock, input.rows, (_r, i) => input.downtime?.[i] ?? null);
  const span = { start: input.from, end: input.to };
  const written = await writeSums(trx, 'rollup_days', input, span, days, figures);
  if (input.to > input.from)
    await writeRollupWeeks(trx, input, days, figures, input.changed === true || written > 0);
}

/**
 * Mutates: the machine's week rows of the company weeks that hold [from, to) become the sums of their day
 * rows: `days` (just written for [from, to)) and the stored ones of the rest of those weeks. When the hourly
 * or day rows changed (`changed`) but no week row did (time moved within a shift's week), the week rows still
 * take the new computed_at: a report's data version is the latest computed_at of the week rows (decision 1148).
 */
async function writeRollupWeeks(
  trx: Kysely<Database>,
  input: SumsTarget,
  days: readonly Rollup[],
  figures: ReadonlyMap<number, DowntimeFigures | null>,
  changed: boolean,
): Promise<void> {
  const weeks = {
    start: companyWeekRange(input.clock, input.from).start,
    end: companyWeekRange(input.clock, input.to - 1).end,
  };
  const stored = (start: number, end: number) =>
    start >= end
      ? Promise.resolve([])
      : trx
          .selectFrom('rollup_days')
          .select([...DAY_COLUMNS, 'reasons', 'downtime'])
          .where('company_id', '=', input.companyId)
          .where('machine_id', '=', input.machineId)
          .where('start_at', '>=', start)
          .where('start_at', '<', end)
          .orderBy('start_at')
          .execute();
  const [before, after] = [await stored(weeks.start, input.from), await stored(input.to, weeks.end)];
  const all = [...before.map(fromRow), ...days, ...after.map(fromRow)];
  const sums = rollupWeeks(input.clock, all);
  // The stored days' figures (outside [from, to)) and the new days'.
  const text = new Map([...before, ...after].map((r) => [Number(r.start_at), r.downtime ?? null]));
  const weekFigures = downtimeWeeks(input.clock, all, (d) =>
    text.has(d.start) ? decodeDowntimeFigures(text.get(d.start)) : (figures.get(d.start) ?? null),
  );
  if ((await writeSums(trx, 'rollup_weeks', input, weeks, sums, weekFigures)) > 0 || !changed) return;
  await trx
    .updateTable('rollup_weeks')
    .set({ computed_at: input.computedAt })
    .where('machine_id', '=', input.machineId)
    .where('company_id', '=', input.companyId)
    .where('start_at', '>=', weeks.start)
    .where('start_at', '<', weeks.end)
    .execute();
}

/** Mutates: the machine's rows of `table` starting in [start, end) become `sums`; how many rows it wrote. */
function writeSums(
  trx: Kysely<Database>,
  table: 'rollup_days' | 'rollup_weeks',
  input: SumsTarget,
  span: { start: number; end: number },
  sums: readonly Rollup[],
  figures: ReadonlyMap<number, DowntimeFigures | null>,
): Promise<number> {
  const rows = sums.map((r) => toRow(input.companyId, r, input.computedAt, figures.get(r.start) ?? null));
  const of = { companyId: input.companyId, machineId: input.machineId, ...span };
  return writeChangedRows(trx, table, of, rows);
}

/** The time measures of a day row, in ms: its length, each state's share, spindle, in-cut, planned downtime. */
const TIME_COLUMNS = [
  'duration_ms',
  'active_ms',
  'setup_ms',
  'inactive_ms',
  'fault_ms',
  'unavailable_ms',
  'spindle_ms',
  'in_cut_ms',
  'planned_downtime_ms',
] as const;

const DAY_COLUMNS = [
  'machine_id',
  'start_at',
  'end_at',
  'shift_id',
  ...TIME_COLUMNS,
  'unplanned_downtime_ms',
  'cycles',
  'ideal_ms',
  'standard_run_ms',
  'expected_ms',
  'parts',
  'adjustment_count',
  'rejected',
  'min_expected_part_time',
] as const;

/**
 * Stored day rows of the machines starting in [start, end), as the domain's Rollup rows, by start (the
 * reports read loadRollupCells; these for tests and bench/oee-reports.ts). Without
 * `reasons` the per-reason maps are left unread (empty): for the reports that sum only the numeric measures.
 */
export async function loadRollupDays(
  scope: CompanyScope,
  input: { machineIds: readonly string[]; start: number; end: number; reasons: boolean },
): Promise<Rollup[]> {
  if (input.machineIds.length === 0) return [];
  const q = scope
    .selectFrom('rollup_days')
    .select(DAY_COLUMNS)
    .where('machine_id', 'in', [...input.machineIds])
    .where('start_at', '>=', input.start)
    .where('start_at', '<', input.end)
    .orderBy('start_at');
  const rows: DayRow[] = input.reasons ? await q.select('reasons').execute() : await q.execute();
  return rows.map(fromRow);
}

// ---------------------------------------------------------------------------------------------------------
// Report cells read from the stored sums (decisions 0804 and 0953)

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
