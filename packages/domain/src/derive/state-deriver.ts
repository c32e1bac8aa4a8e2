import type { DurationMs, EpochMs } from '../brand';
import type { MachineState } from '../machine-state';
import { stateFromSignals } from '../machine-state';
import { heldAvailability, isReportingEvidence } from './availability';
import type { ConditionValue, DeriverConfig, Observation, ObservationKey } from './observations';
import type {
  CurrentSignals,
  DerivationResult,
  FaultRecord,
  MachineCycle,
  Span,
  StateReason,
} from './outputs';

// METRICS.md §1: observations → state intervals, cycles, programs, faults, flags.
//
// The derivation is a left fold over observations sorted by (ts, seq, key, value). The fold state is small
// plain data; every CHECKPOINT_EVERY observations a copy of it is kept together with the number of output
// records emitted so far. Appending folds forward only. A late observation is inserted in order and the fold
// restarts from the last checkpoint at or before it: the outputs emitted after that checkpoint are dropped
// and re-emitted; history before it is never reprocessed.

const CHECKPOINT_EVERY = 256;

/** Order of keys at equal ts and seq: link state first, then signals, then derived events. */
const KEY_RANK: Record<ObservationKey, number> = {
  connection: 0,
  heartbeat: 1,
  availability: 2,
  controller_mode: 3,
  setup: 4,
  condition: 5,
  execution: 6,
  program: 7,
  subprogram: 8,
  spindle_speed: 9,
  path_feedrate: 10,
  part_count: 11,
  cycle: 12,
};

function valueKey(o: Observation): string {
  if (o.key === 'condition') {
    const c = o.value;
    return `${c.item}\u0000${c.level}\u0000${c.nativeCode ?? ''}\u0000${c.message ?? ''}\u0000${c.type ?? ''}`;
  }
  const v = o.value;
  return v === null ? '' : typeof v === 'string' ? v : String(v);
}

/** Total order of observations; 0 means the two are the same observation (a redelivery). */
export function compareObservations(a: Observation, b: Observation): number {
  const d = a.ts - b.ts || (a.seq ?? 0) - (b.seq ?? 0) || KEY_RANK[a.key] - KEY_RANK[b.key];
  if (d !== 0) return d;
  // Hot path of every push: the value keys are built only on a tie, and once per side.
  const va = valueKey(a);
  const vb = valueKey(b);
  return va < vb ? -1 : va > vb ? 1 : 0;
}

interface OpenFault {
  id: string; // item + code
  item: string;
  start: number;
  value: string;
  nativecode: string | null;
  type: string | null;
}

/** The fold state. Plain data: copied for checkpoints by `cloneFold`. */
interface Fold {
  /** Time up to which the state is derived. */
  t: number;
  started: boolean;
  connected: boolean;
  lastHeartbeat: number | null;
  execution: string | null;
  availability: string | null;
  /** Time of the last availability value (decision 1000: newer reporting evidence ends an UNAVAILABLE). */
  availabilityAt: number;
  /** Time of the latest observation that shows the device reporting (availability.ts). */
  reportingAt: number;
  controllerMode: string | null;
  inSetup: boolean;
  faults: OpenFault[];
  /** Part-count baseline; null when unknown (then the next value is a baseline, not an increment). */
  partCount: number | null;
  spindleSpeed: number | null;
  feedrate: number | null;
  program: string | null;
  programStart: number;
  subprogram: string | null;
  subprogramStart: number;
  spindleStart: number | null;
  inCutStart: number | null;
  state: MachineState;
  reason: StateReason;
  stateStart: number;
  /** First moment execution was ACTIVE since the last cycle end (decision 0100), or null. */
  activeSince: number | null;
  lastCycleEnd: number | null;
}

/** What the fold has closed: a result without the current signals. */
type Outputs = Omit<DerivationResult, 'current'>;

type OutputLengths = { [K in keyof Outputs]: number };

interface Checkpoint {
  /** Number of log entries folded before this checkpoint. */
  index: number;
  fold: Fold;
  lengths: OutputLengths;
}

function initialFold(): Fold {
  return {
    t: -Infinity,
    started: false,
    connected: false,
    lastHeartbeat: null,
    execution: null,
    availability: null,
    availabilityAt: -Infinity,
    reportingAt: -Infinity,
    controllerMode: null,
    inSetup: false,
    faults: [],
    partCount: null,
    spindleSpeed: null,
    feedrate: null,
    program: null,
    programStart: 0,
    subprogram: null,
    subprogramStart: 0,
    spindleStart: null,
    inCutStart: null,
    state: 'UNAVAILABLE',
    reason: 'UNAVAILABLE',
    stateStart: 0,
    activeSince: null,
    lastCycleEnd: null,
  };
}

