import type { Kysely } from 'kysely';
import type { Database, ObservationRow } from '@takt/db';
import type { DispatchValue } from '@takt/domain';
import { namesJob } from '@takt/domain';
import type { FieldMeaning } from '../sources/source';

// Auto job dispatch (reports-admin §3 Machine autostartBehavior and dispatchKey, Company enable_auto_job_dispatch;
// decision 1094): which stored observations name a job. Ingest only picks them out; starting the job is the API's
// dispatch service, handed in as a hook (services depend on packages, never on each other).

/** Called after a committed batch with the values that name jobs, oldest first. */
export type DispatchHook = (values: DispatchValue[]) => Promise<void>;

/**
 * The observations of a committed batch that name a job: of machines whose autostartBehavior is mes or key, in
 * companies with enable_auto_job_dispatch on. One query for the batch's machines; none when nothing could match.
 */
export async function dispatchValues(
  db: Kysely<Database>,
  observations: readonly ObservationRow[],
  fieldsOf: (machineId: string) => Map<string, FieldMeaning> | undefined,
): Promise<DispatchValue[]> {
  if (observations.length === 0) return [];
  const ids = [...new Set(observations.map((o) => o.machine_id))];
  const machines = await db
    .selectFrom('machines as m')
    .innerJoin('companies as c', 'c.id', 'm.company_id')
    .select(['m.id', 'm.autostart_behavior as mode', 'm.dispatch_key as dispatchKey'])
    .where('m.id', 'in', ids)
    .where('m.autostart_behavior', 'in', ['mes', 'key'])
    .where('c.enable_auto_job_dispatch', '=', 1)
    .execute();
  if (machines.length === 0) return [];
  const byId = new Map(machines.map((m) => [m.id, m]));
  const out: DispatchValue[] = [];
  for (const o of observations) {
    const m = byId.get(o.machine_id);
    if (!m || m.mode === 'disabled') continue;
    if (!namesJob(m.mode, m.dispatchKey, o.key, fieldsOf(o.machine_id)?.get(o.key))) continue;
    out.push({ companyId: o.company_id, machineId: o.machine_id, key: o.key, ts: o.ts, value: o.value });
  }
  return out.sort((a, b) => a.ts - b.ts);
}
