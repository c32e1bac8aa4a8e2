import { z } from 'zod';
import { idSchema } from './common';

// reports-admin §3 "Machine notification: accountId, type (downtime or utilization), level (2 Failure,
// otherwise Warning), delayMinutes (default 10)"; §2 the machines admin Notifications panel (decision 0900).

export const MACHINE_NOTIFICATION_TYPES = ['downtime', 'utilization'] as const;
export type MachineNotificationType = (typeof MACHINE_NOTIFICATION_TYPES)[number];

/** reports-admin §3: level 2 is Failure, any other level Warning; the screen writes 1 for Warning. */
export const NOTIFICATION_LEVEL = { warning: 1, failure: 2 } as const;
export const isFailureLevel = (level: number): boolean => level === NOTIFICATION_LEVEL.failure;

/** reports-admin §3 "delayMinutes (default 10)". */
export const DEFAULT_NOTIFICATION_DELAY_MINUTES = 10;
/** The longest delay accepted: one day (decision 0900). */
export const MAX_NOTIFICATION_DELAY_MINUTES = 1440;

export const machineNotificationInputSchema = z.object({
  accountId: idSchema,
  type: z.enum(MACHINE_NOTIFICATION_TYPES),
  level: z.number().int().min(0).max(9),
  delayMinutes: z
    .number()
    .int()
    .min(0, `The delay must be from 0 to ${MAX_NOTIFICATION_DELAY_MINUTES} minutes`)
    .max(
      MAX_NOTIFICATION_DELAY_MINUTES,
      `The delay must be from 0 to ${MAX_NOTIFICATION_DELAY_MINUTES} minutes`,
    )
    .default(DEFAULT_NOTIFICATION_DELAY_MINUTES),
});
export type MachineNotificationInput = z.infer<typeof machineNotificationInputSchema>;

/** PUT /api/machines/:id/notifications: the machine's whole list; one per account and type. */
export const machineNotificationsSaveSchema = z.object({
  notifications: z
    .array(machineNotificationInputSchema)
    .max(200)
    .refine(
      (list) => new Set(list.map((n) => `${n.accountId} ${n.type}`)).size === list.length,
      'An account has one notification of each type per machine',
    ),
});

export interface MachineNotificationView extends MachineNotificationInput {
  id: string;
}

/** A user who can be told: the choices of the panel's account list. */
export interface NotificationAccount {
  id: string;
  displayName: string;
  email: string;
}

/** GET and PUT /api/machines/:id/notifications. */
export interface MachineNotificationsResponse {
  notifications: MachineNotificationView[];
  accounts: NotificationAccount[];
}