const cloneFold = (f: Fold): Fold => ({ ...f, faults: f.faults.map((x) => ({ ...x })) });

function emptyOutputs(): Outputs {
  return { intervals: [], cycles: [], programs: [], subprograms: [], faults: [], spindle: [], inCut: [] };
}

function lengthsOf(o: Outputs): OutputLengths {
  return {
    intervals: o.intervals.length,
    cycles: o.cycles.length,
    programs: o.programs.length,
    subprograms: o.subprograms.length,
    faults: o.faults.length,
    spindle: o.spindle.length,
    inCut: o.inCut.length,
  };
}

function truncateOutputs(o: Outputs, l: OutputLengths): void {
  o.intervals.length = l.intervals;
  o.cycles.length = l.cycles;
  o.programs.length = l.programs;
  o.subprograms.length = l.subprograms;
  o.faults.length = l.faults;
  o.spindle.length = l.spindle;
  o.inCut.length = l.inCut;
}

// ---------------------------------------------------------------------------------------------------------
// The fold step

/** METRICS.md §1 state from the current signals (stateFromSignals is the one rule). */
function classifyState(f: Fold): MachineState {
  return stateFromSignals({
    connected: f.connected,
    // METRICS.md §1: the newest evidence wins over an availability UNAVAILABLE (decision 1000).
    availability: heldAvailability(f.availability, f.availabilityAt, f.reportingAt),
    execution: f.execution,
    faultActive: f.faults.length > 0,
    inSetup: f.inSetup,
  });
}

/** The reason carried with a state (see StateInterval.reason). */
function reasonOf(f: Fold, state: MachineState): StateReason {
  switch (state) {
    case 'ACTIVE':
    case 'SETUP':
      return null;
    case 'FAULT': {
      const first = f.faults[0];
      return first ? first.value : null;
    }
    case 'INACTIVE':
      return f.execution;
    case 'UNAVAILABLE':
      return f.connected ? 'UNAVAILABLE' : 'DISCONNECTED';
  }
}

/**
 * Commits the state as of time t (the state after every observation at t): closes the current run when the
 * state or reason changed. Called only when time advances past t, so several observations at one instant
 * never produce zero-length intervals, and emitted records are never edited afterwards (the checkpoint
 * rollback relies on that).
 */
function commit(f: Fold, t: number, out: Outputs): void {
  // Called at every advance of the clock: no allocation unless the state changes.
  const state = classifyState(f);
  const reason = reasonOf(f, state);
  if (state !== f.state || reason !== f.reason) {
    if (t > f.stateStart) {
      out.intervals.push({
        start: f.stateStart as EpochMs,
        end: t as EpochMs,
        state: f.state,
        reason: f.reason,
      });
    }
    f.state = state;
    f.reason = reason;
    f.stateStart = t;
  }
  updateFlags(f, t, out);
}

function spindleOn(f: Fold): boolean {
  // Decision 0100: spindle rotating = speed > 0 while the machine reports data (any state but UNAVAILABLE).
  return f.state !== 'UNAVAILABLE' && f.spindleSpeed !== null && f.spindleSpeed > 0;
}
function inCutOn(f: Fold): boolean {
  // METRICS.md §1: in-cut = path feedrate > 0 while ACTIVE.
  return f.state === 'ACTIVE' && f.feedrate !== null && f.feedrate > 0;
}

function updateFlags(f: Fold, t: number, out: Outputs): void {
  const s = spindleOn(f);
  if (s && f.spindleStart === null) f.spindleStart = t;
  else if (!s && f.spindleStart !== null) {
    if (t > f.spindleStart) out.spindle.push({ start: f.spindleStart as EpochMs, end: t as EpochMs });
    f.spindleStart = null;
  }
  const c = inCutOn(f);
  if (c && f.inCutStart === null) f.inCutStart = t;
  else if (!c && f.inCutStart !== null) {
    if (t > f.inCutStart) out.inCut.push({ start: f.inCutStart as EpochMs, end: t as EpochMs });
    f.inCutStart = null;
  }
}

