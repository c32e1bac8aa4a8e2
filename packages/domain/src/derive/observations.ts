import type { EpochMs } from '../brand';

/**
 * Inputs of the state deriver. services/ingest resolves raw adapter keys (SHDR names,
 * MTConnect DataItems, MQTT topics) to these meanings before calling it; the deriver never sees raw keys.
 *
 * Every observation except `setup` is evidence that the link is up. A value holds until it changes: silence
 * between observations changes no state (METRICS.md §1); only a `connection` DISCONNECTED, or a value the
 * source says is UNAVAILABLE (`null`), makes a machine UNAVAILABLE. Where each source kind's link evidence
 * comes from, and how a drop is placed among the data, is link.ts.
 */

/** MTConnect Condition levels, upper case. */
export const CONDITION_LEVELS = ['NORMAL', 'WARNING', 'FAULT', 'UNAVAILABLE'] as const;
export type ConditionLevel = (typeof CONDITION_LEVELS)[number];

/** One Condition activation or clearance for condition data item `item` (SHDR `level|nativeCode|…|message`). */
export interface ConditionValue {
  /** The condition data item (e.g. 'system', 'CoolantSystem1_cond'); codes are scoped to it. */
  item: string;
  level: ConditionLevel;
  /** null/'' when the adapter gives none: NORMAL without a code clears every activation of the item. */
  nativeCode: string | null;
  message: string | null;
  /** The condition's MTConnect type (e.g. SYSTEM, LOGIC_PROGRAM), shown as the fault type. */
  type: string | null;
}

export type ObservationBody =
  /** MTConnect Execution (upper case: ACTIVE, READY, FEED_HOLD, PROGRAM_COMPLETED …) or the mapped in-cycle field. */
  | { key: 'execution'; value: string | null }
  /** MTConnect Availability (AVAILABLE / UNAVAILABLE). */
  | { key: 'availability'; value: string | null }
  /** MTConnect ControllerMode (AUTOMATIC, MANUAL, MDI …); carried to the live view, not a state input. */
  | { key: 'controller_mode'; value: string | null }
  /** The machine's part counter (absolute value). */
  | { key: 'part_count'; value: number | null }
  | { key: 'program'; value: string | null }
  | { key: 'subprogram'; value: string | null }
  | { key: 'spindle_speed'; value: number | null }
  | { key: 'path_feedrate'; value: number | null }
  | { key: 'condition'; value: ConditionValue }
  /** The adapter's mapped cycle-complete signal (used with cycleSource 'execution'). */
  | { key: 'cycle'; value: null }
  /** A heartbeat without data (`* PONG`, MQTT keep-alive, gateway ping). */
  | { key: 'heartbeat'; value: null }
  /** The data link to the adapter opened or dropped (socket state, agent UNAVAILABLE of the device). */
  | { key: 'connection'; value: 'CONNECTED' | 'DISCONNECTED' }
  /** Operator event from the setup flow (live-operations §4 Setup): SETUP overrides the machine state. */
  | { key: 'setup'; value: 'START' | 'END' };

export type ObservationKey = ObservationBody['key'];

/**
 * One timestamped observation. `seq` is an optional source order (SHDR line number, gateway sequence)
 * that breaks ties between observations with the same ts; without it ties are broken by key and value,
 * so the result never depends on delivery order.
 */
export type Observation = ObservationBody & { ts: EpochMs; seq?: number };

/**
 * How cycles end for this machine. 'part_count': at each increment of the part counter.
 * 'execution': for machines with no usable part count, when execution leaves ACTIVE for PROGRAM_COMPLETED,
 * or at the adapter's mapped `cycle` signal.
 */
export type CycleSource = 'part_count' | 'execution';

export interface DeriverConfig {
  cycleSource: CycleSource;
}
