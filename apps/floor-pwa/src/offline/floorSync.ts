import type { SyncOutcome } from '@takt/domain';
import type { ApiClient } from '@takt/ui';
import { createActor, fromPromise } from 'xstate';
import type { Actor } from 'xstate';
import { ENDPOINTS } from '../endpoints/endpoints';
import type { FloorDb } from './db';
import { KV, kvGet, kvPut } from './db';
import type { NewCommand } from './outbox';
import { applyOutcomes, enqueue, nextBatch } from './outbox';
import { pullMachine } from './refdata';
import type { PushResult } from './syncMachine';
import { syncMachine } from './syncMachine';
import { correctedNow, measureOffset } from './timesync';

/** One push round: post the next batch, apply the answers in one transaction, report what is left. */
export async function pushOnce(api: ApiClient, db: FloorDb): Promise<PushResult> {
  const batch = await nextBatch(db);
  if (batch.length === 0) return { sent: 0, more: false, serverErrors: 0 };
  const res = await api.request<{ results: SyncOutcome[] }>(ENDPOINTS.sync, {
    method: 'POST',
    body: { commands: batch },
    on401: 'throw',
  });
  const applied = await applyOutcomes(
    db,
    batch.map((c) => c.id),
    res.results ?? [],
  );
  const more = applied.retry === 0 && (await nextBatch(db)).length > 0;
  return { sent: batch.length, more, serverErrors: applied.retry };
}

/**
 * The floor app's offline core, made once per page: the clock offset, the outbox and the sync actor. Screens
 * queue actions through `enqueue`, never by posting themselves (issue 6 point 3).
 */
export class FloorSync {
  readonly actor: Actor<typeof syncMachine>;
  private offsetMs = 0;
  private machineId: string | null = null;

  constructor(
    readonly api: ApiClient,
    readonly db: FloorDb,
  ) {
    const machine = syncMachine.provide({
      actors: {
        push: fromPromise(() => pushOnce(api, db)),
        pull: fromPromise(async () => {
          await this.syncClock();
          if (this.machineId) await pullMachine(api, db, this.machineId, this.now());
        }),
      },
    });
    this.actor = createActor(machine, { input: {} });
  }

  async start(): Promise<void> {
    const stored = await kvGet<number>(this.db, KV.clockOffset).catch(() => undefined);
    if (typeof stored === 'number') this.offsetMs = stored;
    this.actor.start();
  }

  stop(): void {
    this.actor.stop();
  }

  /** Server time now: the tablet clock corrected by the last /timesync offset. */
  now(): number {
    return correctedNow(Date.now(), this.offsetMs);
  }

  async syncClock(): Promise<void> {
    try {
      this.offsetMs = await measureOffset(() =>
        this.api.request<{ now: number }>(ENDPOINTS.timesync, { on401: 'throw' }),
      );
      await kvPut(this.db, KV.clockOffset, this.offsetMs);
    } catch {
      // Keep the last known offset; the pull that follows reports the failure if the network is gone.
    }
  }

  /** The machine whose data the pulls refresh (the open workcenter). */
  watch(machineId: string | null): void {
    if (machineId === this.machineId) return;
    this.machineId = machineId;
    if (machineId) {
      void kvPut(this.db, KV.lastMachine, machineId);
      this.actor.send({ type: 'PULL' });
    }
  }

  refresh(): void {
    this.actor.send({ type: 'PULL' });
  }

  /** Queue an action at the corrected time; it shows at once (overlay) and is pushed when possible. */
  async enqueue(cmd: Omit<NewCommand, 'occurredAt'> & { occurredAt?: number }) {
    const entry = await enqueue(this.db, { ...cmd, occurredAt: cmd.occurredAt ?? this.now() });
    this.actor.send({ type: 'ENQUEUED' });
    return entry;
  }
}
