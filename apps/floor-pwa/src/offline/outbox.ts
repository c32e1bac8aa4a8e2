import type { SyncCommandType, SyncOutcome } from '@takt/domain';
import type { CommandDisplay, OutboxEntry, RejectedEntry } from './commands';
import { buildBatch, classifyOutcomes, DEPENDENCY_REJECTED, dependentsOf, resolveRefs } from './commands';
import type { FloorDb } from './db';
import { KV } from './db';
import { newCommandId } from './ids';
import type { Overlay } from './optimistic';

export interface NewCommand {
  type: SyncCommandType;
  machineId: string;
  payload: Record<string, unknown>;
  /** Corrected by the /timesync offset (timesync.ts). */
  occurredAt: number;
  display?: CommandDisplay;
  /** A caller-made id (tests, "try again" of a rejected command keeps a fresh one). */
  id?: string;
}

/**
 * Queues an operator action: the outbox entry and its local change (the overlay the screen folds over the
 * pulled data) are written in ONE read-write transaction, so no change goes untracked and no queued command
 * lacks its local effect (STYLE.md "Outbox in the same transaction as the change").
 */
export async function enqueue(db: FloorDb, cmd: NewCommand): Promise<OutboxEntry> {
  const entry: OutboxEntry = {
    id: cmd.id ?? newCommandId(),
    type: cmd.type,
    machineId: cmd.machineId,
    payload: cmd.payload,
    occurredAt: cmd.occurredAt,
    display: cmd.display ?? {},
    attempts: 0,
    lastError: null,
  };
  return db.transaction('rw', db.outbox, db.overlays, async () => {
    const seq = await db.outbox.add(entry);
    const overlay: Overlay = {
      commandId: entry.id,
      seq: seq as number,
      machineId: entry.machineId,
      type: entry.type,
      payload: entry.payload,
      occurredAt: entry.occurredAt,
      display: entry.display,
      state: 'pending',
    };
    await db.overlays.add(overlay);
    return { ...entry, seq: seq as number };
  });
}

/** The next batch to post, read in one transaction so it is a consistent cut of the outbox. */
export async function nextBatch(db: FloorDb) {
  const entries = await db.outbox.orderBy('seq').toArray();
  return buildBatch(entries);
}

export interface AppliedOutcomes {
  confirmed: number;
  rejected: number;
  retry: number;
  /** Machines whose data should be pulled again (their confirmed changes live on the server now). */
  machines: string[];
}

/**
 * Applies the server's answers to the commands sent, in one transaction: confirmed entries leave the outbox
 * (only those that were sent and confirmed), references to them in later entries are filled in, refused ones
 * move to the rejected list with the server's message (and so do the queued commands that depended on them),
 * failures stay queued with their error. "Change in-memory state only after the transaction commits": the
 * caller reacts to the returned summary, not to anything inside.
 */
export async function applyOutcomes(
  db: FloorDb,
  sentIds: readonly string[],
  results: readonly SyncOutcome[],
  now: number = Date.now(),
): Promise<AppliedOutcomes> {
  const c = classifyOutcomes(sentIds, results);
  return db.transaction('rw', [db.outbox, db.overlays, db.rejected, db.kv], async () => {
    const machines = new Set<string>();
    const entries = await db.outbox.toArray();
    const byId = new Map(entries.map((e) => [e.id, e]));

    for (const { id, result } of c.confirmed) {
      const e = byId.get(id);
      if (!e) continue;
      machines.add(e.machineId);
      await db.outbox.where('id').equals(id).delete();
      byId.delete(id);
      await db.overlays.update(id, { state: 'confirmed', result });
      // Later commands waiting for this answer (a stage change needs the job run's id) get it now.
      for (const other of byId.values()) {
        const payload = resolveRefs(other.payload, id, result);
        if (payload !== other.payload) {
          await db.outbox.where('id').equals(other.id).modify({ payload });
          await db.overlays.update(other.id, { payload });
          other.payload = payload;
        }
      }
      if (e.type === 'start_job' || e.type === 'start_production') {
        await db.kv.put({ key: KV.currentRun(e.machineId), value: runOf(result), savedAt: now });
      } else if (e.type === 'setup_stage') {
        // A stage change answers the labor activity set only: keep the run, with its new activities.
        const row = await db.kv.get(KV.currentRun(e.machineId));
        if (row?.value && typeof row.value === 'object')
          await db.kv.put({ key: row.key, value: { ...row.value, laborActivitySet: result }, savedAt: now });
      } else if (e.type === 'stop_job') {
        await db.kv.put({ key: KV.currentRun(e.machineId), value: null, savedAt: now });
      }
    }

    const refused = new Map(c.rejected.map((r) => [r.id, r.error]));
    for (const id of dependentsOf([...byId.values()], refused.keys())) refused.set(id, DEPENDENCY_REJECTED);
    for (const [id, error] of refused) {
      const e = byId.get(id);
      if (!e) continue;
      machines.add(e.machineId);
      const rejected: RejectedEntry = {
        id: e.id,
        type: e.type,
        machineId: e.machineId,
        payload: e.payload,
        occurredAt: e.occurredAt,
        display: e.display,
        error,
        rejectedAt: now,
      };
      await db.rejected.put(rejected);
      await db.outbox.where('id').equals(id).delete();
      // The refused action must stop looking done.
      await db.overlays.delete(id);
    }

    for (const { id, error } of c.retry) {
      await db.outbox
        .where('id')
        .equals(id)
        .modify((e) => {
          e.attempts += 1;
          e.lastError = error;
        });
    }
    return {
      confirmed: c.confirmed.length,
      rejected: refused.size,
      retry: c.retry.length,
      machines: [...machines],
    };
  });
}

/** The job run in a dispatch/setup answer: the run itself, or the run of a returned labor activity set. */
function runOf(result: unknown): unknown {
  if (typeof result !== 'object' || result === null) return null;
  const r = result as { jobRun?: unknown };
  return r.jobRun ?? result;
}

/** Dismiss a refused command: the operator has seen it. */
export const dismissRejected = (db: FloorDb, id: string) => db.rejected.delete(id);

/** Try a refused command again as a new command (new id, same time and payload). */
export async function retryRejected(db: FloorDb, id: string): Promise<void> {
  await db.transaction('rw', [db.rejected, db.outbox, db.overlays], async () => {
    const r = await db.rejected.get(id);
    if (!r) return;
    await db.rejected.delete(id);
    await enqueue(db, {
      type: r.type,
      machineId: r.machineId,
      payload: r.payload,
      occurredAt: r.occurredAt,
      display: r.display,
    });
  });
}

/**
 * After a pull brought a machine's data, the confirmed overlays of that machine are part of it: drop them in
 * the same transaction as the write of the pulled data, so the screen never counts a change twice.
 */
export async function dropConfirmedOverlays(db: FloorDb, machineId: string): Promise<void> {
  await db.overlays
    .where('machineId')
    .equals(machineId)
    .filter((o) => o.state === 'confirmed')
    .delete();
}
