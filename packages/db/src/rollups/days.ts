import type { ExpressionBuilder, Insertable, Kysely, RawBuilder, Selectable } from 'kysely';
import { sql } from 'kysely';
import {
  addDowntimeByReasonInto,
  companyWeekRange,
  epochMs,
  packSeriesRows,
  rollupDays,
  rollupWeeks,
  wholeWeeksOfCells,
} from '@takt/domain';
import type { CompanyClock, DowntimeMs, Rollup, RollupSeries, SeriesRow } from '@takt/domain';
import type { Database, RollupDaysTable } from '../schema';
import { numberedPlaceholders } from '../batch-insert';
import type { CompanyScope } from '../scope';

// Decision 0804: rollup_days, the stored sum of a machine's rollups per company day × shift. Written only
// by writeRollupDays, in the transaction that writes the hourly rows it sums, so the two never disagree.

/** The one mapping of a domain row to a rollup_days row. */
function toRow(companyId: string, r: Rollup, computedAt: number): Insertable<RollupDaysTable> {
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
    expected_ms: r.expectedMs,
    parts: r.parts,
    adjustment_count: r.adjustmentCount,
    rejected: r.rejected,
    min_expected_part_time: r.minExpectedPartTime,
    reasons: JSON.stringify({ downtimeByReason: r.downtimeByReason, rejectsByType: r.rejectsByType }),
    computed_at: computedAt,
  };
}