function setProgram(
  f: Fold,
  which: 'program' | 'subprogram',
  name: string | null,
  t: number,
  out: Outputs,
): void {
  const cleaned = name?.trim() ? name.trim() : null;
  const startKey = which === 'program' ? 'programStart' : 'subprogramStart';
  const current = f[which];
  if (cleaned === current) return;
  if (current !== null && t > f[startKey]) {
    const list = which === 'program' ? out.programs : out.subprograms;
    list.push({ start: f[startKey] as EpochMs, end: t as EpochMs, name: current });
  }
  f[which] = cleaned;
  f[startKey] = t;
}

/** The record of a fault activation from its start until `end`. */
const faultUntil = (x: OpenFault, end: number): FaultRecord => ({
  start: x.start as EpochMs,
  end: end as EpochMs,
  duration: (end - x.start) as DurationMs,
  value: x.value,
  nativecode: x.nativecode,
  type: x.type,
  item: x.item,
});

function closeFault(f: Fold, i: number, t: number, out: Outputs): void {
  const x = f.faults[i];
  if (!x) return;
  f.faults.splice(i, 1);
  if (t > x.start) out.faults.push(faultUntil(x, t));
}

function closeFaultsWhere(f: Fold, t: number, out: Outputs, pred: (x: OpenFault) => boolean): void {
  for (let i = f.faults.length - 1; i >= 0; i--) {
    const x = f.faults[i];
    if (x && pred(x)) closeFault(f, i, t, out);
  }
}

/** MTConnect condition semantics (cppagent): see /work/shared/data/mtconnect/README.md. */
function applyCondition(f: Fold, c: ConditionValue, t: number, out: Outputs): void {
  const code = c.nativeCode?.trim() ? c.nativeCode.trim() : null;
  const id = `${c.item}\u0000${code ?? ''}`;
  switch (c.level) {
    case 'FAULT':
      if (!f.faults.some((x) => x.id === id)) {
        f.faults.push({
          id,
          item: c.item,
          start: t,
          value: c.message?.trim() || code || 'Fault',
          nativecode: code,
          type: c.type,
        });
      }
      return;
    case 'WARNING':
      // A FAULT downgraded to WARNING is no longer a fault.
      closeFaultsWhere(f, t, out, (x) => x.id === id);
      return;
    case 'NORMAL':
      // NORMAL with a code clears that code; without one it clears every activation of the item.
      closeFaultsWhere(f, t, out, (x) => x.item === c.item && (code === null || x.nativecode === code));
      return;
    case 'UNAVAILABLE':
      closeFaultsWhere(f, t, out, (x) => x.item === c.item);
      return;
  }
}

function endCycle(f: Fold, t: number, count: number, source: MachineCycle['source'], out: Outputs): void {
  // Decision 0100: a cycle starts when execution first went ACTIVE after the previous cycle end; a count
  // with no ACTIVE since then starts at the previous cycle end, or has zero length when there is none.
  const start = f.activeSince ?? f.lastCycleEnd ?? t;
  out.cycles.push({
    start: start as EpochMs,
    end: t as EpochMs,
    duration: (t - start) as DurationMs,
    count,
    source,
    setup: f.inSetup,
  });
  f.lastCycleEnd = t;
  f.activeSince = f.execution === 'ACTIVE' ? t : null;
}

/**
 * Moves the fold's clock to t: commits the state reached at the previous instant. Time passing changes no
 * state (METRICS.md §1: a value holds until it changes; silence is never UNAVAILABLE by itself): only an
 * observation does, a link drop included.
 */
function advance(f: Fold, t: number, out: Outputs): void {
  if (t <= f.t) return;
  commit(f, f.t, out);
  f.t = t;
}

/** Explicit disconnect: the agent marks every data item UNAVAILABLE (decision 0100). */
function resetDataSignals(f: Fold, t: number, out: Outputs): void {
  f.execution = null;
  f.availability = null;
  f.controllerMode = null;
  f.partCount = null;
  f.spindleSpeed = null;
  f.feedrate = null;
  closeFaultsWhere(f, t, out, () => true);
  setProgram(f, 'program', null, t, out);
  setProgram(f, 'subprogram', null, t, out);
}

