import { LinkClock, StateDeriver, epochMs } from '@takt/domain';
import type {
  CycleSource,
  DerivationResult,
  EpochMs,
  Observation as DomainObservation,
  SourceKind,
} from '@takt/domain';
import type { MachineLiveTable } from '@takt/db';
import type { Observation as RawObservation } from '../sources/shdr/shdr';
import type { FieldMeaning } from '../sources/source';
import { isMachineData, setupObservations, startingAt } from './takeover';
import { toDomainObservation } from './domain-observation';

export { toDomainObservation } from './domain-observation';

export type { FieldMeaning } from '../sources/source';

/** A heartbeat is pushed for a line that carries nothing the deriver uses, at most this often. */
const HEARTBEAT_EVERY_MS = 10_000;
/** Derived history kept in memory for late, out-of-order data; older late data is rebuilt from storage. */
export const DERIVER_MEMORY_MS = 3_600_000;

/**
 * How far back a pipeline remembers the operator's setup events, for memory only (decision 1025): past the day the
 * worker hands over at each tick. Older ones are read from the job runs again when data that old arrives (a
 * gateway's backlog) or a rebuild reaches back there: no window decides what a late record is worth.
 */
const SETUP_MEMORY_MS = 8 * 24 * 3_600_000;

export interface PipelineOutputs {
  /** Earliest time whose stored records must be replaced (every record ending at or after it, and open ones). */
  from: number;
  /** The engine's outputs a write from `from` keeps: closed records ending before it are left out. */
  result: DerivationResult;
  /**
   * Set on a new pipeline's first write: records still open from before (a previous worker's run) end at
   * this time, and everything stored from it on is this pipeline's to replace.
   */
  takeOverAt?: number;
}

/**
 * One machine's derivation inside an ingest worker: raw observations in, the domain engine's state
 * intervals, cycles, programs, faults and live signals out. Mutable; the worker owns IO and the clock.
 */
export class MachinePipeline {
  private deriver: StateDeriver;
  private changedFrom: number | null = null;
  private lastHeartbeatPush = -Infinity;
  private connection: MachineLiveTable['connection'] = 'CONNECTING';
  private connectionSince: number;
  private execution: { value: string | null; since: number | null } = { value: null, since: null };
  private spindle: number | null = null;
  /** Set when observations were too old for the in-memory history: the worker rebuilds from storage. */
  private tooLateFrom: number | null = null;
  /**
   * Observations not yet handed to the engine: they go in one push when something reads the derivation
   * (one sort check and one fold per batch instead of per line; the engine's result is the same).
   */
  private queued: DomainObservation[] = [];
  /**
   * Until its first successful write, a pipeline takes over the machine's stored history from its first machine data
   * (decision 1065): a connect alone says nothing of the machine, so the previous run's records stand until then.
   */
  private takeOverAt: number | null = null;
  private tookOver = false;
  /**
   * Before the takeover: the earliest machine data handed to the engine (a line's values or a link drop; not a
   * setup event, a connect or a heartbeat).
   */
  private firstData = Infinity;
  /** Setup events older than `firstData` were given before the takeover: it re-derives from storage (decision 1065). */
  private setupBeforeData = false;
  /** Before the takeover: the earliest change taken (a connect's), which its write marks from. */
  private changedBeforeData = Infinity;
  /** Setup events given before any machine data: sorted out at the first data (`firstData`). */
  private setupUntilData: Array<{ at: number; value: 'START' | 'END' }> = [];
  /** Set by the takeover write: the previous run's open records were closed at this time. */
  private tookOverAt: number | null = null;
  /**
   * A new run rebuilt before its first write (decision 1209): that write takes the stored history over at this time
   * (closes the previous run's open records there) instead of replacing them.
   */
  private rebuiltTakeOverAt: number | null = null;
  /**
   * Where the history this pipeline derived from begins (its takeover, or a rebuild's start): a setup event before
   * it would re-derive time whose machine data it never read, so it makes the worker rebuild from storage instead.
   */
  private historyStart = -Infinity;
  private readonly setupSeen = new Set<string>();
  private setupEvents: Array<{ at: number; value: 'START' | 'END' }> = [];
  /**
   * Setup events before this time were forgotten after a write (SETUP_MEMORY_MS): the tick hands them no more (an open
   * run's start would be news again at every tick); a change there comes with a setup mark (decision 1065).
   */
  private setupForgottenBefore = -Infinity;
  /** Every setup event of the job runs reaching to or past this time is known (given by the worker). */
  private setupKnownFrom = Infinity;
  /** Data older than `setupKnownFrom` arrived: the worker reads the setup events from here (decision 1025). */
  private setupWantedFrom: number | null = null;
  /** Where link drops and data go among each other, by this source's arrival order (METRICS.md §1). */
  private readonly clock: LinkClock;

