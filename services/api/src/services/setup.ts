import { partsAfterCycles, setupRemoval } from '@takt/domain';
import type { LaborActivitySet } from '@takt/domain';
import type { CompanyScope } from '@takt/db';
import { jobRunChanged } from '@takt/db';
import { ApiError, notFound } from '../http/errors';
import type { JobRunRecord } from '../repositories/dispatch';
import {
  closeOpenLaborActivities,
  getJobRun,
  insertLaborActivity,
  insertSetupAdjustment,
  laborActivitiesOfRun,
  lockMachine,
  setupAdjustmentTotal,
  updateJobRun,
} from '../repositories/dispatch';
import { getMachine } from '../repositories/machines';
import { machinePartsBetween } from '../repositories/production';
import { getSetupStage } from '../repositories/setup-stages';
import type { ServiceCtx } from './context';
import { jobRunView, loadLaborActivitySet } from './dispatch';
import type { JobRunView } from './dispatch';

// Setup (live-operations §2 Setup overlay, §4 Setup, §5 "Parts to keep", §7 Setup, §8 Setup texts).
// The job run id is the labor activity set id and the jsgId (decision 0300).

/** live-operations §8 Setup texts the API answers with (decision 0300 says which failure gets which). */
export const SETUP_TEXTS = {
  /** A stage change was refused. */
  somethingWentWrong: 'Something went wrong',
  /** End setup was refused before anything changed: the part count was not adjusted. */
  partCountAdjustmentFailed: 'We ran into an issue, please try again.',
  /** The parts to keep were not acceptable (not a whole number, negative, …). */
  partRemovalFailed: "There was an error, please re-submit the number of parts you'd like to keep.",
} as const;

/** Why a run is not in setup: the code tells clients which (the floor app's kept-parts text). */
type NotInSetupReason = { code: 'stopped' | 'in_production' | 'not_in_setup'; message: string };

const notInSetup = (message: string, reason: NotInSetupReason) =>
  new ApiError(409, 'NOT_IN_SETUP', message, [{ field: 'jsgId', ...reason }]);

const runNotFound = () => new ApiError(404, 'NOT_FOUND', 'Job run not found.');

/** Why a run cannot change its setup any more, or null while it is in setup. */
const notInSetupReason = (run: JobRunRecord): NotInSetupReason | null =>
  run.endAt != null
    ? { code: 'stopped', message: 'The job has been stopped.' }
    : run.setupEnd != null
      ? { code: 'in_production', message: 'The job is already in production.' }
      : null;

async function runOnMachine(ctx: ServiceCtx, jsgId: string, machineId: string): Promise<JobRunRecord> {
  if (!(await getMachine(ctx.scope, machineId))) throw notFound('Machine');
  const run = await getJobRun(ctx.scope, jsgId);
  if (!run || run.machineId !== machineId) throw runNotFound();
  return run;
}

/**
 * Parts made in setup: what the machine counted from the run's start until setup ended (or until `to`
 * while still in setup), plus the run's setup part adjustments. Because the removal adjustment is included,
 * a re-submitted end of setup with the same kept parts removes nothing twice. The counter counts cycles
 * (METRICS.md §3): the run's part behaviour makes them parts, as every report credits the run's first cycles,
 * so the parts kept are the parts the job report and the tablet count (decision 1020).
 */
async function setupPartsOf(scope: CompanyScope, run: JobRunRecord, to: number): Promise<number> {
  const end = run.setupEnd ?? run.endAt ?? to;
  const cycles = end > run.startAt ? await machinePartsBetween(scope, run.machineId, run.startAt, end) : 0;
  return partsAfterCycles(run, cycles) + (await setupAdjustmentTotal(scope, run.id));
}

/** GET setup parts: `{ netCount }` of the run (live-operations §7 Setup). */
export async function setupParts(
  ctx: ServiceCtx,
  input: { jsgId: string; machineId: string },
): Promise<{ netCount: number }> {
  const run = await runOnMachine(ctx, input.jsgId, input.machineId);
  return { netCount: await setupPartsOf(ctx.scope, run, ctx.at) };
}

/**
 * Change Stage (sync command setup_stage): closes the open setup labor activity at ctx.at and opens one on
 * the target stage; returns the labor activity set. Choosing the current stage changes nothing.
 */