function step(f: Fold, o: Observation, config: DeriverConfig, out: Outputs): void {
  const t = o.ts as number;
  if (!f.started) {
    f.started = true;
    f.stateStart = t;
    f.t = t;
  }
  advance(f, t, out);

  if (o.key !== 'setup') {
    // Any adapter data is link evidence; data received after a drop ends it (link.ts places it after).
    f.lastHeartbeat = t;
    if (o.key !== 'connection') f.connected = true;
  }
  if (isReportingEvidence(o)) f.reportingAt = t;

  switch (o.key) {
    case 'connection':
      if (o.value === 'DISCONNECTED') {
        f.connected = false;
        resetDataSignals(f, t, out);
      } else f.connected = true;
      break;
    case 'heartbeat':
      break;
    case 'availability':
      f.availability = o.value?.toUpperCase() ?? null;
      f.availabilityAt = t;
      break;
    case 'controller_mode':
      f.controllerMode = o.value;
      break;
    case 'setup':
      f.inSetup = o.value === 'START';
      break;
    case 'condition':
      applyCondition(f, o.value, t, out);
      break;
    case 'execution': {
      const prev = f.execution;
      const next = o.value?.toUpperCase() ?? null;
      f.execution = next === 'UNAVAILABLE' ? null : next;
      if (f.execution === 'ACTIVE' && f.activeSince === null) f.activeSince = t;
      // Without a usable part count a cycle ends when execution leaves ACTIVE for
      // PROGRAM_COMPLETED.
      if (config.cycleSource === 'execution' && prev === 'ACTIVE' && f.execution === 'PROGRAM_COMPLETED') {
        endCycle(f, t, 1, 'execution', out);
      }
      break;
    }
    case 'cycle':
      if (config.cycleSource === 'execution') {
        endCycle(f, t, 1, 'cycle_signal', out);
      }
      break;
    case 'part_count': {
      const v = o.value;
      const prev = f.partCount;
      f.partCount = v;
      // A cycle ends at each increment. Unknown → value is a baseline; a decrease is a
      // counter reset and becomes the new baseline (decision 0100).
      if (config.cycleSource === 'part_count' && v !== null && prev !== null && v > prev) {
        endCycle(f, t, v - prev, 'part_count', out);
      }
      break;
    }
    case 'program':
      setProgram(f, 'program', o.value, t, out);
      break;
    case 'subprogram':
      setProgram(f, 'subprogram', o.value, t, out);
      break;
    case 'spindle_speed':
      f.spindleSpeed = o.value;
      break;
    case 'path_feedrate':
      f.feedrate = o.value;
      break;
  }
}

/** Cuts every open record at `now` (without changing the fold) and returns sorted copies of all outputs. */
function materialize(src: Fold, closed: Outputs, now: number, since: number): DerivationResult {
  const f = cloneFold(src);
  const tail = emptyOutputs();
  const end = Math.max(now, f.t);
  if (f.started) {
    advance(f, end, tail);
    commit(f, end, tail);
  }
  /** The closed records a write from `since` on keeps (it keeps every open one, and these). */
  const ending = <T extends { end: number }>(rows: T[]): T[] =>
    since === -Infinity ? rows : rows.filter((r) => r.end >= since);
  const intervals = [...ending(closed.intervals), ...tail.intervals].map((x) => ({ ...x }));
  if (f.started && end > f.stateStart) {
    intervals.push({
      start: f.stateStart as EpochMs,
      end: end as EpochMs,
      state: f.state,
      reason: f.reason,
      open: true,
    });
  }
  const programs = [...ending(closed.programs), ...tail.programs];
  if (f.program !== null && end > f.programStart)
    programs.push({ start: f.programStart as EpochMs, end: end as EpochMs, name: f.program, open: true });
  const subprograms = [...ending(closed.subprograms), ...tail.subprograms];
  if (f.subprogram !== null && end > f.subprogramStart)
    subprograms.push({
      start: f.subprogramStart as EpochMs,
      end: end as EpochMs,
      name: f.subprogram,
      open: true,
    });
  const faults = [...ending(closed.faults), ...tail.faults];
  for (const x of f.faults) {
    if (end > x.start) faults.push({ ...faultUntil(x, end), open: true });
  }
  const spindle = [...closed.spindle, ...tail.spindle];
  if (f.spindleStart !== null && end > f.spindleStart)
    spindle.push({ start: f.spindleStart as EpochMs, end: end as EpochMs });
  const inCut = [...closed.inCut, ...tail.inCut];
  if (f.inCutStart !== null && end > f.inCutStart)
    inCut.push({ start: f.inCutStart as EpochMs, end: end as EpochMs });

  const byStart = <T extends { start: number }>(a: T, b: T) => a.start - b.start;
  faults.sort(
    (a, b) =>
      a.start - b.start ||
      a.end - b.end ||
      (a.item + (a.nativecode ?? '') < b.item + (b.nativecode ?? '') ? -1 : 1),
  );
  const firstFault = f.faults[0];
  const current: CurrentSignals = {
    state: f.state,
    reason: f.reason,
    since: f.started ? (f.stateStart as EpochMs) : null,
    execution: f.execution,
    availability: f.availability,
    controllerMode: f.controllerMode,
    partCount: f.partCount,
    program: f.program,
    subprogram: f.subprogram,
    inSetup: f.inSetup,
    connected: f.connected,
    lastHeartbeat: f.lastHeartbeat as EpochMs | null,
    faultSince: firstFault ? (firstFault.start as EpochMs) : null,
    faultMessage: firstFault ? firstFault.value : null,
  };
  return {
    intervals,
    // Cycles of one end are merged: all of them end at or after `since`, or none.
    cycles: mergeSameEnd(ending(closed.cycles)),
    programs: programs.sort(byStart),
    subprograms: subprograms.sort(byStart),
    faults,
    spindle: mergeAdjacent(spindle.sort(byStart)),
    inCut: mergeAdjacent(inCut.sort(byStart)),
    current,
  };
}

