import type { ApiClient } from '@takt/ui';
import { ENDPOINTS } from '../endpoints/endpoints';
import type { FloorDb } from './db';
import { KV, kvGet, kvPut } from './db';
import type { NewCommand } from './outbox';
import { enqueue } from './outbox';
import { pullMachine } from './refdata';
import type { SyncLoop } from './syncLoop';
import type { SyncEvent } from './syncMachine';
import { correctedNow, measureOffset } from './timesync';

/** What the screens render of the sync loop (the closed union comes from syncStatusOf). */
export interface SyncSnapshot {
  /** The sync machine's state name. */
  value: string;
  /** Client time of the next automatic retry while offline or in error. */
  retryAt: number | null;
}

/**
 * The floor app's offline core, made once per page: the clock offset, the outbox and the sync loop. Screens
 * queue actions through `enqueue`, never by posting themselves (ARCHITECTURE.md "Offline sync contract").
 *
 * The loop's actor (XState) is loaded by `start()`, after the first paint; events sent
 * before it runs wait, in order, and the outbox is in IndexedDB anyway, so nothing is lost in between.
 */
export class FloorSync {
  private loop: SyncLoop | null = null;
  private waiting: SyncEvent[] = [];
  private stopped = false;
  // The machine's initial state: it pushes whatever the outbox holds, then pulls.
  private snapshot: SyncSnapshot = { value: 'pushing', retryAt: null };
  private readonly listeners = new Set<() => void>();
  private offsetMs = 0;
  private machineId: string | null = null;

  constructor(
    readonly api: ApiClient,
    readonly db: FloorDb,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    const [stored, { createSyncLoop }] = await Promise.all([
      kvGet<number>(this.db, KV.clockOffset).catch(() => undefined),
      import('./syncLoop'),
    ]);
    if (typeof stored === 'number') this.offsetMs = stored;
    if (this.stopped || this.loop) return;
    const loop = createSyncLoop(this.api, this.db, async () => {
      await this.syncClock();
      if (this.machineId) await pullMachine(this.api, this.db, this.machineId, this.now());
    });
    loop.subscribe((s) => {
      const value = String(s.value);
      const retryAt = s.context.retryAt;
      if (value === this.snapshot.value && retryAt === this.snapshot.retryAt) return;
      this.snapshot = { value, retryAt };
      for (const l of this.listeners) l();
    });
    loop.start();
    this.loop = loop;
    for (const e of this.waiting.splice(0)) loop.send(e);
  }

  stop(): void {
    this.stopped = true;
    this.loop?.stop();
    this.loop = null;
  }

  /** An event for the sync loop (ONLINE, OFFLINE, ENQUEUED, PULL, RETRY); kept until the loop runs. */
  send(event: SyncEvent): void {
    if (this.loop) this.loop.send(event);
    else this.waiting.push(event);
  }

  /** For useSyncExternalStore. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): SyncSnapshot => this.snapshot;

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
      this.send({ type: 'PULL' });
    }
  }

  refresh(): void {
    this.send({ type: 'PULL' });
  }

  /** Queue an action at the corrected time; it shows at once (overlay) and is pushed when possible. */
  async enqueue(cmd: Omit<NewCommand, 'occurredAt'> & { occurredAt?: number }) {
    const entry = await enqueue(this.db, { ...cmd, occurredAt: cmd.occurredAt ?? this.now() });
    this.send({ type: 'ENQUEUED' });
    return entry;
  }
}
