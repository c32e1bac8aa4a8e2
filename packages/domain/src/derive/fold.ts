import type { DurationMs, EpochMs } from '../brand';
import type { MachineState } from '../machine-state';
import { stateFromSignals } from '../machine-state';
import { heldAvailability, isReportingEvidence } from './availability';
import type { ConditionValue, DeriverConfig, Observation } from './observations';
import type { DerivationResult, FaultRecord, MachineCycle, StateReason } from './outputs';

// METRICS.md §1: the state deriver's fold (state-deriver.ts): its small plain-data state, and the step that folds
// one observation into it, emitting the records it closes. Emitted records are never edited afterwards, and each
// output list's records are in the order of their end (the checkpoints of state-deriver.ts rely on both).
export interface OpenFault {
  id: string; // item + code
  item: string;
  start: number;
  value: string;
  nativecode: string | null;
  type: string | null;
}

/** The fold state. Plain data: copied for checkpoints by `cloneFold`. */
export interface Fold {
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
export type Outputs = Omit<DerivationResult, 'current'>;

export type OutputLengths = { [K in keyof Outputs]: number };

export function initialFold(): Fold {
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

export const cloneFold = (f: Fold): Fold => ({ ...f, faults: f.faults.map((x) => ({ ...x })) });

export function emptyOutputs(): Outputs {
  return { intervals: [], cycles: [], programs: [], subprograms: [], faults: [], spindle: [], inCut: [] };
}

export function lengthsOf(o: Outputs): OutputLengths {
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

export function truncateOutputs(o: Outputs, l: OutputLengths): void {
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
export function commit(f: Fold, t: number, out: Outputs): void {
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
export const faultUntil = (x: OpenFault, end: number): FaultRecord => ({
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
export function advance(f: Fold, t: number, out: Outputs): void {
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

export function step(f: Fold, o: Observation, config: DeriverConfig, out: Outputs): void {
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