/**
 * Counts that land on the same millisecond (two part-count steps in one instant, or machine times clamped to the
 * time they were received) make one cycle with their summed count: a cycle is known by its end (the store's
 * key), and a second, zero-length cycle at the same end would be a duplicate of it. Done when materializing,
 * so the fold's own records stay as they were at each checkpoint.
 */
function mergeSameEnd(cycles: readonly MachineCycle[]): MachineCycle[] {
  const out: MachineCycle[] = [];
  for (const c of cycles) {
    const last = out[out.length - 1];
    if (last && last.end === c.end) {
      const start = Math.min(last.start, c.start) as EpochMs;
      out[out.length - 1] = {
        ...c,
        start,
        duration: (c.end - start) as DurationMs,
        count: last.count + c.count,
      };
    } else out.push({ ...c });
  }
  return out;
}

function mergeAdjacent(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && last.end >= s.start) last.end = Math.max(last.end, s.end) as EpochMs;
    else out.push({ ...s });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The incremental deriver

export interface PushResult {
  /**
   * Earliest time whose outputs may have changed: every output record with `end >= changedFrom` (and every
   * open record) must be replaced by the ones in `result(now)`; records ending before it are unchanged.
   * null when nothing changed (only redeliveries, or nothing pushed).
   */
  changedFrom: EpochMs | null;
  /** Observations that were exact repeats of ones already folded (at-least-once delivery) and were ignored. */
  duplicates: number;
  /** Observations older than what this deriver still holds (see forgetBefore); not applied. */
  tooLate: Observation[];
}

/**
 * Incremental state derivation for one machine. Mutable by design: ingest keeps one per
 * machine, pushes observations as they arrive (in order or not), persists the changed outputs, and calls
 * `forgetBefore` once history is stored.
 */
export class StateDeriver {
  private readonly config: DeriverConfig;
  private log: Observation[] = [];
  private fold: Fold = initialFold();
  private out: Outputs = emptyOutputs();
  private checkpoints: Checkpoint[] = [{ index: 0, fold: initialFold(), lengths: lengthsOf(emptyOutputs()) }];
  /** Observations at or before this time were forgotten; input that old is refused. */
  private horizon = -Infinity;
  /** Number of log entries folded into `fold`. */
  private foldedCount = 0;

  constructor(config: DeriverConfig) {
    this.config = config;
  }

  /** Number of observations currently held. */
  get size(): number {
    return this.log.length;
  }

  /** Time of the latest observation folded, or null. */
  get lastTs(): EpochMs | null {
    const last = this.log[this.log.length - 1];
    return last ? last.ts : null;
  }

  /** Mutates: inserts the observations in order and refolds from the last checkpoint before the earliest. */
  push(observations: readonly Observation[]): PushResult {
    const tooLate: Observation[] = [];
    let duplicates = 0;
    let firstChanged = Infinity; // smallest log index changed
    // One line's observations usually arrive in order already: copy and sort only when they do not.
    let inOrder = true;
    for (let i = 1; i < observations.length && inOrder; i++)
      inOrder = compareObservations(observations[i - 1] as Observation, observations[i] as Observation) <= 0;
    const sorted = inOrder ? observations : [...observations].sort(compareObservations);
    for (const o of sorted) {
      if (o.ts <= this.horizon) {
        tooLate.push(o);
        continue;
      }
      const at = this.insertionPoint(o);
      if (at < 0) {
        duplicates++;
        continue;
      }
      if (at === this.log.length) this.log.push(o);
      else this.log.splice(at, 0, o);
      firstChanged = Math.min(firstChanged, at);
    }
    if (firstChanged === Infinity) return { changedFrom: null, duplicates, tooLate };

    // Pure append folds forward from where we are; a late insert restarts at the checkpoint before it.
    const from =
      firstChanged >= this.foldedCount
        ? this.foldedCount
        : this.restoreCheckpointAtOrBefore(firstChanged).index;
    // Records emitted from here on end at or after the fold's clock (or the first observation when new).
    const changedFrom = this.fold.started ? this.fold.t : (this.log[from] as Observation).ts;
    this.foldFrom(from);
    return { changedFrom: changedFrom as EpochMs, duplicates, tooLate };
  }