type DayRow = Omit<Selectable<RollupDaysTable>, 'company_id' | 'computed_at' | 'reasons'> & {
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
 * Mutates: replaces the machine's day rows starting in [from, to) (whole company days) with the sums of
 * `rows`, the hourly rows just written for the same days. Call inside the transaction that writes them.
 */
export async function writeRollupDays(
  trx: Kysely<Database>,
  input: SumsTarget & { rows: readonly Rollup[] },
): Promise<void> {
  const days = rollupDays(input.clock, input.rows);
  await replaceRows(trx, 'rollup_days', input, { start: input.from, end: input.to }, days);
  if (input.to > input.from) await writeRollupWeeks(trx, input, days);
}

/**
 * Mutates: replaces the machine's week rows of the company weeks that hold [from, to) with the sums of their
 * day rows: `days` (just written for [from, to)) and the stored ones of the rest of those weeks.
 */
async function writeRollupWeeks(
  trx: Kysely<Database>,
  input: SumsTarget,
  days: readonly Rollup[],
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
          .select([...DAY_COLUMNS, 'reasons'])
          .where('company_id', '=', input.companyId)
          .where('machine_id', '=', input.machineId)
          .where('start_at', '>=', start)
          .where('start_at', '<', end)
          .orderBy('start_at')
          .execute();
  const before = (await stored(weeks.start, input.from)).map(fromRow);
  const after = (await stored(input.to, weeks.end)).map(fromRow);
  await replaceRows(
    trx,
    'rollup_weeks',
    input,
    weeks,
    rollupWeeks(input.clock, [...before, ...days, ...after]),
  );
}

/** Mutates: the machine's rows of `table` starting in [start, end) become `sums`. */
async function replaceRows(
  trx: Kysely<Database>,
  table: 'rollup_days' | 'rollup_weeks',
  input: SumsTarget,
  span: { start: number; end: number },
  sums: readonly Rollup[],
): Promise<void> {
  await trx
    .deleteFrom(table)
    .where('company_id', '=', input.companyId)
    .where('machine_id', '=', input.machineId)
    .where('start_at', '>=', span.start)
    .where('start_at', '<', span.end)
    .execute();
  await insertRows(
    trx,
    table,
    sums.map((r) => toRow(input.companyId, r, input.computedAt)),
  );
}

async function insertRows(
  trx: Kysely<Database>,
  table: 'rollup_days' | 'rollup_weeks',
  values: ReadonlyArray<Insertable<RollupDaysTable>>,
): Promise<void> {
  for (let i = 0; i < values.length; i += 100)
    await trx
      .insertInto(table)
      .values(values.slice(i, i + 100))
      .execute();
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
// Report cells summed by the database (decision 0804, Consequences: next steps)

/**
 * The index of the cell a day row falls in, as a portable SQL expression: a binary tree of `CASE` over the
 * cell starts (`starts` sorted; cell i is [starts[i], starts[i + 1])), so each row takes ⌈log₂ cells⌉
 * comparisons. Cell starts are numbers of our own making, inlined as literals.
 */
function cellIndex(starts: readonly number[], lo: number, hi: number): RawBuilder<number> {
  if (lo >= hi) return sql<number>`${sql.lit(lo)}`;
  const mid = (lo + hi + 1) >>> 1;
  return sql<number>`CASE WHEN start_at < ${sql.lit(starts[mid]!)} THEN ${cellIndex(starts, lo, mid - 1)} ELSE ${cellIndex(starts, mid, hi)} END`;
}

/**
 * The machines' day rows starting in [start, end) summed by the database per machine × shift × report cell
 * (`GROUP BY machine_id, shift_id, cell`), packed per machine (RollupSeries) with the measures the packed
 * series keep: each row starts at its first day row's start and ends at its last one's end, so it falls in
 * the cell its day rows fall in, and its measures are their sums (min of min expected part time): whole ms
 * and counts, so exactly what packing the day (or hourly) rows and summing gives, for any union of cells and
 * any shift selection. Only the columns the series keep are summed (half the aggregates of every measure,
 * the database's cost). `cellStarts` are the report's cell starts, sorted, each a company-day start
 * (decision 0804). Also the latest computed_at of each machine's day rows in the range, from the same scan,
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
  const rows = [
    ...(days.length > 0 ? await cellSums(scope, 'rollup_days', input, days) : []),
    ...(weeks.length > 0 ? await cellSums(scope, 'rollup_weeks', input, weeks) : []),
  ];
  // Rows in any order: by machine, then by start (each machine's run packed in time order).
  const byMachine = new Map<string, typeof rows>();
  for (const r of rows) {
    const list = byMachine.get(r.machine_id);
    if (list) list.push(r);
    else byMachine.set(r.machine_id, [r]);
  }
  for (const [id, list] of byMachine) {
    let latest = Number.NEGATIVE_INFINITY;
    let sorted = true;
    for (let i = 0; i < list.length; i++) {
      latest = Math.max(latest, Number(list[i]!.computedAt));
      if (i > 0 && Number(list[i - 1]!.start) > Number(list[i]!.start)) sorted = false;
    }
    if (!sorted) list.sort((a, b) => Number(a.start) - Number(b.start));
    series.set(id, packSeriesRows(list as unknown as SeriesRow[]));
    computedAt.set(id, latest);
  }
  return { series, computedAt };
}

type Ranges = Array<{ start: number; end: number }>;

/**
 * Which parts of [start, end) a report reads from week rows (the whole company weeks inside its cells: a
 * seventh of the day rows) and which from day rows (the rest); a cell's sums are the same either way.
 */
function weeksAndDays(
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

/** The rows of `table` starting in `ranges` summed per machine × report cell × shift (loadRollupCells). */
function cellSums(
  scope: CompanyScope,
  table: 'rollup_days' | 'rollup_weeks',
  input: { machineIds: readonly string[]; cellStarts: readonly number[] },
  ranges: ReadonlyArray<{ start: number; end: number }>,
) {
  const cell = cellIndex(input.cellStarts, 0, Math.max(0, input.cellStarts.length - 1));
  const rows = scope
    .selectFrom(table)
    .select([...CELL_COLUMNS, cell.as('cell')])
    .where('machine_id', 'in', [...input.machineIds])
    .where((eb) =>
      eb.or(ranges.map((r) => eb.and([eb('start_at', '>=', r.start), eb('start_at', '<', r.end)]))),
    );
  // PostgreSQL hash-aggregates the rows as they come. SQLite sorts its GROUP BY input in one temp B-tree
  // of every row with all the summed columns; read from the (machine_id, start_at) index in the order
  // machine, cell (the cell is monotone in start_at), shift, it sorts only within each machine's rows
  // ("LAST 2 TERMS OF ORDER BY") and then streams the groups: ~10 % less on 100 machines × 1 year by week.
  const from = numberedPlaceholders(scope.db)
    ? rows.as('d')
    : rows.orderBy('machine_id').orderBy(sql.ref('cell')).orderBy('shift_id').as('d');
  return scope.db
    .selectFrom(from)
    .select((eb) => [
      'machine_id',
      'shift_id as shiftId',
      eb.fn.min('start_at').as('start'),
      eb.fn.max('end_at').as('end'),
      eb.fn.sum<number>('duration_ms').as('duration'),
      eb.fn.sum<number>('active_ms').as('active'),
      eb.fn.sum<number>(sql`active_ms + setup_ms + inactive_ms + fault_ms + unavailable_ms`).as('known'),
      eb.fn.sum<number>('spindle_ms').as('spindle'),
      eb.fn.sum<number>('in_cut_ms').as('inCut'),
      eb.fn.sum<number>('planned_downtime_ms').as('plannedDowntime'),
      eb.fn.sum<number>('ideal_ms').as('ideal'),
      eb.fn.sum<number>(sql`parts + adjustment_count`).as('total'),
      eb.fn.sum<number>('rejected').as('rejected'),
      eb.fn.min('min_expected_part_time').as('minExpected'),
      eb.fn.max('computed_at').as('computedAt'),
    ])
    .groupBy(['machine_id', 'cell', 'shift_id'])
    .execute();
}

/** The day rows' columns loadRollupCells sums (the rest stay unread). */
const CELL_COLUMNS = [
  'machine_id',
  'shift_id',
  'start_at',
  'end_at',
  ...TIME_COLUMNS,
  'ideal_ms',
  'parts',
  'adjustment_count',
  'rejected',
  'min_expected_part_time',
  'computed_at',
] as const;

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
    if (ranges.length > 0) await addDowntimeByReason(scope, table, input, ranges, out);
  return out;
}

/** Mutates `out`: adds the downtime by reason of `table`'s rows starting in `ranges` (in shift time). */
async function addDowntimeByReason(
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

/** start_at in one of `ranges`. */
function inRanges(eb: ExpressionBuilder<Database, 'rollup_days' | 'rollup_weeks'>, ranges: Ranges) {
  return eb.or(ranges.map((r) => eb.and([eb('start_at', '>=', r.start), eb('start_at', '<', r.end)])));
}

interface ReasonRow {
  reason: string;
  planned_ms: number | string;
  unplanned_ms: number | string;
}
