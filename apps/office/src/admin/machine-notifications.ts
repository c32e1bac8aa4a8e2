import {
  DEFAULT_NOTIFICATION_DELAY_MINUTES,
  isFailureLevel,
  MAX_NOTIFICATION_DELAY_MINUTES,
  NOTIFICATION_LEVEL,
} from '@takt/domain';
import type {
  MachineNotificationInput,
  MachineNotificationType,
  MachineNotificationView,
  NotificationAccount,
} from '@takt/domain';
import { t } from '@takt/ui';

// The machines admin Notifications panel's model (reports-admin §3 "Machine notification: accountId, type
// (downtime or utilization), level (2 Failure, otherwise Warning), delayMinutes (default 10)", §5 "Only one
// adapter field or notification edited at a time"; decision 0900). Pure, tested beside it.

export type LevelChoice = 'warning' | 'failure';

export interface NotificationForm {
  accountId: string;
  type: MachineNotificationType;
  level: LevelChoice;
  /** As typed. */
  delay: string;
}

/** The one notification being edited: `index` null for a new one. */
export interface NotificationEditing {
  index: number | null;
  form: NotificationForm;
}

export const levelOf = (level: number): LevelChoice => (isFailureLevel(level) ? 'failure' : 'warning');

export const newNotificationForm = (): NotificationForm => ({
  accountId: '',
  type: 'downtime',
  level: 'warning',
  delay: String(DEFAULT_NOTIFICATION_DELAY_MINUTES),
});

export const notificationFormOf = (n: MachineNotificationInput): NotificationForm => ({
  accountId: n.accountId,
  type: n.type,
  level: levelOf(n.level),
  delay: String(n.delayMinutes),
});

/** The form's problems by field, as you type (UI.md "Office"). */
export function notificationErrors(
  form: NotificationForm,
  others: readonly MachineNotificationInput[],
): Partial<Record<'accountId' | 'delay', string>> {
  const errors: Partial<Record<'accountId' | 'delay', string>> = {};
  if (!form.accountId) errors.accountId = t('email.machine.accountMissing');
  else if (others.some((n) => n.accountId === form.accountId && n.type === form.type))
    errors.accountId = t('email.machine.accountTaken', { type: typeText(form.type).toLowerCase() });
  const delay = form.delay.trim();
  const minutes = Number(delay);
  if (!/^\d+$/.test(delay) || minutes > MAX_NOTIFICATION_DELAY_MINUTES)
    errors.delay = t('email.machine.delayRange', { max: MAX_NOTIFICATION_DELAY_MINUTES });
  return errors;
}

export const notificationOf = (form: NotificationForm): MachineNotificationInput => ({
  accountId: form.accountId,
  type: form.type,
  level: NOTIFICATION_LEVEL[form.level],
  delayMinutes: Number(form.delay.trim()),
});

/** The list to PUT: `list` with the edited one put in its place (or added, or, with `remove`, taken out). */
export function listWith(
  list: readonly MachineNotificationView[],
  change: { index: number | null; form: NotificationForm } | { remove: number },
): MachineNotificationInput[] {
  const plain = list.map(({ accountId, type, level, delayMinutes }) => ({
    accountId,
    type,
    level,
    delayMinutes,
  }));
  if ('remove' in change) return plain.filter((_, i) => i !== change.remove);
  const edited = notificationOf(change.form);
  if (change.index === null) return [...plain, edited];
  return plain.map((n, i) => (i === change.index ? edited : n));
}

/** The notifications other than the one edited: an account has one of each type per machine. */
export const othersThan = (list: readonly MachineNotificationView[], index: number | null) =>
  list.filter((_, i) => i !== index);

export const typeText = (type: MachineNotificationType): string => t(`email.machine.type.${type}`);
export const levelText = (level: number): string => t(`email.machine.level.${levelOf(level)}`);

/** "Jane Doe (jane@plant.example)", or the e-mail alone when it is the name too. */
export function accountText(accounts: readonly NotificationAccount[], id: string): string {
  const a = accounts.find((x) => x.id === id);
  if (!a) return t('email.machine.unknownAccount');
  return a.displayName && a.displayName !== a.email ? `${a.displayName} (${a.email})` : a.email;
}

export function summaryText(n: MachineNotificationInput): string {
  return t('email.machine.summary', {
    type: typeText(n.type),
    level: levelText(n.level),
    minutes: n.delayMinutes,
  });
}
