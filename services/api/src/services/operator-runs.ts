import { ApiError, invalidInput, notFound } from '../http/errors';
import { lockMachine } from '../repositories/dispatch';
import { getMachine } from '../repositories/machines';
import type { OperatorRun } from '../repositories/operators';
import {
  getOperator,
  getOperatorRun,
  listOperatorRuns as listOperatorRunRows,
  operatorRunsOverlapping,
  setOperatorRunTimes,
} from '../repositories/operators';
import type { ServiceCtx } from './context';

// The operator runs screen (live-operations §2 "Operator runs (admin, see companion)", decision 1091): list
// the runs of a range by machine and operator, correct a run's start and end, end an open run. One machine has
// one operator at a time, so a machine's runs never overlap (services/operators.ts keeps that on log-in).

export interface OperatorRunsListQuery {
  startAt: number;
  endAt: number;
  machineId?: string | undefined;
  operatorId?: string | undefined;
}

/** Runs overlapping the range, newest first; a named machine or operator of another company answers 404. */
export async function listOperatorRuns(ctx: ServiceCtx, q: OperatorRunsListQuery): Promise<OperatorRun[]> {
  if (q.machineId && !(await getMachine(ctx.scope, q.machineId))) throw notFound('Machine');
  if (q.operatorId && !(await getOperator(ctx.scope, q.operatorId))) throw notFound('Operator');
  return listOperatorRunRows(ctx.scope, q);
}

/** The latest time a run may start or end: it happened, so not after now (decision 1091). */
function notAfterNow(ctx: ServiceCtx, times: { startAt: number; endAt: number | null }): void {
  const issues = (['startAt', 'endAt'] as const)
    .filter((f) => times[f] != null && times[f] > ctx.now)
    .map((field) => ({ field, code: 'time_window', message: `${field} must not be after now` }));
  if (issues.length > 0) throw invalidInput(issues);
}

/** 409 when [startAt, endAt) meets another run of the machine (an open run reaches to now and beyond). */
async function mustNotOverlap(
  ctx: ServiceCtx,
  run: OperatorRun,
  times: { startAt: number; endAt: number | null },
): Promise<void> {
  const end = times.endAt ?? Number.MAX_SAFE_INTEGER;
  const others = (await operatorRunsOverlapping(ctx.scope, run.machineId, times.startAt, end)).filter(
    (r) => r.id !== run.id,
  );
  if (others.length > 0) {
    throw new ApiError(
      409,
      'OPERATOR_RUNS_OVERLAP',
      `That time overlaps the run of ${others[0]!.operator.name} on this machine.`,
    );
  }
}

async function lockedRun(ctx: ServiceCtx, id: string): Promise<OperatorRun> {
  const found = await getOperatorRun(ctx.scope, id);
  if (!found) throw notFound('Operator run');
  // Log-ins and log-outs of the machine wait for the correction (and the other way round).
  await lockMachine(ctx.scope, found.machineId);
  const run = await getOperatorRun(ctx.scope, id);
  if (!run) throw notFound('Operator run');
  return run;
}

/**
 * Correct a run's start and end (admins). An open run may stay open (endAt null) or be ended by the
 * correction; a finished run keeps an end. Start before end, neither after now, no overlap on the machine.
 */
export async function correctOperatorRun(
  ctx: ServiceCtx,
  id: string,
  times: { startAt: number; endAt: number | null },
): Promise<OperatorRun> {
  const run = await lockedRun(ctx, id);
  if (run.endAt != null && times.endAt == null) {
    throw invalidInput([
      { field: 'endAt', code: 'invalid_type', message: 'This run has ended: End Date is required' },
    ]);
  }
  notAfterNow(ctx, times);
  await mustNotOverlap(ctx, run, times);
  await setOperatorRunTimes(ctx.scope, run.id, times);
  return (await getOperatorRun(ctx.scope, run.id))!;
}

/** End an open run at `endAt` (default now): the operator is logged out of the machine from then on. */
export async function endOperatorRunAt(
  ctx: ServiceCtx,
  id: string,
  input: { endAt?: number | undefined },
): Promise<OperatorRun> {
  const run = await lockedRun(ctx, id);
  if (run.endAt != null)
    throw new ApiError(409, 'OPERATOR_RUN_ENDED', 'This operator run has already ended.');
  const endAt = input.endAt ?? ctx.now;
  if (endAt <= run.startAt) {
    throw invalidInput([{ field: 'endAt', code: 'custom', message: 'Start Date must be before End Date' }]);
  }
  notAfterNow(ctx, { startAt: run.startAt, endAt });
  await setOperatorRunTimes(ctx.scope, run.id, { startAt: run.startAt, endAt });
  return (await getOperatorRun(ctx.scope, run.id))!;
}
