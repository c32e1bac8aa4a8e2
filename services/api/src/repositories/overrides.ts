import { companyObservations, rawFloor } from '@takt/db';
import type { CompanyScope } from '@takt/db';

// The observations behind the Overrides report (reports-admin §2): the values of a few keys over a range.
// The observations table is the largest there is: every read is bounded by machine and time so it runs on
// the (machine_id, ts) index range. Before the raw floor (decision 1132) the rows are gone: the changes of the
// override keys kept when they went (observation_steps, decision 1150) stand for them there.

type KeyValue = { key: string; ts: number; value: string | null };

/** The raw observations of the keys in [start, end) (equal times in arrival order). */
function rawOfKeys(
  scope: CompanyScope,
  machineId: string,
  keys: readonly string[],
  range: { start: number; end: number },
): Promise<KeyValue[]> {
  // By the packs' time bounds, a millisecond's rows in their stored order (decision 1184).
  return companyObservations(scope, [machineId], range.start, range.end)
    .select(['key', 'ts', 'value'])
    .where('key', 'in', [...keys])
    .orderBy('ts')
    .orderBy('seq')
    .execute();
}

/** The kept changes of the keys in [start, end), by time (decision 1150). */
async function keptOfKeys(
  scope: CompanyScope,
  machineId: string,
  keys: readonly string[],
  range: { start: number; end: number },
): Promise<KeyValue[]> {
  const rows = await scope.db
    .selectFrom('observation_steps as s')
    .innerJoin('observation_machines as om', 'om.id', 's.m')
    .innerJoin('observation_keys as ok', 'ok.id', 's.k')
    .select(['ok.key', 's.ts', 's.value'])
    .where('om.machine_id', '=', machineId)
    .where('om.company_id', '=', scope.companyId)
    .where('ok.key', 'in', [...keys])
    .where('s.ts', '>=', range.start)
    .where('s.ts', '<', range.end)
    .orderBy('s.ts')
    .execute();
  return rows.map((r) => ({ key: r.key, ts: Number(r.ts), value: r.value }));
}

/**
 * Every value of the keys in [start, end), by time (equal times in arrival order): the kept changes before the raw
 * floor, the raw observations from it on (rows still below the floor are on their way out and are not read twice).
 */
export async function observationsOfKeys(
  scope: CompanyScope,
  machineId: string,
  keys: readonly string[],
  range: { start: number; end: number },
): Promise<KeyValue[]> {
  if (keys.length === 0 || range.end <= range.start) return [];
  const floor = await rawFloor(scope.db);
  const [kept, raw] = await Promise.all([
    range.start < floor
      ? keptOfKeys(scope, machineId, keys, { start: range.start, end: Math.min(range.end, floor) })
      : [],
    range.end > floor
      ? rawOfKeys(scope, machineId, keys, { start: Math.max(range.start, floor), end: range.end })
      : [],
  ]);
  return [...kept, ...raw];
}

/**
 * The last observation of each key in [since, before): the value in force when the range starts. The
 * look-back is bounded (`since`) so a key never reported does not scan the machine's whole history.
 */
export async function lastOfKeysBefore(
  scope: CompanyScope,
  machineId: string,
  keys: readonly string[],
  since: number,
  before: number,
): Promise<Map<string, { ts: number; value: string | null }>> {
  const out = new Map<string, { ts: number; value: string | null }>();
  if (keys.length === 0) return out;
  const rows = await observationsOfKeys(scope, machineId, keys, { start: since, end: before });
  for (const r of rows) out.set(r.key, { ts: r.ts, value: r.value });
  // Raw retention (decision 1132) removed the rows before its floor and kept each key's last value as its seed
  // (the only value left of a key that was not an override field when its rows went, or went before 0052).
  const missing = keys.filter((k) => !out.has(k));
  if (missing.length === 0) return out;
  const seeds = await scope.db
    .selectFrom('observation_seeds as s')
    .innerJoin('observation_machines as om', 'om.id', 's.m')
    .innerJoin('observation_keys as ok', 'ok.id', 's.k')
    .select(['ok.key', 's.ts', 's.value'])
    .where('om.machine_id', '=', machineId)
    .where('om.company_id', '=', scope.companyId)
    .where('ok.key', 'in', missing)
    .where('s.ts', '>=', since)
    .where('s.ts', '<', before)
    .execute();
  for (const r of seeds) out.set(r.key, { ts: Number(r.ts), value: r.value });
  return out;
}
