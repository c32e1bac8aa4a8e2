import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { clearSetupMark } from '@takt/db';
import type { InboxLedger } from '../sources/gateway/inbox';
import { fedByInbox } from '../sources/source';
import type { DispatchHook } from './auto-dispatch';
import { dispatchValues } from './auto-dispatch';
import type { Link, ObservationSink } from './link';
import type { DerivedWrite, IngestBatch, ObservationRow } from './store';
import { loadSetupEvents, writeBatch } from './store';

export interface BatchWriterOptions {
  db: Kysely<Database>;
  now: () => number;
  log: (message: string) => void;
  /** The worker's links, read at each batch. */
  links: ReadonlyMap<string, Link>;
  /** Re-derives a link whose pipeline asks for it, before the batch is taken (worker/rebuild.ts). */
  rebuild: (link: Link) => Promise<void>;
  /** Called after each stored batch with the machines it touched. */
  onWritten?: (machines: Array<{ companyId: string; machineId: string }>) => void;
  /** Monitoring, once per committed batch with observations: how many, the earliest observation time, now. */
  onStored?: (count: number, oldestTs: number, at: number) => void;
  /** Auto job dispatch (decision 1094): after each committed batch, the stored values that name a job. */
  onDispatch?: DispatchHook;
  /**
   * Several nodes (decision 0970): run first in each batch's transaction with the machines the batch writes
   * for; throws when one of their leases is no longer this node's (the batch is then kept and retried).
   */
  fence?: (trx: Kysely<Database>, machineIds: ReadonlySet<string>) => Promise<void>;
  /**
   * Several nodes: whether this node still derives the machine. What waits for a machine it gave up (a lost
   * lease) is dropped before each batch: the next holder receives and derives it itself.
   */
  owns?: (machineId: string) => boolean;
}

/**
 * The batch writer: observations, derived records, live rows, source counters, agent positions and the
 * inbox lines they came from are written in one transaction per batch, in order. Owns the buffers; a
 * failed write keeps everything for the next batch (nothing received from an adapter is dropped on a
 * transient database error).
 */
export class BatchWriter implements ObservationSink, InboxLedger {
  private observations: ObservationRow[] = [];
  private inboxDone: Array<{ id: string; machineId: string }> = [];
  /** Job-run setup marks applied to the pipelines, cleared by the batch that stores what they re-derive (decision 1025). */
  private setupDone: Array<{ machineId: string; markedAt: number }> = [];
  private flushing: Promise<void> = Promise.resolve();
  /** Batches taken from the buffers, and the last of them that committed (batches commit in order). */
  private takenBatches = 0;
  private committedBatches = 0;
  private closed = false;

  constructor(private readonly options: BatchWriterOptions) {}

  add(row: ObservationRow): void {
    this.observations.push(row);
  }

  /** Observations received and not yet taken into a batch. */
  buffered(): readonly ObservationRow[] {
    return this.observations;
  }

  inboxDoneIds(): ReadonlySet<string> {
    return new Set(this.inboxDone.map((d) => d.id));
  }

  markInboxDone(id: string, machineId: string): void {
    this.inboxDone.push({ id, machineId });
  }

  /**
   * Setup marks applied to the pipelines (worker/link-checks.ts syncSetup): the next batch clears them in its
   * transaction, with the records they re-derive; a failed batch keeps them for the next one.
   */
  setupApplied(marks: ReadonlyArray<{ machineId: string; markedAt: number }>): void {
    for (const m of marks) this.setupDone.push(m);
  }

  /** Something of the machine waits to be written (observations or inbox lines). */
  holds(machineId: string): boolean {
    return (
      this.observations.some((o) => o.machine_id === machineId) ||
      this.inboxDone.some((d) => d.machineId === machineId)
    );
  }

  /** Mutates: drops what waits for machines `keep` refuses (stored here it would be doubled, decision 0970). */
  discard(keep: (machineId: string) => boolean): void {
    if (this.observations.some((o) => !keep(o.machine_id)))
      this.observations = this.observations.filter((o) => keep(o.machine_id));
    if (this.inboxDone.some((d) => !keep(d.machineId)))
      this.inboxDone = this.inboxDone.filter((d) => keep(d.machineId));
    // A mark of a machine given up stays stored: its next holder re-derives it.
    if (this.setupDone.some((d) => !keep(d.machineId)))
      this.setupDone = this.setupDone.filter((d) => keep(d.machineId));
  }

