import { SYNC_BATCH_MAX } from '@takt/domain';
import type { SyncCommand, SyncCommandType, SyncError, SyncOutcome } from '@takt/domain';

// Pure outbox logic: references between queued commands, batch building and outcome handling. The Dexie side
// (outbox.ts) calls these inside its transactions.

/**
 * A payload value that is not known yet: a field of the answer to an earlier command still in the outbox.
 * Starting a job offline and changing its setup stage before the server has answered needs the id of the job
 * run the server will create; the stage change waits, and gets the id when the start is confirmed.
 */
export interface CommandRef {
  $ref: string;
  path: string;
}

export const isRef = (v: unknown): v is CommandRef =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as CommandRef).$ref === 'string' &&
  typeof (v as CommandRef).path === 'string';

export const refTo = (commandId: string, path = 'id'): CommandRef => ({ $ref: commandId, path });

/** What the screen needs to show a queued command before the server confirms it (names, colours). */
export interface CommandDisplay {
  jobName?: string | null;
  expectedSetupMs?: number | null;
  stageName?: string | null;
  reasonName?: string | null;
  reasonColor?: string | null;
  operatorName?: string | null;
  count?: number;
}

/** A command as the operator made it: what the outbox and the list of refused commands both keep. */
export interface QueuedCommand {
  id: string;
  type: SyncCommandType;
  machineId: string;
  payload: Record<string, unknown>;
  occurredAt: number;
  display: CommandDisplay;
}

export interface OutboxEntry extends QueuedCommand {
  /** Dexie auto-increment: the order the operator acted in. */
  seq?: number;
  attempts: number;
  lastError: SyncError | null;
}

/** A command the server refused: final, shown until the operator dismisses it or tries it again. */
export interface RejectedEntry extends QueuedCommand {
  error: SyncError;
  rejectedAt: number;
}

/** Command ids a payload waits for. */
export function refsIn(payload: Record<string, unknown>): string[] {
  return Object.values(payload).flatMap((v) => (isRef(v) ? [v.$ref] : []));
}

function pathGet(value: unknown, path: string): unknown {
  let cur = value;
  for (const key of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** The payload with references to `commandId` replaced by fields of its result (unchanged when none). */
export function resolveRefs(
  payload: Record<string, unknown>,
  commandId: string,
  result: unknown,
): Record<string, unknown> {
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(payload)) {
    if (isRef(v) && v.$ref === commandId) {
      const resolved = pathGet(result, v.path);
      if (resolved !== undefined) {
        out[k] = resolved;
        changed = true;
        continue;
      }
    }
    out[k] = v;
  }
  return changed ? out : payload;
}

/**
 * The next batch, in the order the operator acted: at most `max` commands, and for each machine nothing after
 * a command that still waits for an earlier answer (a stage change must not overtake the job start it needs,
 * nor a stop overtake that stage change).
 */
export function buildBatch(entries: readonly OutboxEntry[], max: number = SYNC_BATCH_MAX): SyncCommand[] {
  const blocked = new Set<string>();
  const batch: SyncCommand[] = [];
  const ordered = [...entries].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  for (const e of ordered) {
    if (batch.length >= max) break;
    if (blocked.has(e.machineId)) continue;
    if (refsIn(e.payload).length > 0) {
      blocked.add(e.machineId);
      continue;
    }
    batch.push({
      id: e.id,
      type: e.type,
      machineId: e.machineId,
      payload: e.payload,
      occurredAt: e.occurredAt,
    });
  }
  return batch;
}

export interface Classified {
  confirmed: { id: string; result: unknown }[];
  rejected: { id: string; error: SyncError }[];
  /** Left in the outbox: a server failure, or no answer for this id at all. */
  retry: { id: string; error: SyncError | null }[];
}

/**
 * Sorts the server's answers for the commands sent. `duplicate` repeats the first answer, so it counts as
 * that answer. A sent id without an answer stays queued: only what the server confirmed leaves the outbox.
 */
export function classifyOutcomes(sentIds: readonly string[], results: readonly SyncOutcome[]): Classified {
  const byId = new Map(results.map((r) => [r.id, r]));
  const out: Classified = { confirmed: [], rejected: [], retry: [] };
  for (const id of sentIds) {
    const r = byId.get(id);
    if (!r) out.retry.push({ id, error: null });
    else if (r.status === 'applied') out.confirmed.push({ id, result: r.result });
    else if (r.status === 'rejected') out.rejected.push({ id, error: r.error });
    else if (r.status === 'error') out.retry.push({ id, error: r.error });
    else if (r.first === 'applied') out.confirmed.push({ id, result: r.result });
    else
      out.rejected.push({
        id,
        error: r.error ?? { code: 'REJECTED', message: 'An error occurred with your request.' },
      });
  }
  return out;
}

export const DEPENDENCY_REJECTED: SyncError = {
  code: 'DEPENDENCY_REJECTED',
  message: 'This action depended on an earlier action that was not accepted.',
};

/** Queued commands that wait (directly or through others) for one of the rejected ids: they can never run. */
export function dependentsOf(entries: readonly OutboxEntry[], rejectedIds: Iterable<string>): string[] {
  const dead = new Set(rejectedIds);
  const found: string[] = [];
  let grew = true;
  while (grew) {
    grew = false;
    for (const e of entries) {
      if (dead.has(e.id)) continue;
      if (refsIn(e.payload).some((r) => dead.has(r))) {
        dead.add(e.id);
        found.push(e.id);
        grew = true;
      }
    }
  }
  return found;
}
