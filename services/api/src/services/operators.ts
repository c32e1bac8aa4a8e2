import { ApiError, notFound } from '../http/errors';
import { lockMachine } from '../repositories/dispatch';
import { getMachine } from '../repositories/machines';
import type { Operator } from '@takt/domain';
import type { OperatorRun } from '../repositories/operators';
import {
  deleteOperator as deleteOperatorRow,
  endOperatorRun,
  getOperator,
  getOperatorRun,
  insertOperator,
  insertOperatorRun,
  lastOperatorRunEnd,
  listOperators as listOperatorRows,
  openOperatorRun,
  operatorRunsOverlapping,
  updateOperator as updateOperatorRow,
} from '../repositories/operators';
import type { ServiceCtx } from './context';
import { currentShiftAt } from './shifts';

// Operators and operator runs (live-operations §2 Operator login overlay, §3 Operator / Operator run, §4
// Operator login, §7 Operator runs; reports-admin §2 Operators admin). Facts are recorded at ctx.at.

export type { Operator, OperatorRun };

export async function listOperators(
  ctx: ServiceCtx,
  opts: { includeArchived?: boolean } = {},
): Promise<Operator[]> {
  return listOperatorRows(ctx.scope, opts);
}

async function mustGetOperator(ctx: ServiceCtx, id: string): Promise<Operator> {
  const op = await getOperator(ctx.scope, id);
  if (!op) throw notFound('Operator');
  return op;
}

export async function createOperator(
  ctx: ServiceCtx,
  input: { name: string; erpId?: string | null },
): Promise<Operator> {
  const id = await insertOperator(ctx.scope, {
    name: input.name.trim(),
    erpId: input.erpId?.trim() || null,
    createdAt: ctx.now,
  });
  return mustGetOperator(ctx, id);
}

export async function updateOperator(
  ctx: ServiceCtx,
  id: string,
  input: { name?: string; erpId?: string | null },
): Promise<Operator> {
  await mustGetOperator(ctx, id);
  await updateOperatorRow(ctx.scope, id, {
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    ...(input.erpId !== undefined ? { erpId: input.erpId?.trim() || null } : {}),
  });
  return mustGetOperator(ctx, id);
}

/** Archive: the operator leaves the picker; their runs stay. */
export async function archiveOperator(ctx: ServiceCtx, id: string): Promise<Operator> {
  const op = await mustGetOperator(ctx, id);
  if (op.archivedAt == null) await updateOperatorRow(ctx.scope, id, { archivedAt: ctx.at });
  return mustGetOperator(ctx, id);
}

export async function restoreOperator(ctx: ServiceCtx, id: string): Promise<Operator> {
  await mustGetOperator(ctx, id);
  await updateOperatorRow(ctx.scope, id, { archivedAt: null });
  return mustGetOperator(ctx, id);
}

/** Delete an operator who never ran a machine; one with runs is archived instead (their history stays). */
export async function deleteOperator(ctx: ServiceCtx, id: string): Promise<void> {
  const op = await mustGetOperator(ctx, id);
  if (op.runCount > 0) {
    throw new ApiError(
      409,
      'OPERATOR_HAS_RUNS',
      'This operator has runs and cannot be deleted. Archive it instead.',
    );
  }
  await deleteOperatorRow(ctx.scope, id);
}

/** Operator runs of a machine overlapping [startAt, endAt) (live-operations §7 operator runs query). */
export async function queryOperatorRuns(
  ctx: ServiceCtx,
  q: { machineId: string; startAt: number; endAt: number },
): Promise<OperatorRun[]> {
  if (!(await getMachine(ctx.scope, q.machineId))) throw notFound('Machine');
  return operatorRunsOverlapping(ctx.scope, q.machineId, q.startAt, q.endAt);
}

export interface OperatorRunStartInput {
  machineId: string;
  operatorId: string;
  /** Log in at the start of the shift ("pinned to the previous event") instead of now. */
  pinToPreviousEvent?: boolean;
}

/**
 * Log an operator in on a machine (sync command operator_login). The machine's current operator run ends
 * where the new one starts. The new run starts at ctx.at, or, pinned, at the start of the shift current at
 * ctx.at, but never before the machine's previous operator change (runs on one machine never overlap).
 */
export async function startOperatorRun(ctx: ServiceCtx, input: OperatorRunStartInput): Promise<OperatorRun> {
  const { scope, at } = ctx;
  if (!(await lockMachine(scope, input.machineId))) throw notFound('Machine');
  const operator = await mustGetOperator(ctx, input.operatorId);
  if (operator.archivedAt != null) {
    throw new ApiError(409, 'OPERATOR_ARCHIVED', `${operator.name} is archived and cannot log in.`);
  }
  const open = await openOperatorRun(scope, input.machineId);
  const lastEnd = await lastOperatorRunEnd(scope, input.machineId);
  const floor = Math.max(open?.startAt ?? -Infinity, lastEnd ?? -Infinity);
  let startAt = at;
  if (input.pinToPreviousEvent) {
    const shift = await currentShiftAt(scope, at);
    if (!shift) {
      throw new ApiError(409, 'NO_CURRENT_SHIFT', 'There is no current shift to log in at the start of.');
    }
    startAt = Math.max(shift.start, floor);
  } else if (at < floor) {
    throw new ApiError(
      409,
      'BEFORE_LAST_CHANGE',
      'That time is before the last operator change on this machine.',
    );
  }
  if (open) await endOperatorRun(scope, open.id, startAt);
  const id = await insertOperatorRun(scope, { machineId: input.machineId, operatorId: operator.id, startAt });
  const run = await getOperatorRun(scope, id);
  if (!run) throw new Error('operator run vanished after insert');
  return run;
}

/** Log the machine's operator out at ctx.at (sync command operator_logout). */
export async function stopOperatorRun(ctx: ServiceCtx, input: { machineId: string }): Promise<OperatorRun> {
  const { scope, at } = ctx;
  if (!(await lockMachine(scope, input.machineId))) throw notFound('Machine');
  const open = await openOperatorRun(scope, input.machineId);
  if (!open) throw new ApiError(409, 'NO_OPERATOR', 'No operator is logged in on this machine.');
  if (at < open.startAt) {
    throw new ApiError(409, 'BEFORE_LAST_CHANGE', 'That time is before the operator logged in.');
  }
  await endOperatorRun(scope, open.id, at);
  const run = await getOperatorRun(scope, open.id);
  if (!run) throw new Error('operator run vanished');
  return run;
}
