import type { DurationMs, EpochMs } from '../brand';
import type { MachineState } from '../machine-state';

/**
 * Outputs of the state deriver. Every record is [start, end) in epoch ms. Records still open at `now` are
 * cut at `now` and flagged `open: true`; they may still grow or change.
 */

/** Why a machine is not producing, carried on the state interval (shown as the idle reason / extended status). */
export type StateReason =
  | string // INACTIVE: the Execution value (READY, FEED_HOLD, …); FAULT: the fault message
  | null;

export interface StateInterval {
  start: EpochMs;
  end: EpochMs;
  state: MachineState;
  /**
   * INACTIVE: the execution value (idle reason). FAULT: the first active fault's message or code.
   * UNAVAILABLE: 'DISCONNECTED' (link down), 'UNAVAILABLE' (the source says it has no value).
   * ACTIVE, SETUP: null.
   */
  reason: StateReason;
  open?: boolean;
}

/** A time span during which a flag held (spindle rotating, in cut). */
export interface Span {
  start: EpochMs;
  end: EpochMs;
}

/** A machine cycle as the machine reported it; job standards are applied later (production.ts). */
export interface MachineCycle {
  /** First moment execution was ACTIVE since the previous cycle ended (decision 0100). */
  start: EpochMs;
  /** The cycle end: the part-count increment or the PROGRAM_COMPLETED / cycle signal. live-ops §3 Cycle.timestamp. */
  end: EpochMs;
  duration: DurationMs;
  /** Machine count for this cycle: the part-count increment (≥ 1), or 1 in execution mode. */
  count: number;
  source: 'part_count' | 'execution' | 'cycle_signal';
  /** The cycle ended while the operator had the job in setup. */
  setup: boolean;
}

export interface ProgramInterval {
  start: EpochMs;
  end: EpochMs;
  name: string;
  open?: boolean;
}

/** live-operations §3 Fault: start, duration, value, nativecode, type. */
export interface FaultRecord {
  start: EpochMs;
  end: EpochMs;
  duration: DurationMs;
  /** The condition message (or the code when there is no message). */
  value: string;
  nativecode: string | null;
  type: string | null;
  item: string;
  open?: boolean;
}

/** The live view of the machine at the end of the derived history (feeds the dashboard tile). */
export interface CurrentSignals {
  state: MachineState;
  reason: StateReason;
  since: EpochMs | null;
  execution: string | null;
  availability: string | null;
  controllerMode: string | null;
  partCount: number | null;
  program: string | null;
  subprogram: string | null;
  inSetup: boolean;
  connected: boolean;
  lastHeartbeat: EpochMs | null;
  faultSince: EpochMs | null;
  faultMessage: string | null;
}

export interface DerivationResult {
  intervals: StateInterval[];
  cycles: MachineCycle[];
  programs: ProgramInterval[];
  subprograms: ProgramInterval[];
  faults: FaultRecord[];
  spindle: Span[];
  inCut: Span[];
  current: CurrentSignals;
}