  constructor(
    readonly companyId: string,
    readonly machineId: string,
    private readonly fields: ReadonlyMap<string, FieldMeaning>,
    readonly cycleSource: CycleSource,
    readonly sourceKind: SourceKind,
    now: number,
  ) {
    this.deriver = new StateDeriver({ cycleSource });
    this.clock = new LinkClock(sourceKind);
    this.connectionSince = now;
  }

  get dirty(): boolean {
    this.drain();
    return this.changedFrom != null;
  }

  /** Earliest observation that was too old for the in-memory history (the worker rebuilds from storage), or null. */
  get rebuildFrom(): number | null {
    this.drain();
    // Setup events older than its first machine data: the stored history up to that data stays as the previous
    // worker stored it, and a rebuild from there reads the state in force (setup included) from storage.
    if (this.setupBeforeData && this.firstData < Infinity)
      return Math.min(this.tooLateFrom ?? Infinity, this.firstData);
    return this.tooLateFrom;
  }

  /** Feed domain observations (also used to replay stored history into a fresh pipeline). */
  pushDomain(observations: readonly DomainObservation[]): void {
    for (const o of observations) this.queued.push(o);
  }

  /** Mutates: hands the queued observations to the engine. */
  private drain(): void {
    if (this.queued.length === 0) return;
    const observations = this.queued;
    this.queued = [];
    if (!this.tookOver) {
      let first = Infinity;
      // A replay reads a recorded log from its first line: no run held the machine before it, and the log's
      // window (first to last timestamp) is tiled from its connect, as the replay oracle reads it.
      const takesOver =
        this.sourceKind === 'replay' ? (o: DomainObservation) => o.key !== 'setup' : isMachineData;
      for (const o of observations) if (takesOver(o) && o.ts < first) first = o.ts;
      if (first < this.firstData) this.firstData = first;
      if (first < Infinity) this.takeOverAt = Math.min(this.takeOverAt ?? Infinity, first);
      // The first machine data: the setup events given before it are folded in from it on (decision 1065).
      if (this.firstData < Infinity && this.setupUntilData.length > 0) {
        const waiting = this.setupUntilData;
        this.setupUntilData = [];
        if (waiting.some((e) => e.at < this.firstData)) this.setupBeforeData = true;
        for (const o of setupObservations(waiting.filter((e) => e.at >= this.firstData)))
          observations.push(o);
      }
    }
    // Machine data older than the setup events known: they are read from the job runs before the next take.
    let oldestData = Infinity;
    for (const o of observations)
      if (o.key !== 'setup' && o.key !== 'heartbeat' && o.ts < oldestData) oldestData = o.ts;
    if (oldestData < this.setupKnownFrom)
      this.setupWantedFrom = Math.min(this.setupWantedFrom ?? Infinity, oldestData);
    const r = this.deriver.push(observations);
    if (r.changedFrom != null) this.changedFrom = Math.min(this.changedFrom ?? Infinity, r.changedFrom);
    if (r.tooLate.length > 0) {
      let earliest = Infinity;
      for (const o of r.tooLate) if (o.ts < earliest) earliest = o.ts;
      this.tooLateFrom = Math.min(this.tooLateFrom ?? Infinity, earliest);
    }
  }

  /**
   * Mutates each observation's `ts` to the time the engine places it at (LinkClock: machine time, ahead of its
   * receipt only to keep receipts apart, never before a link drop received earlier); store them after this
   * call, so a re-derivation from storage places them where this one did. `stored`: they were read back from
   * storage, already placed.
   */
  pushRaw(observations: readonly RawObservation[], receivedAt: number, stored = false): void {
    // Straight into the queue (once per line: no array of its own).
    let derived = 0;
    if (!stored) this.clock.receipt();
    for (const o of observations) {
      const d = toDomainObservation(o, this.fields.get(o.key), o.ts);
      if (stored) this.clock.seen(o.ts, d ?? undefined);
      else o.ts = d ? this.clock.place(d, receivedAt) : this.clock.data(o.ts, receivedAt);
      if (!d) continue;
      const ts = o.ts;
      d.ts = epochMs(ts);
      if (d.key === 'execution' && d.value !== this.execution.value)
        this.execution = { value: d.value, since: ts };
      if (d.key === 'spindle_speed') this.spindle = d.value;
      this.queued.push(d);
      derived++;
    }
    if (derived === 0) this.heartbeat(receivedAt);
    else this.lastHeartbeatPush = receivedAt;
  }

