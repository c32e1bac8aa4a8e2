import type { Insertable, Kysely, Selectable } from 'kysely';
import { epochMs, rollupDays } from '@takt/domain';
import type { CompanyClock, DowntimeMs, Rollup } from '@takt/domain';
import type { Database, RollupDaysTable } from '../schema';
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

/**
 * Mutates: replaces the machine's day rows starting in [from, to) (whole company days) with the sums of
 * `rows`, the hourly rows just written for the same days. Call inside the transaction that writes them.
 */
export async function writeRollupDays(
  trx: Kysely<Database>,
  input: {
    companyId: string;
    machineId: string;
    clock: CompanyClock;
    from: number;
    to: number;
    rows: readonly Rollup[];
    computedAt: number;
  },
): Promise<void> {
  await trx
    .deleteFrom('rollup_days')
    .where('machine_id', '=', input.machineId)
    .where('start_at', '>=', input.from)
    .where('start_at', '<', input.to)
    .execute();
  const values = rollupDays(input.clock, input.rows).map((r) => toRow(input.companyId, r, input.computedAt));
  for (let i = 0; i < values.length; i += 100)
    await trx
      .insertInto('rollup_days')
      .values(values.slice(i, i + 100))
      .execute();
}

const DAY_COLUMNS = [
  'machine_id',
  'start_at',
  'end_at',
  'shift_id',
  'duration_ms',
  'active_ms',
  'setup_ms',
  'inactive_ms',
  'fault_ms',
  'unavailable_ms',
  'spindle_ms',
  'in_cut_ms',
  'planned_downtime_ms',
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
 * Stored day rows of the machines starting in [start, end), as the domain's Rollup rows, by start. Without
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

/**
 * rollupState for the day rows: the latest computed_at of each machine's day rows starting in [start, end)
 * and each machine's pending dirty mark.
 */
export async function rollupDaysState(
  scope: CompanyScope,
  machineIds: readonly string[],
  range: { start: number; end: number },
): Promise<{ computedAt: Map<string, number>; dirty: Map<string, number> }> {
  if (machineIds.length === 0) return { computedAt: new Map(), dirty: new Map() };
  const ids = [...machineIds];
  const [computed, marks] = await Promise.all([
    scope
      .selectFrom('rollup_days')
      .select((eb) => ['machine_id', eb.fn.max('computed_at').as('at')])
      .where('machine_id', 'in', ids)
      .where('start_at', '>=', range.start)
      .where('start_at', '<', range.end)
      .groupBy('machine_id')
      .execute(),
    scope
      .selectFrom('rollup_dirty')
      .select(['machine_id', 'from_at'])
      .where('machine_id', 'in', ids)
      .execute(),
  ]);
  return {
    computedAt: new Map(computed.map((r) => [r.machine_id, Number(r.at)])),
    dirty: new Map(marks.map((m) => [m.machine_id, Number(m.from_at)])),
  };
}
