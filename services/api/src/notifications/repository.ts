import type { Selectable } from 'kysely';
import type {
  CompanyScope,
  Executor,
  MachineNotificationEpisodesTable,
  MachineNotificationsTable,
} from '@takt/db';
import { stateRowsIn } from '@takt/db/rollups';
import type { MachineNotificationInput, MachineNotificationView, NotificationAccount } from '@takt/domain';

// Machine notifications and their episodes (migration 0017, decisions 0900, 0901). SQL only; one mapping
// function per table.

export const toMachineNotification = (
  r: Selectable<MachineNotificationsTable>,
): MachineNotificationView & {
  machineId: string;
} => ({
  id: r.id,
  machineId: r.machine_id,
  accountId: r.account_id,
  type: r.type,
  level: r.level,
  delayMinutes: r.delay_minutes,
});
export type StoredNotification = ReturnType<typeof toMachineNotification>;

export interface Episode {
  notificationId: string;
  machineId: string;
  since: number;
  seenAt: number;
  notifiedAt: number | null;
}

export const toEpisode = (r: Selectable<MachineNotificationEpisodesTable>): Episode => ({
  notificationId: r.notification_id,
  machineId: r.machine_id,
  since: r.since,
  seenAt: r.seen_at,
  notifiedAt: r.notified_at,
});

/** One machine's notifications (or every machine's), oldest first. */
export async function listNotifications(
  scope: CompanyScope,
  machineId?: string,
): Promise<StoredNotification[]> {
  let q = scope.selectFrom('machine_notifications').selectAll();
  if (machineId !== undefined) q = q.where('machine_id', '=', machineId);
  const rows = await q.orderBy('created_at').orderBy('id').execute();
  return rows.map(toMachineNotification);
}

/**
 * Make `list` the machine's notifications. A notification kept (same account and type) keeps its id, so an
 * episode under way is not mailed a second time because an admin changed the delay (decision 0901).
 * Mutates machine_notifications and drops the episodes of removed notifications.
 */
export async function replaceNotifications(
  scope: CompanyScope,
  machineId: string,
  list: readonly MachineNotificationInput[],
  now: number,
): Promise<void> {
  const existing = await listNotifications(scope, machineId);
  const key = (n: { accountId: string; type: string }) => `${n.accountId} ${n.type}`;
  const wanted = new Map(list.map((n) => [key(n), n]));
  const removed = existing.filter((n) => !wanted.has(key(n))).map((n) => n.id);
  if (removed.length > 0) {
    await scope.deleteFrom('machine_notification_episodes').where('notification_id', 'in', removed).execute();
    await scope.deleteFrom('machine_notifications').where('id', 'in', removed).execute();
  }
  const byKey = new Map(existing.map((n) => [key(n), n]));
  let order = 0;
  for (const n of list) {
    const kept = byKey.get(key(n));
    if (kept) {
      await scope
        .updateTable('machine_notifications')
        .set({ level: n.level, delay_minutes: n.delayMinutes })
        .where('id', '=', kept.id)
        .execute();
    } else {
      await scope
        .insertInto('machine_notifications', {
          id: crypto.randomUUID(),
          machine_id: machineId,
          account_id: n.accountId,
          type: n.type,
          level: n.level,
          delay_minutes: n.delayMinutes,
          // Kept in the order given: created_at orders the list.
          created_at: now + order++,
        })
        .execute();
    }
  }
}

/**
 * The company's users who can be told, by name: the panel's account choices. Locked users are listed too (a
 * notification of theirs stays editable); the checker sends them nothing while locked.
 */
export async function notificationAccounts(scope: CompanyScope): Promise<NotificationAccount[]> {
  const rows = await scope
    .selectFrom('users')
    .select(['id', 'display_name', 'email'])
    .orderBy('display_name')
    .orderBy('email')
    .execute();
  return rows.map((r) => ({ id: r.id, displayName: r.display_name, email: r.email }));
}

/** Companies that have any machine notification: the checker's round (it serves every company). */
export async function companiesWithNotifications(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('machine_notifications').select('company_id').distinct().execute();
  return rows.map((r) => r.company_id);
}

export async function listEpisodes(scope: CompanyScope): Promise<Episode[]> {
  const rows = await scope.selectFrom('machine_notification_episodes').selectAll().execute();
  return rows.map(toEpisode);
}

/** Start an episode, or (another process raced us) leave the one that is there. */
export async function openEpisode(
  scope: CompanyScope,
  e: { notificationId: string; machineId: string; since: number; now: number },
): Promise<void> {
  await scope
    .insertInto('machine_notification_episodes', {
      notification_id: e.notificationId,
      machine_id: e.machineId,
      since: e.since,
      seen_at: e.now,
      notified_at: null,
    })
    .onConflict((oc) => oc.column('notification_id').doNothing())
    .execute();
}

export async function touchEpisode(scope: CompanyScope, notificationId: string, now: number): Promise<void> {
  await scope
    .updateTable('machine_notification_episodes')
    .set({ seen_at: now })
    .where('notification_id', '=', notificationId)
    .execute();
}

export async function closeEpisodes(scope: CompanyScope, notificationIds: readonly string[]): Promise<void> {
  if (notificationIds.length === 0) return;
  await scope
    .deleteFrom('machine_notification_episodes')
    .where('notification_id', 'in', notificationIds)
    .execute();
}

/**
 * Claim the episode's e-mail: true for exactly one caller, however many processes check at once (a
 * conditional update is atomic on both dialects).
 */
export async function claimEpisode(
  scope: CompanyScope,
  notificationId: string,
  now: number,
): Promise<boolean> {
  const result = await scope
    .updateTable('machine_notification_episodes')
    .set({ notified_at: now })
    .where('notification_id', '=', notificationId)
    .where('notified_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Whether the machine was ACTIVE at any moment of [from, to): an episode seen before and now may have ended between. */
export async function activeBetween(
  scope: CompanyScope,
  machineId: string,
  from: number,
  to: number,
): Promise<boolean> {
  // The states reaching into the range (decision 1180: a key range from the last state starting at or before `from`).
  const rows = await stateRowsIn(scope.db, [{ machineId, from, to }], scope.companyId);
  return rows.some((r) => r.state === 'ACTIVE');
}