  /** Write everything buffered now; batches (and work queued with `enqueue`) run one at a time. */
  flush(): Promise<void> {
    return (this.flushing = this.flushing.then(() => this.writeOut()));
  }

  /** Runs `task` between batches (never concurrently with a write or a rebuild). */
  enqueue(task: () => Promise<void>, onError: (err: Error) => void): void {
    this.flushing = this.flushing.then(task).catch(onError);
  }

  /** No batch will be waited for any more: `committed` rejects from now on. */
  close(): void {
    this.closed = true;
  }

  /**
   * Resolves once a batch taken after the current one committed: whatever was received before this call is
   * stored. A failed write keeps its data for the next one, so wait and flush again; rejects when the
   * worker stops first (the MQTT message then stays unacknowledged, and the broker delivers it again).
   */
  async committed(): Promise<void> {
    const after = this.takenBatches;
    for (let delay = 50; ; delay = Math.min(delay * 2, 2000)) {
      await this.flush();
      if (this.committedBatches > after) return;
      if (this.closed) throw new Error('ingest stopped before the data was stored');
      await new Promise((resolve) => setTimeout(resolve, delay));
      // A stopped worker writes nothing more (its last flush was stop's).
      if (this.closed) throw new Error('ingest stopped before the data was stored');
    }
  }

