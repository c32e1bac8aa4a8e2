import { epochMs } from '@takt/domain';
import type { Rollup, RollupMeasures } from '@takt/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../schema';
import type { CompanyScope } from '../scope';

/** Stored rollups of the given machines overlapping [start, end), as the domain's Rollup rows, by start. */
export async function loadRollups(
  scope: CompanyScope,
  input: { machineIds: string[]; start: number; end: number },
): Promise<Rollup[]> {
  if (input.machineIds.length === 0) return [];
  const rows = await scope
    .selectFrom('rollups')
    .select(['machine_id', 'start_at', 'end_at', 'shift_id', 'measures'])
    .where('machine_id', 'in', input.machineIds)
    .where('start_at', '<', input.end)
    .where('end_at', '>', input.start)
    .orderBy('start_at')
    .execute();
  return rows.map((r) => ({
    ...storedMeasures(r.measures),
    machineId: r.machine_id,
    start: epochMs(r.start_at),
    end: epochMs(r.end_at),
    shiftId: r.shift_id,
  }));
}

/**
 * A stored row's measures. Rows written before standardRunMs existed (migration 0029, decision 1002) read as
 * their whole ACTIVE time having a standard when they hold ideal time, else none, until the worker rewrites them.
 */
function storedMeasures(json: string): RollupMeasures {
  const m = JSON.parse(json) as RollupMeasures & { standardRunMs?: number };
  m.standardRunMs ??= m.idealMs > 0 ? m.stateMs.ACTIVE : 0;
  return m;
}

/**
 * Where a machine's stored rollup rows stop (the end of its latest row), null when it has none. Rows are
 * written up to the time of their recompute, so a recompute starting after this would leave a gap that
 * reports reading the stored rows would take for no time at all (decision 1016).
 */
export async function storedRollupsEnd(db: Kysely<Database>, machineId: string): Promise<number | null> {
  // The latest-starting row ends last (rows never overlap): one step down the primary key.
  const row = await db
    .selectFrom('rollups')
    .select('end_at')
    .where('machine_id', '=', machineId)
    .orderBy('start_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.end_at) : null;
}
