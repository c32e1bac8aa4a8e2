import { epochMs } from '@takt/domain';
import type { Rollup, RollupMeasures } from '@takt/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../schema';
import type { CompanyScope } from '../scope';

/**
 * A bound on how long a stored rollup row can be: a bucket lies inside one hour of a company day (decision 0105;
 * the domain's hours are steps of exactly one hour from the day start, the last shorter), whatever the time zone,
 * DST or start-of-day offset, so no row is longer than an hour. A bound on start_at below a range's start, so a read
 * of the rows overlapping a range is a key range from just before it, not every row of the machine before its end
 * (decision 1125). It was two days until decision 1246: a read of a partial day's hourly rows (a range's edge, 14
 * hours, say) then scanned and dropped the two days before it, three in four of the rows it touched; three hours keep
 * twice an hour of margin.
 */
export const LONGEST_ROLLUP_ROW_MS = 3 * 3_600_000;

/**
 * Stored rollups of the given machines overlapping [start, end), as the domain's Rollup rows, by start. With
 * `computedAt`, also the latest computed_at of each machine's rows read, set there (as rollupsComputedAt
 * gives it for the same range, from the same read).
 */
export async function loadRollups(
  scope: CompanyScope,
  input: { machineIds: string[]; start: number; end: number; computedAt?: Map<string, number> },
): Promise<Rollup[]> {
  if (input.machineIds.length === 0) return [];
  const computedAt = input.computedAt;
  const rows = await scope
    .selectFrom('rollups')
    .select(['machine_id', 'start_at', 'end_at', 'shift_id', 'measures', 'computed_at'])
    .where('machine_id', 'in', input.machineIds)
    .where('start_at', '>', input.start - LONGEST_ROLLUP_ROW_MS)
    .where('start_at', '<', input.end)
    .where('end_at', '>', input.start)
    .orderBy('start_at')
    .execute();
  // A literal in one order (one hidden class): spreading the parsed measures cost more than parsing them.
  return rows.map((r) => {
    if (computedAt) {
      const at = Number(r.computed_at);
      computedAt.set(r.machine_id, Math.max(at, computedAt.get(r.machine_id) ?? at));
    }
    const m = storedMeasures(r.measures);
    return {
      machineId: r.machine_id,
      start: epochMs(r.start_at),
      end: epochMs(r.end_at),
      shiftId: r.shift_id,
      durationMs: m.durationMs,
      stateMs: m.stateMs,
      spindleMs: m.spindleMs,
      inCutMs: m.inCutMs,
      plannedDowntimeMs: m.plannedDowntimeMs,
      unplannedDowntimeMs: m.unplannedDowntimeMs,
      downtimeByReason: m.downtimeByReason,
      cycles: m.cycles,
      idealMs: m.idealMs,
      standardRunMs: m.standardRunMs,
      expectedMs: m.expectedMs,
      parts: m.parts,
      adjustmentCount: m.adjustmentCount,
      rejected: m.rejected,
      rejectsByType: m.rejectsByType,
      minExpectedPartTime: m.minExpectedPartTime,
    };
  });
}

/**
 * The latest computed_at of each machine's stored rollup rows overlapping any of `ranges` (absent: none
 * stored there): where its rows were computed up to, for storedUntil (decision 1067). A key range per range,
 * each its own query.
 */
export async function rollupsComputedAt(
  scope: CompanyScope,
  machineIds: readonly string[],
  ranges: ReadonlyArray<{ start: number; end: number }>,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (machineIds.length === 0) return out;
  // One query per range: an OR of ranges is no key range, and scanned every row of the company (decision 1157).
  const parts = await Promise.all(
    ranges.map((r) =>
      scope
        .selectFrom('rollups')
        .select((eb) => ['machine_id', eb.fn.max('computed_at').as('at')])
        .where('machine_id', 'in', [...machineIds])
        .where('start_at', '>', r.start - LONGEST_ROLLUP_ROW_MS)
        .where('start_at', '<', r.end)
        .where('end_at', '>', r.start)
        .groupBy('machine_id')
        .execute(),
    ),
  );
  for (const r of parts.flat()) {
    const at = Number(r.at);
    out.set(r.machine_id, Math.max(at, out.get(r.machine_id) ?? at));
  }
  return out;
}

/**
 * A stored row's measures. Rows written before standardRunMs existed (migration 0029, decision 1002) read as
 * their whole ACTIVE time having a standard when they hold ideal time, else none, until the worker rewrites them.
 */
export function storedMeasures(json: string): RollupMeasures {
  const m = JSON.parse(json) as RollupMeasures & { standardRunMs?: number };
  m.standardRunMs ??= m.idealMs > 0 ? m.stateMs.ACTIVE : 0;
  return m;
}

/**
 * Where a machine's stored rollup rows stop (the end of its latest row), null when it has none. Rows are
 * written up to the time of their recompute, so a recompute starting after this would leave a gap that
 * reports reading the stored rows would take for no time at all (decision 1016).
 */
export async function storedRollupsEnd(
  db: Kysely<Database>,
  companyId: string,
  machineId: string,
): Promise<number | null> {
  // The latest-starting row ends last (rows never overlap): one step down the primary key.
  const row = await db
    .selectFrom('rollups')
    .select('end_at')
    .where('machine_id', '=', machineId)
    .where('company_id', '=', companyId)
    .orderBy('start_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.end_at) : null;
}

/**
 * The machines whose stored rows stop somewhere before their latest row (a gap left before decision 1016),
 * each with where its first gap begins. A day recomputed before it ended has rows up to that recompute only:
 * the day row ending last then ends at its own computed_at. One such row that is not the machine's latest is
 * the start of a gap. One scan of the day rows (the worker asks once per process).
 */
export async function rollupGaps(
  db: Kysely<Database>,
): Promise<Array<{ companyId: string; machineId: string; from: number }>> {
  const [ends, stops] = await Promise.all([
    db
      .selectFrom('rollup_days')
      .select(['company_id', 'machine_id', (eb) => eb.fn.max('end_at').as('end')])
      .groupBy(['company_id', 'machine_id'])
      .execute(),
    db
      .selectFrom('rollup_days')
      .select(['company_id', 'machine_id', 'end_at'])
      .whereRef('end_at', '>=', 'computed_at')
      .execute(),
  ]);
  // By company and machine: the same machine id under another company is another machine (decision 1190).
  const keyOf = (r: { company_id: string; machine_id: string }) => `${r.company_id}\u0000${r.machine_id}`;
  const last = new Map(ends.map((r) => [keyOf(r), Number(r.end)]));
  const gaps = new Map<string, { companyId: string; machineId: string; from: number }>();
  for (const s of stops) {
    const at = Number(s.end_at);
    if (at >= (last.get(keyOf(s)) ?? at)) continue; // the latest rows: where the machine's rows stop now
    const seen = gaps.get(keyOf(s));
    if (!seen || at < seen.from)
      gaps.set(keyOf(s), { companyId: s.company_id, machineId: s.machine_id, from: at });
  }
  return [...gaps.values()];
}
