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

/** A machine that dispatches: autostartBehavior mes or key, in a company with enable_auto_job_dispatch on. */
export interface DispatchSetting {
  mode: 'mes' | 'key';
  dispatchKey: string | null;
}

/**
 * Every machine that dispatches, by machine id (ingest derives every company's machines): read with the sources
 * (worker/ingest.ts refresh), not per batch, so a batch's work follows its changes and not a query over its
 * machines (decision 1120). Only dispatching machines are read, however many the plant has.
 */
export async function loadDispatchSettings(db: Kysely<Database>): Promise<Map<string, DispatchSetting>> {
  const rows = await db
    .selectFrom('machines as m')
    .innerJoin('companies as c', 'c.id', 'm.company_id')
    .select(['m.id', 'm.autostart_behavior as mode', 'm.dispatch_key as dispatchKey'])
    .where('m.autostart_behavior', 'in', ['mes', 'key'])
    .where('c.enable_auto_job_dispatch', '=', 1)
    .execute();
  const out = new Map<string, DispatchSetting>();
  for (const r of rows)
    if (r.mode === 'mes' || r.mode === 'key') out.set(r.id, { mode: r.mode, dispatchKey: r.dispatchKey });
  return out;
}

/**
 * The observations of a committed batch that name a job, oldest first: of the machines `settingOf` knows as
 * dispatching. No query: nothing to do when no machine of the batch dispatches.
 */
export function dispatchValues(
  observations: readonly ObservationRow[],
  settingOf: (machineId: string) => DispatchSetting | undefined,
  fieldsOf: (machineId: string) => ReadonlyMap<string, FieldMeaning> | undefined,
): DispatchValue[] {
  const out: DispatchValue[] = [];
  for (const o of observations) {
    const m = settingOf(o.machine_id);
    if (!m) continue;
    if (!namesJob(m.mode, m.dispatchKey, o.key, fieldsOf(o.machine_id)?.get(o.key))) continue;
    out.push({ companyId: o.company_id, machineId: o.machine_id, key: o.key, ts: o.ts, value: o.value });
  }
  return out.sort((a, b) => a.ts - b.ts);
}
