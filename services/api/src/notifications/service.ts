import type { MachineNotificationInput, MachineNotificationsResponse } from '@takt/domain';
import { invalidInput, notFound } from '../http/errors';
import { getMachine } from '../repositories/machines';
import type { ServiceCtx } from '../services/context';
import { listNotifications, notificationAccounts, replaceNotifications } from './repository';

// The machines admin Notifications panel (reports-admin §2, §3 Machine notification; decision 0900).

async function answer(ctx: ServiceCtx, machineId: string): Promise<MachineNotificationsResponse> {
  const [stored, accounts] = await Promise.all([
    listNotifications(ctx.scope, machineId),
    notificationAccounts(ctx.scope),
  ]);
  // A deleted user's notifications are dead: left out here, and dropped by the next save.
  const known = new Set(accounts.map((a) => a.id));
  return {
    notifications: stored
      .filter((n) => known.has(n.accountId))
      .map(({ id, accountId, type, level, delayMinutes }) => ({
        id,
        accountId,
        type,
        level,
        delayMinutes,
      })),
    accounts,
  };
}

async function machineOf(ctx: ServiceCtx, machineId: string) {
  const machine = await getMachine(ctx.scope, machineId);
  if (!machine) throw notFound('Machine');
  return machine;
}

export async function machineNotifications(
  ctx: ServiceCtx,
  machineId: string,
): Promise<MachineNotificationsResponse> {
  await machineOf(ctx, machineId);
  return answer(ctx, machineId);
}

/**
 * Replace the machine's notifications. Every account must be a user of the caller's company (an id from
 * elsewhere is refused, never stored), and a decommissioned machine is no longer edited (decision 0861).
 */
export async function saveMachineNotifications(
  ctx: ServiceCtx,
  machineId: string,
  list: readonly MachineNotificationInput[],
): Promise<MachineNotificationsResponse> {
  const machine = await machineOf(ctx, machineId);
  if (machine.decommissionedAt !== null)
    throw invalidInput([{ field: 'id', code: 'decommissioned', message: 'This machine is decommissioned.' }]);
  const known = new Set((await notificationAccounts(ctx.scope)).map((a) => a.id));
  const unknown = list.flatMap((n, i) =>
    known.has(n.accountId)
      ? []
      : [{ field: `notifications.${i}.accountId`, code: 'unknown_account', message: 'No such account.' }],
  );
  if (unknown.length > 0) throw invalidInput(unknown);
  await replaceNotifications(ctx.scope, machineId, list, ctx.now);
  return answer(ctx, machineId);
}
