import { z } from 'zod';

// ARCHITECTURE.md "Offline sync contract": every operator action is a command written first to the tablet's
// outbox, applied optimistically, and posted in batches. The server applies each command once, keyed by its
// client-made id, and answers per command.

export const SYNC_COMMAND_TYPES = [
  'start_job',
  'stop_job',
  'setup_stage',
  'start_production',
  'categorize_downtime',
  'split_downtime',
  'reject_part',
  'part_correction',
  'manual_add_part',
  'manual_undo',
  'operator_login',
  'operator_logout',
] as const;
export type SyncCommandType = (typeof SYNC_COMMAND_TYPES)[number];

/** The most commands one batch may carry; the outbox sends the rest in the next batch. */
export const SYNC_BATCH_MAX = 200;
/** How far in the future an occurredAt may be (clock skew left after the /timesync correction). */
export const SYNC_MAX_FUTURE_MS = 5 * 60_000;

export const syncCommandSchema = z.object({
  id: z.uuid('Command id must be a UUID'),
  type: z.enum(SYNC_COMMAND_TYPES),
  machineId: z.string().min(1, 'Missing required field: Machine'),
  /** The body of the matching HTTP call, validated by that call's schema when applied. */
  payload: z.record(z.string(), z.unknown()),
  /** The operator's time corrected by the /timesync offset (epoch ms). */
  occurredAt: z.number().int().positive(),
});
export type SyncCommand = z.infer<typeof syncCommandSchema>;

export const syncBatchSchema = z.object({
  commands: z.array(syncCommandSchema).min(1, 'A sync batch needs at least one command').max(SYNC_BATCH_MAX),
});
export type SyncBatch = z.infer<typeof syncBatchSchema>;

export interface SyncError {
  code: string;
  message: string;
  issues?: Array<{ field: string; code: string; message: string }>;
}

/**
 * The answer for one command. applied: done now; duplicate: this id was seen before and `status`/`result`
 * repeat the first answer; rejected: refused with the spec's error text (final: fix or dismiss);
 * error: the server failed for a reason that may pass on retry (the outbox keeps it and retries).
 */
export type SyncOutcome =
  | { id: string; status: 'applied'; result: unknown }
  | { id: string; status: 'duplicate'; first: 'applied' | 'rejected'; result?: unknown; error?: SyncError }
  | { id: string; status: 'rejected'; error: SyncError }
  | { id: string; status: 'error'; error: SyncError };

/** The floor app's sync state: a closed union the UI renders (STYLE.md "Offline and sync"). */
export type SyncStatus = 'offline' | 'pushing' | 'pulling' | 'in-sync' | 'error';

/**
 * Conflict rule for two writes to the same fact made offline on different tablets (two operators categorize
 * the same downtime period; decision 0008): the write that happened later (occurredAt) replaces the stored
 * one, whichever arrives first. At the same millisecond the stored one stays: a tie is no later write.
 * Returns true when `incoming` should replace `stored`.
 */
export function laterWriteWins(stored: { occurredAt: number }, incoming: { occurredAt: number }): boolean {
  return incoming.occurredAt > stored.occurredAt;
}