  private async writeOut(): Promise<void> {
    const { db, links, log, onWritten, owns } = this.options;
    const t = this.options.now();
    // A failed batch put its rows back, those of a machine whose lease was lost meanwhile included.
    if (owns) this.discard(owns);
    for (const l of links.values()) {
      // Data older than the setup events the pipeline knows (a backlog): read them from the job runs (decision
      // 1025). A rebuild reads them itself.
      const wanted = l.pipeline.setupNeededFrom;
      if (wanted == null || l.pipeline.rebuildFrom != null) continue;
      try {
        const events = await loadSetupEvents(db, [l.source.machineId], wanted);
        l.pipeline.setSetup(events.get(l.source.machineId) ?? [], wanted);
      } catch (err) {
        log(
          `[ingest] reading ${l.source.machineName}'s job runs failed, will retry: ${(err as Error).message}`,
        );
        return;
      }
    }
    for (const l of links.values()) {
      if (l.pipeline.rebuildFrom == null) continue;
      try {
        await this.options.rebuild(l);
      } catch (err) {
        // The database is unreachable: write nothing now (the batch would fail as well) and rebuild at the
        // next flush. A timer's flush must never reject: that would be an unhandled rejection.
        log(`[ingest] re-deriving ${l.source.machineName} failed, will retry: ${(err as Error).message}`);
        return;
      }
    }
    const derived: Array<{ link: Link; write: DerivedWrite }> = [];
    for (const l of links.values()) {
      const taken = l.pipeline.take(t);
      if (taken)
        derived.push({
          link: l,
          write: { companyId: l.source.companyId, machineId: l.source.machineId, ...taken },
        });
    }
    const live = [...links.values()].filter((l) => l.liveDirty);
    // A gateway push (and a simulated line) counts its own lines when it stores them.
    const stats = [...links.values()]
      .filter((l) => !fedByInbox(l.source.kind))
      .map((l) => {
        // A copy: passive and agent transports count into one object in place, and what arrives while the
        // batch is written belongs to the next delta.
        const c = { ...l.transport.counters };
        return {
          link: l,
          c,
          delta: {
            sourceId: l.source.sourceId,
            lines: c.lines - l.flushed.lines,
            observations: c.observations - l.flushed.observations,
            // Stored as "rejected lines": a line with any rejected token counts once.
            rejected: c.rejectedLines - l.flushed.rejectedLines,
            lastLineAt: c.lastLineAt,
          },
        };
      })
      .filter((s) => s.delta.lines > 0);
    const positions = [...links.values()].filter((l) => l.agentPosition);
    const done = this.inboxDone;
    const setupDone = this.setupDone;
    if (
      setupDone.length === 0 &&
      this.observations.length === 0 &&
      derived.length === 0 &&
      live.length === 0 &&
      stats.length === 0 &&
      done.length === 0 &&
      positions.length === 0
    )
      return;
    const batch: IngestBatch = {
      now: t,
      inboxDone: done.map((d) => d.id),
      agentPositions: positions.map((l) => ({ sourceId: l.source.sourceId, ...l.agentPosition! })),
      observations: this.observations,
      derived: derived.map((d) => d.write),
      live: live.map((l) => l.pipeline.liveRow(t, derived.find((d) => d.link === l)?.write.result)),
      stats: stats.map((s) => s.delta),
    };
    // Swap buffers before the write, so lines arriving meanwhile go to the next batch.
    const batchNo = ++this.takenBatches;
    this.observations = [];
    this.inboxDone = [];
    this.setupDone = [];
    for (const l of positions) delete l.agentPosition;
    for (const l of live) l.liveDirty = false;
    try {
      const { fence } = this.options;
      await writeBatch(db, batch, async (trx) => {
        if (fence) await fence(trx, machinesOf(batch, done, [...stats.map((s) => s.link), ...positions]));
        for (const m of setupDone) await clearSetupMark(trx, m.machineId, m.markedAt);
      });
    } catch (err) {
      // Keep everything for the next attempt: nothing received from an adapter is dropped on a transient
      // database error.
      this.observations = batch.observations.concat(this.observations);
      this.inboxDone = done.concat(this.inboxDone);
      this.setupDone = setupDone.concat(this.setupDone);
      for (const p of batch.agentPositions ?? []) {
        const l = links.get(p.sourceId);
        if (l && !l.agentPosition)
          l.agentPosition = { instanceId: p.instanceId, nextSequence: p.nextSequence };
      }
      for (const d of derived) d.link.pipeline.retake(d.write.from);
      for (const l of live) l.liveDirty = true;
      log(`[ingest] write failed, will retry: ${(err as Error).message}`);
      return;
    }
    // Committed: in-memory state changes now, and nothing after this puts the batch back. A hook that threw after
    // the commit (monitoring, the live fan-out) used to, and the next batch stored its observations a second time.
    this.committedBatches = batchNo;
    for (const s of stats) s.link.flushed = s.c;
    try {
      for (const d of derived) d.link.pipeline.stored(t);
      if (this.options.onStored && batch.observations.length > 0) {
        let oldest = Infinity;
        for (const o of batch.observations) if (o.ts < oldest) oldest = o.ts;
        this.options.onStored(batch.observations.length, oldest, this.options.now());
      }
      if (onWritten) {
        const touched = new Map<string, { companyId: string; machineId: string }>();
        for (const o of batch.observations)
          touched.set(o.machine_id, { companyId: o.company_id, machineId: o.machine_id });
        for (const l of batch.live)
          touched.set(l.machine_id, { companyId: l.company_id, machineId: l.machine_id });
        onWritten([...touched.values()]);
      }
      const { onDispatch } = this.options;
      if (onDispatch) {
        const fields = new Map([...links.values()].map((l) => [l.source.machineId, l.fields]));
        const values = await dispatchValues(db, batch.observations, (machineId) => fields.get(machineId));
        if (values.length > 0) await onDispatch(values);
      }
    } catch (err) {
      log(`[ingest] after a stored batch (it stays stored): ${(err as Error).message}`);
    }
  }
}

/** The machines a batch writes for. */
function machinesOf(
  batch: IngestBatch,
  inbox: ReadonlyArray<{ machineId: string }>,
  counted: readonly Link[],
): Set<string> {
  const ids = new Set<string>();
  for (const o of batch.observations) ids.add(o.machine_id);
  for (const d of batch.derived) ids.add(d.machineId);
  for (const l of batch.live) ids.add(l.machine_id);
  for (const d of inbox) ids.add(d.machineId);
  for (const l of counted) ids.add(l.source.machineId);
  return ids;
}