  /**
   * All outputs, with open records cut at `now` (now earlier than the last observation is ignored). With
   * `since`, closed state intervals, cycles, programs, sub-programs and faults ending before it are left out:
   * a write that replaces records from `since` on keeps none of them, and copying the whole history held at
   * every write made each one cost the history, not the change. Spindle and in-cut spans are always whole
   * (adjacent ones merge, whatever their end). `result(now, since)` equals `result(now)` with those left out.
   */
  result(now: EpochMs, since = -Infinity): DerivationResult {
    return materialize(this.fold, this.out, now, since);
  }

  /**
   * Mutates: drops observations and closed outputs that end before the last checkpoint at or before `t`,
   * once ingest has stored them. Late input older than that point is then refused (PushResult.tooLate) and
   * needs a rebuild from stored observations with deriveMachineHistory.
   */
  forgetBefore(t: EpochMs): void {
    // The last checkpoint whose preceding observations are all before t.
    let keep: Checkpoint | undefined;
    for (const c of this.checkpoints) {
      if (c.index > 0 && c.index <= this.foldedCount && (this.log[c.index - 1] as Observation).ts < t)
        keep = c;
    }
    if (!keep) return;
    const cut = keep.index;
    // A copy: `keep` is among the checkpoints whose lengths are shifted below (its own become 0).
    const drop = { ...keep.lengths };
    this.horizon = Math.max(this.horizon, (this.log[cut - 1] as Observation).ts);
    this.log = this.log.slice(cut);
    this.foldedCount -= cut;
    const keys = Object.keys(drop) as (keyof Outputs)[];
    this.checkpoints = this.checkpoints.filter((c) => c.index >= cut);
    for (const c of this.checkpoints) {
      c.index -= cut;
      for (const k of keys) c.lengths[k] -= drop[k];
    }
    // Outputs emitted before the kept checkpoint are final (ingest has stored them).
    for (const k of keys) (this.out[k] as unknown[]).splice(0, drop[k]);
  }

  /** Index to insert o at, or -1 when an identical observation is already held. */
  private insertionPoint(o: Observation): number {
    let lo = 0;
    let hi = this.log.length;
    // Fast path for in-order arrival.
    const last = this.log[hi - 1];
    if (!last || compareObservations(last, o) < 0) return hi;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareObservations(this.log[mid] as Observation, o);
      if (c === 0) return -1;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private restoreCheckpointAtOrBefore(index: number): Checkpoint {
    let i = this.checkpoints.length - 1;
    while (i > 0 && (this.checkpoints[i] as Checkpoint).index > index) i--;
    const cp = this.checkpoints[i] as Checkpoint;
    this.checkpoints.length = i + 1;
    this.fold = cloneFold(cp.fold);
    truncateOutputs(this.out, cp.lengths);
    this.foldedCount = cp.index;
    return cp;
  }

  private foldFrom(index: number): void {
    for (let i = index; i < this.log.length; i++) {
      step(this.fold, this.log[i] as Observation, this.config, this.out);
      this.foldedCount = i + 1;
      const lastCp = this.checkpoints[this.checkpoints.length - 1] as Checkpoint;
      if (this.foldedCount - lastCp.index >= CHECKPOINT_EVERY) {
        this.checkpoints.push({
          index: this.foldedCount,
          fold: cloneFold(this.fold),
          lengths: lengthsOf(this.out),
        });
      }
    }
  }
}

/** One-shot derivation of a whole history (pure): the reference the incremental deriver must equal. */
export function deriveMachineHistory(
  observations: readonly Observation[],
  config: DeriverConfig,
  now: EpochMs,
): DerivationResult {
  const d = new StateDeriver(config);
  d.push(observations);
  return d.result(now);
}
