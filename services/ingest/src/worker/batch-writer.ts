import { sql } from 'kysely';
import { clearSetupMarkStatement } from '@takt/db';
import type { InboxLedger } from '../sources/gateway/inbox';
import { dispatchValues } from './auto-dispatch';
import type { BatchFence } from './leases';
import { LeaseLostError } from './leases';
import type { Link, ObservationSink } from './link';
import type { BatchTimes, BatchWriterOptions } from './batch-options';
import { liveChanged } from './live-row';
import { SourceCounters } from './source-counters';
import type { DerivedWrite, IngestBatch, ObservationRow } from './store';
import type { BatchFailure } from './batch-parts';
import { machinesOf, split, transient } from './batch-parts';
import { loadSetupEvents, writeBatch } from './store';
import { DerivedMemory } from './derived-memory';
import { TouchedLinks } from './touched-links';

export type { BatchTimes, BatchWriterOptions };

/** A machine set aside is tried alone again after this, then ever less often up to the most (decision 1121). */
const ASIDE_FIRST_MS = 5_000;
const ASIDE_MAX_MS = 60_000;

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
  private setupDone: Array<{ companyId: string; machineId: string; markedAt: number }> = [];
  private flushing: Promise<void> = Promise.resolve();
  /** A flush queued behind the running one and not started yet: later flushes join it (decision 1145). */
  private queued: Promise<void> | null = null;
  /** The sources' counters, each written at most every `countersEveryMs`, a slice a batch (decisions 1145, 1243). */
  private readonly counters: SourceCounters;
  /** A flush asked for the counters: the next batch writes them whatever their period. */
  private countersWanted = false;
  /** Batches taken from the buffers, and the last of them that committed (batches commit in order). */
  private takenBatches = 0;
  private committedBatches = 0;
  /** The last committed batch that wrote for each machine. */
  private readonly storedIn = new Map<string, number>();
  /** Each machine's derived rows as this writer last stored them (decision 1169). */
  private readonly derivedMemory = new DerivedMemory();
  /**
   * Machines whose own write failed while the others' went on (decision 1121): left out of the batches, their data
   * kept, and written alone again from `retryAt`.
   */
  private readonly aside = new Map<string, { retryAt: number; waitMs: number }>();
  private closed = false;
  /** The running batch's breakdown so far. */
  private times: BatchTimes = { asked: 0, started: 0, between: 0, prepared: 0, taken: 0, counters: 0 };
  /** Time spent in work queued between batches since the last batch began. */
  private betweenMs = 0;
  /** When the last batch began, and the timer of a flush a line asked for (`arrivalGapMs`). */
  private lastStart = -Infinity;
  private arrivalTimer: ReturnType<typeof setTimeout> | null = null;
  /** `afterBatches` callers waiting for the flush a line asked for to be queued (`arrivalTimer`). */
  private arrivalWaiters: Array<() => void> = [];
  /** The links a batch visits: those with something to take (decision 1203). */
  private readonly touched = new TouchedLinks();

  constructor(private readonly options: BatchWriterOptions) {
    this.counters = new SourceCounters(options.countersEveryMs ?? 0, options.monotonic);
  }

  add(row: ObservationRow): void {
    this.observations.push(row);
    if (this.options.arrivalGapMs != null) this.soon(this.options.arrivalGapMs);
  }

  /** The link has something for the next batch to take (worker/link.ts marks it). */
  touch(link: Link): void {
    this.touched.add(link);
  }

  /** A line arrived: a flush is asked now, or once `gapMs` passed since the last batch began (decision 1163). */
  private soon(gapMs: number): void {
    if (this.queued || this.arrivalTimer || this.closed) return;
    const wait = Math.min(gapMs, this.lastStart + gapMs - this.options.now());
    if (wait <= 0) {
      void this.flush();
      return;
    }
    this.arrivalTimer = setTimeout(() => {
      this.arrivalTimer = null;
      if (!this.closed) void this.flush();
      this.releaseArrivalWaiters();
    }, wait);
  }

  private releaseArrivalWaiters(): void {
    const waiters = this.arrivalWaiters;
    this.arrivalWaiters = [];
    for (const w of waiters) w();
  }

  /**
   * Resolves once the batches running or asked for now have ended (committed or not), a flush a line asked for and
   * still waiting for its gap included; batches asked later do not hold it. The rollup worker awaits it before each
   * mark, so a recompute never starts between a batch's ask and its start (decision 1238).
   */
  async afterBatches(): Promise<void> {
    if (this.arrivalTimer) await new Promise<void>((resolve) => this.arrivalWaiters.push(resolve));
    await this.flushing.then(
      () => undefined,
      () => undefined,
    );
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
  setupApplied(marks: ReadonlyArray<{ companyId: string; machineId: string; markedAt: number }>): void {
    for (const m of marks) this.setupDone.push(m);
  }

  /** Something of the machine waits to be written (observations, inbox lines or its sources' counts). */
  holds(machineId: string): boolean {
    return (
      this.observations.some((o) => o.machine_id === machineId) ||
      this.inboxDone.some((d) => d.machineId === machineId) ||
      this.counters.holds(machineId)
    );
  }

  /** A link leaves the worker's map: what its source counted since the last batch is written with the next counts. */
  keepCounts(link: Link): void {
    this.counters.collect(link);
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
    this.counters.discard(keep);
  }

  /**
   * Write everything buffered now (with `counters`, the sources' counters too, whatever their period); batches (and
   * work queued with `enqueue`) run one at a time. A flush called while one waits to start joins it: a slow write is
   * followed by one batch of all that arrived meanwhile, not by a queue of timer flushes (decision 1145).
   */
  flush(counters = false): Promise<void> {
    if (counters) this.countersWanted = true;
    if (this.queued) return this.queued;
    const asked = this.options.now();
    const next = this.flushing.then(() => {
      this.queued = null;
      return this.writeOut(asked);
    });
    this.queued = next;
    return (this.flushing = next);
  }

  /** Runs `task` between batches (never concurrently with a write or a rebuild). */
  enqueue(task: () => Promise<void>, onError: (err: Error) => void): void {
    // A flush asked for after this task runs after it.
    this.queued = null;
    this.flushing = this.flushing
      .then(async () => {
        const t0 = this.options.now();
        try {
          await task();
        } finally {
          this.betweenMs += this.options.now() - t0;
        }
      })
      .catch(onError);
  }

  /** No batch will be waited for any more: `committed` rejects from now on. */
  close(): void {
    this.closed = true;
    if (this.arrivalTimer) clearTimeout(this.arrivalTimer);
    this.arrivalTimer = null;
    this.releaseArrivalWaiters();
  }

  /**
   * Resolves once a batch taken after the current one committed (with `machineId`, one that wrote for that machine:
   * a machine set aside holds its data back while others' batches commit, decision 1121): whatever was received
   * before this call is stored. A failed write keeps its data for the next one, so wait and flush again; rejects
   * when the worker stops first (the MQTT message then stays unacknowledged, and the broker delivers it again).
   */
  async committed(machineId?: string): Promise<void> {
    const after = this.takenBatches;
    const done = () =>
      machineId == null ? this.committedBatches > after : (this.storedIn.get(machineId) ?? 0) > after;
    for (let delay = 50; ; delay = Math.min(delay * 2, 2000)) {
      await this.flush();
      if (done()) return;
      if (this.closed) throw new Error('ingest stopped before the data was stored');
      await new Promise((resolve) => setTimeout(resolve, delay));
      // A stopped worker writes nothing more (its last flush was stop's).
      if (this.closed) throw new Error('ingest stopped before the data was stored');
    }
  }

  private async writeOut(asked: number): Promise<void> {
    const { owns } = this.options;
    const started = this.options.now();
    this.lastStart = started;
    // A failed batch put its rows back, those of a machine whose lease was lost meanwhile included.
    if (owns) this.discard(owns);
    if (!(await this.prepare())) return;
    const t = this.options.now();
    this.times = { asked, started, between: this.betweenMs, prepared: t, taken: t, counters: 0 };
    this.betweenMs = 0;
    // Machines set aside whose retry is due are written alone first (decision 1121).
    for (const [machineId] of [...this.aside].filter(([, a]) => a.retryAt <= t)) {
      const r = await this.write(t, machineId);
      if (typeof r !== 'object') {
        this.aside.delete(machineId);
        this.options.log(`[ingest] ${this.nameOf(machineId)}: stored again after being set aside`);
      } else if (!(r.error instanceof LeaseLostError) && !transient(r.error))
        this.setAside(machineId, t, r.error);
    }
    const failed = await this.write(t, null);
    if (
      typeof failed === 'object' &&
      failed.machines.size > 1 &&
      !(failed.error instanceof LeaseLostError) &&
      !transient(failed.error)
    )
      await this.isolate(t, failed.machines);
  }

  /**
   * Setup events a backlog needs (decision 1025) and rebuilds late data asks for, before a batch is taken; false when
   * the database could not be read (nothing is written now, the next flush tries again).
   */
  private async prepare(): Promise<boolean> {
    const { db, log } = this.options;
    // Setup reads and rebuilds are asked by what reached a link since its last batch: its pipeline drained it, and
    // the link was marked then (decision 1203).
    const marked = this.touched.held(this.options.links);
    for (const l of marked) {
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
        return false;
      }
    }
    for (const l of marked) {
      if (l.pipeline.rebuildFrom == null) continue;
      try {
        await this.options.rebuild(l);
      } catch (err) {
        // The database is unreachable: write nothing now (the batch would fail as well) and rebuild at the
        // next flush. A timer's flush must never reject: that would be an unhandled rejection.
        log(`[ingest] re-deriving ${l.source.machineName} failed, will retry: ${(err as Error).message}`);
        return false;
      }
    }
    return true;
  }

  /**
   * A batch of several machines failed (decision 1121). A database that does not answer is no machine's fault: the
   * whole batch is tried again at the next flush. One that answers refused some machine's data: each machine is
   * written alone, and those whose own write fails while others' go through are set aside, so one machine's bad
   * write never stalls the plant.
   */
  private async isolate(t: number, machines: ReadonlySet<string>): Promise<void> {
    try {
      await sql`select 1`.execute(this.options.db);
    } catch {
      return;
    }
    const refused: Array<[string, Error]> = [];
    let stored = 0;
    for (const machineId of machines) {
      const r = await this.write(t, machineId);
      if (r === 'stored') stored++;
      else if (typeof r === 'object' && !(r.error instanceof LeaseLostError) && !transient(r.error))
        refused.push([machineId, r.error]);
    }
    // None went through alone either: not one machine's data; everything is tried again.
    if (stored === 0) return;
    for (const [machineId, err] of refused) this.setAside(machineId, t, err);
  }

  /** Mutates `aside`: the machine is left out of the batches and retried alone, ever less often. */
  private setAside(machineId: string, t: number, err: Error): void {
    const before = this.aside.get(machineId);
    const waitMs = before ? Math.min(before.waitMs * 2, ASIDE_MAX_MS) : ASIDE_FIRST_MS;
    this.aside.set(machineId, { retryAt: t + waitMs, waitMs });
    this.options.log(
      `[ingest] ${this.nameOf(machineId)}: its write failed while the other machines' went on; set aside, ` +
        `tried alone again in ${Math.round(waitMs / 1000)} s: ${err.message}`,
    );
    if (!before) this.options.onSetAside?.(machineId);
  }

  private nameOf(machineId: string): string {
    return this.options.links.ofMachine(machineId)[0]?.source.machineName ?? `machine ${machineId}`;
  }

  /**
   * Writes one batch: of machine `only`, or (null) of every machine not set aside. Takes what it writes from the
   * buffers and the pipelines; a failed write puts it all back for the next attempt.
   */
  private async write(t: number, only: string | null): Promise<'stored' | 'empty' | BatchFailure> {
    const { db, links, log, onWritten } = this.options;
    const aside = this.aside;
    // Only the links marked since their last batch (decision 1203): the others have nothing to take.
    const chosen =
      only != null
        ? links.ofMachine(only)
        : this.touched.take(links, (l) => aside.size === 0 || !aside.has(l.source.machineId));
    if (only != null) this.touched.visited(chosen);
    const picked = (machineId: string) => (only != null ? machineId === only : !aside.has(machineId));
    const whole = only == null && aside.size === 0;
    const derived: Array<{ link: Link; write: DerivedWrite }> = [];
    for (const l of chosen) {
      const taken = l.pipeline.take(t);
      if (taken)
        derived.push({
          link: l,
          write: { companyId: l.source.companyId, machineId: l.source.machineId, ...taken },
        });
    }
    // A live row is written when what a reader sees of it changed (decision 1145).
    const dirty = chosen.filter((l) => l.liveDirty);
    const takenBy = new Map(derived.map((d) => [d.link, d.write.result]));
    const live = dirty
      .map((l) => ({ link: l, row: l.pipeline.liveRow(t, takenBy.get(l)) }))
      .filter((r) => liveChanged(r.link.liveStored, r.row));
    // The sources' counts add up in memory; the batches of all the machines write them, each source's at most once a
    // period and a slice a batch (decisions 1145, 1243).
    for (const l of chosen) this.counters.collect(l);
    // A transport counts lines no link hears (a rejected document, a cut line): every link's are collected once a
    // period, not per batch.
    if (only == null && this.counters.sweep(this.countersWanted))
      for (const l of links.values()) if (picked(l.source.machineId)) this.counters.collect(l);
    const positions = chosen.filter((l) => l.agentPosition);
    const [observations, otherObservations] = whole
      ? [this.observations, []]
      : split(this.observations, (o) => picked(o.machine_id));
    const [done, otherDone] = whole
      ? [this.inboxDone, []]
      : split(this.inboxDone, (d) => picked(d.machineId));
    const [setupDone, otherSetup] = whole
      ? [this.setupDone, []]
      : split(this.setupDone, (d) => picked(d.machineId));
    const alone =
      setupDone.length === 0 &&
      observations.length === 0 &&
      derived.length === 0 &&
      live.length === 0 &&
      done.length === 0 &&
      positions.length === 0;
    // The counters ride on the batches that write something else, unless late (decision 1243).
    const stats = only == null ? this.counters.take(picked, this.countersWanted, alone) : [];
    if (only == null) this.countersWanted = false;
    if (alone && stats.length === 0) {
      for (const l of dirty) l.liveDirty = false;
      return 'empty';
    }
    const batch: IngestBatch = {
      now: t,
      inboxDone: done.map((d) => d.id),
      agentPositions: positions.map((l) => ({ sourceId: l.source.sourceId, ...l.agentPosition! })),
      observations,
      derived: derived.map((d) => d.write),
      live: live.map((r) => r.row),
      stats,
    };
    const machines = machinesOf(batch, done, [
      ...stats.map((s) => s.machineId),
      ...positions.map((l) => l.source.machineId),
    ]);
    // Swap buffers before the write, so lines arriving meanwhile go to the next batch.
    const batchNo = ++this.takenBatches;
    this.observations = otherObservations;
    this.inboxDone = otherDone;
    this.setupDone = otherSetup;
    for (const l of positions) delete l.agentPosition;
    for (const l of dirty) l.liveDirty = false;
    this.times.taken = this.options.now();
    this.times.counters = stats.length;
    const plan = this.derivedMemory.plan(derived.map((d) => ({ write: d.write, owner: d.link.pipeline })));
    let fence: BatchFence | undefined;
    try {
      // Built before the transaction, as the batch's statements are (decision 1177).
      fence = this.options.fence?.(machines);
      const lead = setupDone.map((m) => clearSetupMarkStatement(db, m));
      if (fence?.statement) lead.unshift(fence.statement);
      await writeBatch(db, batch, lead, plan.skip);
    } catch (thrown) {
      const err = fence ? fence.lost(thrown) : thrown;
      // It may have committed unseen (a lost connection at the commit): its machines are written whole next time.
      this.derivedMemory.forget(machines);
      // Keep everything for the next attempt: nothing received from an adapter is dropped on a transient
      // database error.
      this.observations = batch.observations.concat(this.observations);
      this.inboxDone = done.concat(this.inboxDone);
      this.setupDone = setupDone.concat(this.setupDone);
      for (const p of batch.agentPositions ?? []) {
        const l = links.get(p.sourceId);
        if (l && !l.agentPosition) {
          l.agentPosition = { instanceId: p.instanceId, nextSequence: p.nextSequence };
          this.touched.add(l);
        }
      }
      for (const d of derived) {
        d.link.pipeline.retake(d.write.from);
        this.touched.add(d.link);
      }
      for (const r of live) r.link.liveDirty = true;
      this.counters.putBack(stats);
      log(`[ingest] write failed, will retry: ${(err as Error).message}`);
      return { error: err as Error, machines };
    }
    // Committed: in-memory state changes now, and nothing after this puts the batch back. A hook that threw after
    // the commit (monitoring, the live fan-out) used to, and the next batch stored its observations a second time.
    this.committedBatches = batchNo;
    this.derivedMemory.committed(plan);
    for (const m of machines) this.storedIn.set(m, batchNo);
    for (const r of live) r.link.liveStored = r.row;
    this.counters.stored(stats);
    try {
      for (const d of derived) d.link.pipeline.stored(t);
      if (this.options.onStored && batch.observations.length > 0) {
        let oldest = Infinity;
        for (const o of batch.observations) if (o.ts < oldest) oldest = o.ts;
        this.options.onStored(batch.observations.length, oldest, this.options.now(), this.times);
      }
      if (onWritten) {
        const touched = new Map<string, { companyId: string; machineId: string }>();
        for (const o of batch.observations)
          touched.set(o.machine_id, { companyId: o.company_id, machineId: o.machine_id });
        for (const l of batch.live)
          touched.set(l.machine_id, { companyId: l.company_id, machineId: l.machine_id });
        onWritten([...touched.values()]);
      }
      const { onDispatch, dispatchOf } = this.options;
      if (onDispatch && dispatchOf) {
        const values = dispatchValues(batch.observations, dispatchOf, (m) => links.ofMachine(m)[0]?.fields);
        if (values.length > 0) await onDispatch(values);
      }
    } catch (err) {
      log(`[ingest] after a stored batch (it stays stored): ${(err as Error).message}`);
    }
    return 'stored';
  }
}