export async function transitionStage(
  ctx: ServiceCtx,
  input: { laborActivitySetId: string; setupStageId: string },
): Promise<LaborActivitySet> {
  const { scope, at } = ctx;
  const found = await getJobRun(scope, input.laborActivitySetId);
  if (!found) throw notFound('Labor activity set');
  const stage = await getSetupStage(scope, input.setupStageId);
  if (!stage) throw notFound('Setup stage');
  await lockMachine(scope, found.machineId);
  // Re-read under the machine lock: another tablet may have just ended setup.
  const run = (await getJobRun(scope, found.id)) ?? found;
  const reason = notInSetupReason(run);
  if (reason) throw notInSetup(SETUP_TEXTS.somethingWentWrong, reason);
  if (stage.archivedAt != null) {
    throw new ApiError(400, 'SETUP_STAGE_ARCHIVED', SETUP_TEXTS.somethingWentWrong, [
      { field: 'setupStageId', code: 'stage_archived', message: `Setup stage ${stage.name} is archived.` },
    ]);
  }
  const activities = await laborActivitiesOfRun(scope, run.id);
  const open = activities.filter((a) => a.endAt == null).at(-1);
  if (open?.setupStageId === stage.id) return loadLaborActivitySet(scope, run);
  const last = Math.max(run.startAt, ...activities.map((a) => a.startAt));
  if (at < last) {
    throw new ApiError(409, 'BEFORE_LAST_CHANGE', SETUP_TEXTS.somethingWentWrong, [
      {
        field: 'laborActivitySetId',
        code: 'before_last_change',
        message: 'That time is before the last stage change.',
      },
    ]);
  }
  await closeOpenLaborActivities(scope, run.id, at);
  await insertLaborActivity(scope, { jobRunId: run.id, startAt: at, setupStageId: stage.id, setup: true });
  return loadLaborActivitySet(scope, run);
}

export interface EndSetupInput {
  jsgId: string;
  machineId: string;
  /** Parts kept out of the parts made in setup; absent keeps them all. Clamped to 0..setup parts. */
  keptParts?: number;
  /** The setup note, at most 250 characters. */
  message?: string;
}

export interface EndSetupResult {
  setupParts: number;
  keptParts: number;
  removedParts: number;
  /** The negative setup part adjustment, saved only when parts were removed. */
  adjustmentId: string | null;
  jobRun: JobRunView;
}

/**
 * Start Production (sync command start_production), in one transaction: kept parts clamped to 0..setup
 * parts, removed = setup parts − kept, a negative part adjustment (kind setup) only when removed > 0, then
 * the run goes into production at ctx.at: setup_end is set, the setup labor activity closes and a
 * production one opens.
 */
export async function endSetup(ctx: ServiceCtx, input: EndSetupInput): Promise<EndSetupResult> {
  const { scope, at } = ctx;
  if (!(await lockMachine(scope, input.machineId))) throw notFound('Machine');
  const run = await getJobRun(scope, input.jsgId);
  if (!run || run.machineId !== input.machineId) throw runNotFound();
  const reason = notInSetupReason(run);
  if (reason) throw notInSetup(SETUP_TEXTS.partCountAdjustmentFailed, reason);
  const activities = await laborActivitiesOfRun(scope, run.id);
  if (at < Math.max(run.startAt, ...activities.map((a) => a.startAt))) {
    throw notInSetup(SETUP_TEXTS.partCountAdjustmentFailed, {
      code: 'not_in_setup',
      message: 'That time is before the last setup change.',
    });
  }
  const made = await setupPartsOf(scope, run, at);
  const removal = setupRemoval(made, input.keptParts ?? made);
  const note = input.message?.trim() ? input.message : null;
  const adjustmentId = removal.adjustment
    ? await insertSetupAdjustment(scope, {
        machineId: run.machineId,
        jobRunId: run.id,
        at,
        count: removal.adjustment.count,
        message: note,
        createdBy: ctx.caller.user.id,
        createdAt: ctx.now,
      })
    : null;
  await updateJobRun(scope, run.id, { setup_end: at, setup_note: note });
  // Setup end and the removed parts change how the run's time and parts count, from its start (METRICS.md
  // §4): the rollups from there are recomputed, marked in this transaction.
  await jobRunChanged(scope, run.machineId, Math.min(run.startAt, at));
  await closeOpenLaborActivities(scope, run.id, at);
  await insertLaborActivity(scope, { jobRunId: run.id, startAt: at, setupStageId: null, setup: false });
  const updated = await getJobRun(scope, run.id);
  if (!updated) throw new Error('job run vanished');
  return {
    setupParts: Math.max(0, made),
    keptParts: removal.kept,
    removedParts: removal.removed,
    adjustmentId,
    jobRun: await jobRunView(scope, updated),
  };
}
