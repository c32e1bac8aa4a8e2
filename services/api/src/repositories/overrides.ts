import type { CompanyScope } from '@takt/db';

// The observations behind the Overrides report (reports-admin §2): the values of a few keys over a range.
// The observations table is the largest there is: every read is bounded by machine and time so it runs on
// the (machine_id, ts) index range.

/** Every observation of the keys in [start, end), by time (equal times in arrival order). */
export async function observationsOfKeys(
  scope: CompanyScope,
  machineId: string,
  keys: readonly string[],
  range: { start: number; end: number },
): Promise<Array<{ key: string; ts: number; value: string | null }>> {
  if (keys.length === 0) return [];
  return scope
    .selectFrom('observations')
    .select(['key', 'ts', 'value'])
    .where('machine_id', '=', machineId)
    .where('ts', '>=', range.start)
    .where('ts', '<', range.end)
    .where('key', 'in', [...keys])
    .orderBy('ts')
    .execute();
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
  const rows = await scope
    .selectFrom('observations')
    .select(['key', 'ts', 'value'])
    .where('machine_id', '=', machineId)
    .where('ts', '>=', since)
    .where('ts', '<', before)
    .where('key', 'in', [...keys])
    .orderBy('ts')
    .execute();
  for (const r of rows) out.set(r.key, { ts: r.ts, value: r.value });
  // Raw retention (decision 1132) removed the rows before its floor and kept each key's last value as its seed.
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
