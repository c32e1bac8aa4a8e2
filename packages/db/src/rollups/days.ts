import type { Insertable, Kysely, Selectable } from 'kysely';
import {
  companyWeekRange,
  decodeDowntimeFigures,
  downtimeDays,
  downtimeWeeks,
  encodeDowntimeFigures,
  epochMs,
  rollupDays,
  rollupWeeks,
} from '@takt/domain';
import type { CompanyClock, DowntimeFigures, DowntimeMs, Rollup } from '@takt/domain';
import type { Database, RollupDaysTable } from '../schema';
import { writeChangedRows } from './changed-rows';
import { writeWeekPacks } from './week-packs';
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
 * take the new computed_at: a report's data version is the latest computed_at of the week rows (decision 1148). The
 * packs of those weeks are written again from them (decision 1235), except the machine's open week's (decision 1242).
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
  const written = await writeSums(trx, 'rollup_weeks', input, weeks, sums, weekFigures);
  if (written === 0 && changed)
    await trx
      .updateTable('rollup_weeks')
      .set({ computed_at: input.computedAt })
      .where('machine_id', '=', input.machineId)
      .where('company_id', '=', input.companyId)
      .where('start_at', '>=', weeks.start)
      .where('start_at', '<', weeks.end)
      .execute();
  // Decision 1235: the packs of the weeks written, from the rows as they now stand; decision 1242: only where a week
  // before the machine's open week (the company week of its latest row) changed, or that week moved.
  if (written > 0 || changed)
    await writeWeekPacks(trx, input, weeks, (t) => companyWeekRange(input.clock, t).start);
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