  /** Whether a heartbeat was handed to the engine (at most one every HEARTBEAT_EVERY_MS). */
  heartbeat(at: number): boolean {
    if (at - this.lastHeartbeatPush < HEARTBEAT_EVERY_MS) return false;
    this.lastHeartbeatPush = at;
    this.pushDomain([{ ts: epochMs(at), key: 'heartbeat', value: null }]);
    return true;
  }

  /**
   * The link opened or dropped at `at`; returns the time the change takes effect (a drop no earlier than the
   * data received before it, LinkClock), which is the time to store. `stored`: read back from storage.
   */
  setConnection(status: 'CONNECTING' | 'CONNECTED' | 'DISCONNECTED', at: number, stored = false): number {
    if (status === this.connection) return at;
    this.connection = status;
    if (status === 'CONNECTING') {
      this.connectionSince = at;
      return at;
    }
    const o: DomainObservation = { ts: epochMs(at), key: 'connection', value: status };
    if (stored) this.clock.seen(at, o);
    else o.ts = epochMs(this.clock.place(o, at));
    if (status === 'DISCONNECTED') this.execution = { value: null, since: o.ts };
    this.connectionSince = o.ts;
    this.pushDomain([o]);
    return o.ts;
  }

  /**
   * Whether `at` is this run's own connect and the run has stored no derived record yet (decision 1204): a batch took
   * its connect alone, before the machine's first data (a line-started batch), and a rebuild then starts the run at
   * that connect afresh, as it does when the connect is still buffered.
   */
  connectedAtBeforeFirstWrite(at: number): boolean {
    return !this.tookOver && this.connection === 'CONNECTED' && this.connectionSince === at;
  }

  /**
   * Whether this pipeline's run has written nothing yet (decision 1209): its first write takes the previous run's
   * records over, a rebuilt one's included.
   */
  get beforeFirstWrite(): boolean {
    return !this.tookOver || this.rebuiltTakeOverAt != null;
  }

  /** Before the first write: where the takeover is (the run's first machine data), or null with no data yet. */
  get takeOverTime(): number | null {
    return this.rebuiltTakeOverAt ?? this.takeOverAt;
  }

  /**
   * A rebuilt pipeline of a new run that has written nothing yet (decision 1209): its first write takes the stored
   * history over at `at`, as the run's own first write would have (decision 1065), instead of deleting the previous
   * run's open records.
   */
  takesOverAt(at: number): void {
    this.rebuiltTakeOverAt = at;
  }

  /**
   * Setup events a rebuild read and folded into the state it starts from (`setupFrom`): known, so the tick does not
   * hand them again as news before the history this pipeline derived (decision 1209).
   */
  knowSetup(events: ReadonlyArray<{ at: number; value: 'START' | 'END' }>): void {
    let added = false;
    for (const e of events) {
      const key = `${e.at}|${e.value}`;
      if (this.setupSeen.has(key)) continue;
      this.setupSeen.add(key);
      this.setupEvents.push({ at: e.at, value: e.value });
      added = true;
    }
    if (added) this.setupEvents.sort((a, b) => a.at - b.at);
  }

  /** The link's status as last set. */
  get linkStatus(): MachineLiveTable['connection'] {
    return this.connection;
  }

