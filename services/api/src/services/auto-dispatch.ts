import type { DispatchValue } from '@takt/domain';
import type { Executor } from '@takt/db';
import { companyScope, lastObservationBefore } from '@takt/db';
import { ApiError } from '../http/errors';
import type { Caller } from '../http/context';
import { openRunOnMachine } from '../repositories/dispatch';
import type { Company } from '../repositories/company';
import { getCompany } from '../repositories/company';
import type { ServiceCtx } from './context';
import { startJob, stopJob } from './dispatch';

// Auto job dispatch (issue 29 point 5, reports-admin §3 autostartBehavior and dispatchKey; decision 1094): a value
// of a machine's data that names a job starts that job in production at the data's time, through the same dispatch
// service as the tablet (rollup marks, labor activities). Ingest picks the values out (worker/auto-dispatch.ts).

export interface AutoDispatchCounts {
  started: number;
  /** The value names no active job of the machine's company: logged, nothing started. */
  unknown: number;
  /** The dispatch service refused (e.g. another job ran after the data's time): logged, nothing started. */
  refused: number;
}

/**
 * Start the jobs that stored values name, each exactly once: a value is a change only when the machine's previous
 * stored value of that key differs (a reconnect's resend of the current value starts nothing), and a change whose
 * run already exists (same job, machine, start at the data's time: a restarted worker or a replay) is done.
 */
export async function autoDispatch(
  db: Executor,
  values: readonly DispatchValue[],
  options: { now: () => number; log: (message: string) => void },
): Promise<AutoDispatchCounts> {
  const counts: AutoDispatchCounts = { started: 0, unknown: 0, refused: 0 };
  for (const v of values) {
    const name = v.value?.trim() ?? '';
    if (name === '') continue;
    try {
      const outcome = await db.transaction().execute((trx) => dispatchOne(trx, v, name, options.now()));
      if (outcome === 'unknown') {
        counts.unknown++;
        options.log(`[auto-dispatch] machine ${v.machineId}: no job named ${JSON.stringify(name)}`);
      } else if (outcome === 'started') counts.started++;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      counts.refused++;
      options.log(`[auto-dispatch] machine ${v.machineId}: ${name} not started: ${err.message}`);
    }
  }
  return counts;
}

async function dispatchOne(
  trx: Executor,
  v: DispatchValue,
  name: string,
  now: number,
): Promise<'started' | 'unknown' | 'unchanged'> {
  const scope = companyScope(trx, v.companyId);
  const previous = await lastObservationBefore(scope, v.machineId, [v.key], v.ts)
    // Raw retention (decision 1132) removed the rows before its floor and kept each key's last value: the previous
    // value of a key unchanged since before the floor is its seed.
    .then(
      (row) =>
        row ??
        trx
          .selectFrom('observation_seeds as s')
          .innerJoin('observation_machines as om', 'om.id', 's.m')
          .innerJoin('observation_keys as ok', 'ok.id', 's.k')
          .select('s.value')
          .where('om.machine_id', '=', v.machineId)
          .where('om.company_id', '=', v.companyId)
          .where('ok.key', '=', v.key)
          .where('s.ts', '<', v.ts)
          .executeTakeFirst(),
    );
  if (previous && (previous.value?.trim() ?? '') === name) return 'unchanged';
  // Only the machine's company's active jobs: by name, else by the ERP's job id.
  const jobs = scope.selectFrom('jobs').select('id').where('hidden', '=', 0);
  const job =
    (await jobs.where('name', '=', name).orderBy('created_at').executeTakeFirst()) ??
    (await jobs.where('erp_job_id', '=', name).orderBy('created_at').executeTakeFirst());
  if (!job) return 'unknown';
  const done = await scope
    .selectFrom('job_runs')
    .select('id')
    .where('machine_id', '=', v.machineId)
    .where('job_id', '=', job.id)
    .where('start_at', '=', v.ts)
    .executeTakeFirst();
  if (done) return 'unchanged';
  const running = await openRunOnMachine(scope, v.machineId);
  if (running?.jobId === job.id) return 'unchanged';
  const company = await getCompany(trx, v.companyId);
  if (!company) return 'unknown';
  const ctx: ServiceCtx = { scope, at: v.ts, now, caller: machineCaller(company, v.machineId) };
  if (running) await stopJob(ctx, { id: v.machineId, jobId: running.jobId });
  await startJob(ctx, { id: v.machineId, jobId: job.id, setup: false });
  return 'started';
}

/** The machine itself acting, as an operator of its company (no person: its data started the job). */
function machineCaller(company: Company, machineId: string): Caller {
  const user = {
    id: `machine:${machineId}`,
    companyId: company.id,
    email: '',
    displayName: 'Auto job dispatch',
    role: 'operator' as const,
    isRoot: false,
    locked: false,
  };
  return { kind: 'user', user, company, sessionToken: '' };
}
