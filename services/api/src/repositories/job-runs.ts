import type { RunLaborActivity } from '@takt/domain';
import type { CompanyScope } from '@takt/db';

// The schedule's storage beside dispatch's (repositories/dispatch.ts): a job run's shifts and part changeover
// time (reports-admin §3 Job schedule group; migration 0018, decision 0910), and removing a run. SQL only.

export interface RunScheduleFields {
  partChangeoverMs: number;
  shiftIds: string[];
}

/** The shifts and part changeover time of each run asked for; runs without shifts get an empty list. */
export async function scheduleFieldsOfRuns(
  scope: CompanyScope,
  runIds: readonly string[],
): Promise<Map<string, RunScheduleFields>> {
  const out = new Map<string, RunScheduleFields>();
  if (runIds.length === 0) return out;
  const [runs, shifts] = await Promise.all([
    scope
      .selectFrom('job_runs')
      .select(['id', 'part_changeover_ms'])
      .where('id', 'in', [...runIds])
      .execute(),
    scope
      .selectFrom('job_run_shifts')
      .select(['job_run_id', 'shift_id'])
      .where('job_run_id', 'in', [...runIds])
      .orderBy('shift_id')
      .execute(),
  ]);
  for (const r of runs) out.set(r.id, { partChangeoverMs: Number(r.part_changeover_ms), shiftIds: [] });
  for (const s of shifts) out.get(s.job_run_id)?.shiftIds.push(s.shift_id);
  return out;
}

/** Replace the run's shifts. */
export async function setRunShifts(scope: CompanyScope, runId: string, shiftIds: readonly string[]) {
  await scope.deleteFrom('job_run_shifts').where('job_run_id', '=', runId).execute();
  if (shiftIds.length > 0)
    await scope
      .insertInto(
        'job_run_shifts',
        shiftIds.map((shift_id) => ({ job_run_id: runId, shift_id })),
      )
      .execute();
}

/** How many of the ids are shifts of the company (the caller's scope). */
export async function countCompanyShifts(scope: CompanyScope, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await scope
    .selectFrom('shifts')
    .select('id')
    .where('id', 'in', [...ids])
    .execute();
  return rows.length;
}

/** Whether the run has labor activities (reports-admin §5: they stand in for shifts). */
export async function runHasLaborActivities(scope: CompanyScope, runId: string): Promise<boolean> {
  const row = await scope
    .selectFrom('labor_activities')
    .select('id')
    .where('job_run_id', '=', runId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Remove a run with its shifts and labor activities. Part adjustments recorded during it stay facts of the
 * machine, no longer tied to a run.
 */
export async function deleteJobRun(scope: CompanyScope, runId: string): Promise<void> {
  await scope.deleteFrom('job_run_shifts').where('job_run_id', '=', runId).execute();
  await scope.deleteFrom('labor_activities').where('job_run_id', '=', runId).execute();
  await scope
    .updateTable('part_adjustments')
    .set({ job_run_id: null })
    .where('job_run_id', '=', runId)
    .execute();
  await scope.deleteFrom('job_runs').where('id', '=', runId).execute();
}

/** The labor activities of each run asked for, by start (reports-admin §3 laborActivitySet.laborActivities). */
export async function laborActivitiesOfRuns(
  scope: CompanyScope,
  runIds: readonly string[],
): Promise<Map<string, RunLaborActivity[]>> {
  const out = new Map<string, RunLaborActivity[]>(runIds.map((id) => [id, []]));
  if (runIds.length === 0) return out;
  const rows = await scope
    .selectFrom('labor_activities')
    .select(['job_run_id', 'start_at', 'end_at', 'setup_stage_id', 'setup'])
    .where('job_run_id', 'in', [...runIds])
    .orderBy('start_at')
    .orderBy('setup', 'desc')
    .execute();
  for (const r of rows)
    out.get(r.job_run_id)?.push({
      startAt: Number(r.start_at),
      endAt: r.end_at === null ? null : Number(r.end_at),
      setupStageId: r.setup_stage_id,
      setup: Number(r.setup) === 1,
    });
  return out;
}

/** Replace the run's labor activities (the schedule form with setup stages, decision 0940). */
export async function setRunLaborActivities(
  scope: CompanyScope,
  runId: string,
  activities: readonly RunLaborActivity[],
): Promise<void> {
  await scope.deleteFrom('labor_activities').where('job_run_id', '=', runId).execute();
  if (activities.length > 0)
    await scope
      .insertInto(
        'labor_activities',
        activities.map((a) => ({
          id: crypto.randomUUID(),
          job_run_id: runId,
          start_at: a.startAt,
          end_at: a.endAt,
          setup_stage_id: a.setupStageId,
          setup: a.setup ? 1 : 0,
        })),
      )
      .execute();
}