  /**
   * The operator's setup flow (a job run in setup) overrides the machine state: START at its start, END when
   * production starts. `knownFrom`: the events are those of every job run reaching to or past that time.
   */
  setSetup(events: ReadonlyArray<{ at: number; value: 'START' | 'END' }>, knownFrom?: number): void {
    if (knownFrom != null) {
      this.setupKnownFrom = Math.min(this.setupKnownFrom, knownFrom);
      if (this.setupWantedFrom != null && knownFrom <= this.setupWantedFrom) this.setupWantedFrom = null;
    }
    // The worker hands over every recent event at each tick. Only new ones go to the engine: a repeat
    // older than its in-memory history would come back as too late and force a rebuild at every tick.
    const fresh = events.filter((e) => !this.setupSeen.has(`${e.at}|${e.value}`));
    for (const e of fresh) {
      this.setupSeen.add(`${e.at}|${e.value}`);
      this.setupEvents.push({ at: e.at, value: e.value });
    }
    // An event before the history this pipeline derived: the worker re-derives from storage (decision 1025).
    let before = Infinity;
    if (this.tookOver) for (const e of fresh) if (e.at < this.historyStart && e.at < before) before = e.at;
    if (before < Infinity) this.tooLateFrom = Math.min(this.tooLateFrom ?? Infinity, before);
    // Before its takeover, that history starts at its first machine data: an older event (a job run begun in setup
    // days before a restart) would make the takeover replace stored time it has no data for (decision 1065). The
    // worker re-derives from storage from that first data instead (`rebuildFrom`).
    if (!this.tookOver) this.drain();
    // Events given before any machine data (a connect is none) wait for it: those at or after it are folded in.
    if (!this.tookOver && this.firstData === Infinity) {
      for (const e of fresh) this.setupUntilData.push(e);
      return;
    }
    const start = this.tookOver ? this.historyStart : this.firstData;
    if (!this.tookOver && fresh.some((e) => e.at < start)) this.setupBeforeData = true;
    this.pushDomain(setupObservations(fresh.filter((e) => e.at >= start)));
  }

  /**
   * Whether this pipeline derived the history from `at` on itself (it took over or was rebuilt at or before it):
   * a change there can be handed to it; an earlier one is re-derived from storage (decision 1025).
   */
  holdsHistoryFrom(at: number): boolean {
    return this.tookOver && at >= this.historyStart;
  }

  /**
   * Whether a setup event at `at` handed again would be one this pipeline remembers or never had: false for those it
   * forgot after a write (the tick leaves them out, decision 1065).
   */
  remembersSetupFrom(at: number): boolean {
    return !this.tookOver || at >= this.setupForgottenBefore;
  }

  /** Setup events this pipeline was given and still remembers. */
  knownSetupEvents(): ReadonlyArray<{ at: number; value: 'START' | 'END' }> {
    return this.setupEvents;
  }

  /** Earliest machine data older than the setup events known (the worker reads them from there), or null. */
  get setupNeededFrom(): number | null {
    this.drain();
    return this.setupWantedFrom;
  }

  /**
   * Re-derive from storage from `at` on (a job run's setup there changed or went away, decision 1025): the
   * worker rebuilds as for late data.
   */
  rederiveFrom(at: number): void {
    this.drain();
    this.tooLateFrom = Math.min(this.tooLateFrom ?? Infinity, at);
  }

  /**
   * A rebuilt pipeline re-derived from the start of a run, but only records ending at or after `from`
   * (the late data) can differ from what is stored: replace from there, not from the run's start.
   */
  replaceFrom(from: number): void {
    this.drain();
    this.changedFrom = from;
  }

  /** Earliest time of changes not yet taken, or null. */
  get pendingFrom(): number | null {
    this.drain();
    return this.changedFrom;
  }

  /** The machine_live row for the dashboard, from the engine's current signals. */
  liveRow(now: number, derived?: DerivationResult): MachineLiveTable {
    // A result just taken for the same flush already holds the current signals: no second materialization.
    if (!derived) this.drain();
    // Only the current signals are read: no closed record is needed (since = Infinity).
    const c = (derived ?? this.deriver.result(epochMs(now), Infinity)).current;
    return {
      machine_id: this.machineId,
      company_id: this.companyId,
      state: c.state,
      state_since: c.since,
      connection: this.connection,
      connection_since: this.connectionSince,
      last_heartbeat: c.lastHeartbeat,
      execution: c.execution,
      execution_since: this.execution.since,
      availability: c.availability,
      controller_mode: c.controllerMode,
      program: c.program,
      part_count: c.partCount,
      spindle_speed: this.spindle,
      fault_since: c.faultSince,
      fault_message: c.faultMessage,
      in_setup: c.inSetup ? 1 : 0,
      updated_at: now,
    };
  }

  /** What changed since the last take (null when nothing did); the caller stores it, then calls `stored`. */
  take(now: number): PipelineOutputs | null {
    this.drain();
    if (this.changedFrom == null) return null;
    const from = this.changedFrom;
    this.changedFrom = null;
    // Open records are stored without an end, so materialize a millisecond ahead: a state that began this
    // very millisecond must not be cut to nothing and lost; nor one that began at data the link clock placed
    // past its receipt (to keep receipts apart, decision 1154): a millisecond past the latest data as well.
    // Only what the write keeps (records ending at or after its `from`) is materialized, not the whole history.
    const until = Math.max(now, this.deriver.lastTs ?? -Infinity) + 1;
    const result = (since: number) => this.deriver.result(epochMs(until), since);
    if (!this.tookOver) {
      // No machine data yet (a connect, heartbeats): the previous run's records stand, nothing is taken over.
      this.changedBeforeData = Math.min(this.changedBeforeData, from);
      if (this.takeOverAt == null) {
        // A link that stays connected and silent: its heartbeats are not kept past the memory window.
        if (this.sourceKind !== 'replay')
          this.deriver.forgetBefore(epochMs(now - DERIVER_MEMORY_MS) as EpochMs);
        return null;
      }
      // What changed from its connect on is marked (rollups: the machine's monitored life starts at its first stored
      // observation); what is written starts at the takeover.
      const at = this.takeOverAt;
      const takeOverFrom = Math.min(this.changedBeforeData, at);
      return { from: takeOverFrom, result: startingAt(result(takeOverFrom), at), takeOverAt: at };
    }
    if (this.rebuiltTakeOverAt != null) {
      // A new run rebuilt before its first write takes over as that write would have (decision 1209).
      const at = this.rebuiltTakeOverAt;
      const takeOverFrom = Math.min(from, at);
      return { from: takeOverFrom, result: startingAt(result(takeOverFrom), at), takeOverAt: at };
    }
    // Records ending exactly at the takeover are the previous run's (the takeover closed them there); this
    // pipeline's own all end after its first machine data. Replacing from the takeover time itself would
    // delete them (decision 0201: found by the crash test).
    if (this.tookOverAt == null) return { from, result: result(from) };
    const replaceFrom = Math.max(from, this.tookOverAt + 1);
    return { from: replaceFrom, result: startingAt(result(replaceFrom), this.tookOverAt) };
  }

  /**
   * This pipeline re-derives stored history (a rebuild): every setup event it is given is folded in, those before its
   * first data included (they are the job runs' of the time it re-derives, decision 1065).
   */
  derivesStoredHistory(): void {
    this.firstData = -Infinity;
  }

  /** A rebuilt pipeline continues the stored history (re-derived from `from`) instead of taking it over. */
  continueStoredHistory(from?: number): void {
    this.tookOver = true;
    if (from != null) this.historyStart = from;
  }

  /** After a successful write: drop history older than the memory window. */
  stored(now: number): void {
    // What arrived during the write counts as before it (a new run's takeover time included).
    this.drain();
    if (!this.tookOver) {
      this.tookOverAt = this.takeOverAt;
      if (this.takeOverAt != null) this.historyStart = this.takeOverAt;
    } else if (this.rebuiltTakeOverAt != null) {
      this.tookOverAt = this.rebuiltTakeOverAt;
      this.rebuiltTakeOverAt = null;
    }
    this.tookOver = true;
    // A recorded log is read in recorded time, and its runs may come in any order (the Okuma log's four runs
    // are concatenated, later ones earlier in time): a replay keeps its whole history, so none of it arrives
    // too late for the engine. A live source's late data past the window is rebuilt from storage instead.
    if (this.sourceKind !== 'replay') this.deriver.forgetBefore(epochMs(now - DERIVER_MEMORY_MS) as EpochMs);
    // Setup events are kept for rebuilds (which reach a week back), no longer: a worker runs for months.
    const keepFrom = now - SETUP_MEMORY_MS;
    if (this.setupEvents.length > 0 && this.setupEvents[0]!.at < keepFrom) {
      for (const e of this.setupEvents) if (e.at < keepFrom) this.setupSeen.delete(`${e.at}|${e.value}`);
      this.setupEvents = this.setupEvents.filter((e) => e.at >= keepFrom);
      this.setupKnownFrom = Math.max(this.setupKnownFrom, keepFrom);
      this.setupForgottenBefore = keepFrom;
    }
  }

  /** A write failed: the changes must be taken again. */
  retake(from: number): void {
    this.changedFrom = Math.min(this.changedFrom ?? Infinity, from);
  }
}
