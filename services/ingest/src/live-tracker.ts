import { stateFromSignals } from '@takt/domain';
import type { EpochMs, LiveSignals, MachineState } from '@takt/domain';
import type { MachineLiveTable } from '@takt/api/db';
import type { Observation } from './shdr';

/** The meaning of a key, from the adapter's field mapping (MTConnect data item types). */
export type Meaning =
  | 'execution'
  | 'availability'
  | 'part_count'
  | 'program'
  | 'controller_mode'
  | 'spindle_speed'
  | 'condition'
  | 'other';

const TYPE_MEANING: Record<string, Meaning> = {
  EXECUTION: 'execution',
  AVAILABILITY: 'availability',
  PART_COUNT: 'part_count',
  PROGRAM: 'program',
  CONTROLLER_MODE: 'controller_mode',
  ROTARY_VELOCITY: 'spindle_speed',
  SPINDLE_SPEED: 'spindle_speed',
  SYSTEM: 'condition',
  LOGIC_PROGRAM: 'condition',
  MOTION_PROGRAM: 'condition',
  HARDWARE: 'condition',
  COMMUNICATIONS: 'condition',
  ACTUATOR: 'condition',
};

export function meaningOf(dataItemType: string | undefined): Meaning {
  return (dataItemType && TYPE_MEANING[dataItemType.toUpperCase()]) || 'other';
}

export type Connection = 'CONNECTING' | 'CONNECTED' | 'DISCONNECTED';

export interface StateChangeEvent {
  at: number;
  state: MachineState;
}

/**
 * The live picture of one machine inside an ingest worker: current signals, active fault codes, and the
 * METRICS.md §1 state with its start. It turns observations into the machine_live row and state changes.
 * Pure bookkeeping: the caller owns IO and the clock.
 */
export class LiveTracker {
  private signals: LiveSignals = { connected: false, faultActive: false, inSetup: false, execution: null };
  /** Active FAULT codes per condition key (a NORMAL with a code clears that code, without one clears all). */
  private faults = new Map<string, Map<string, { since: number; message: string }>>();
  private row: MachineLiveTable;
  dirty = false;

  constructor(
    readonly companyId: string,
    readonly machineId: string,
    private readonly fieldTypes: ReadonlyMap<string, string>,
    previous: MachineLiveTable | undefined,
    now: number,
  ) {
    this.row = previous
      ? { ...previous, connection: 'CONNECTING', connection_since: now }
      : {
          machine_id: machineId,
          company_id: companyId,
          state: 'UNAVAILABLE',
          state_since: null,
          connection: 'CONNECTING',
          connection_since: now,
          last_heartbeat: null,
          execution: null,
          execution_since: null,
          availability: null,
          controller_mode: null,
          program: null,
          part_count: null,
          spindle_speed: null,
          fault_since: null,
          fault_message: null,
          in_setup: 0,
          updated_at: now,
        };
    this.signals.inSetup = this.row.in_setup === 1;
    this.dirty = true;
  }

  get live(): MachineLiveTable {
    return this.row;
  }

  setConnection(connection: Connection, at: number): StateChangeEvent | null {
    if (this.row.connection === connection) return null;
    this.row = { ...this.row, connection, connection_since: at, updated_at: at };
    this.signals.connected = connection === 'CONNECTED';
    if (connection !== 'CONNECTED') {
      // A lost link forgets what the machine said: on reconnect the adapter sends a fresh snapshot.
      this.faults.clear();
      this.signals = { ...this.signals, execution: null, availability: null, faultActive: false };
      this.row = {
        ...this.row,
        fault_since: null,
        fault_message: null,
        execution: null,
        execution_since: at,
      };
    }
    this.dirty = true;
    return this.evaluate(at, at);
  }

  heartbeat(at: number): void {
    this.row = { ...this.row, last_heartbeat: at, updated_at: at };
    this.signals.lastHeartbeat = at as EpochMs;
    this.dirty = true;
  }

  /** Apply the observations of one line; returns the state change they cause, if any. */
  apply(observations: readonly Observation[], receivedAt: number): StateChangeEvent | null {
    if (observations.length === 0) return null;
    // Machine time orders events, but a clock running ahead of ours must not put a state in the future.
    const at = Math.min(observations[0]!.ts, receivedAt);
    let row = this.row;
    for (const o of observations) {
      const meaning = o.kind === 'condition' ? 'condition' : meaningOf(this.fieldTypes.get(o.key));
      switch (meaning) {
        case 'execution': {
          const execution = o.value?.toUpperCase() ?? null;
          if (execution !== row.execution) row = { ...row, execution, execution_since: at };
          this.signals.execution = execution;
          break;
        }
        case 'availability':
          row = { ...row, availability: o.value };
          this.signals.availability = o.value ?? 'UNAVAILABLE';
          break;
        case 'part_count': {
          const n = o.value == null ? null : Number(o.value);
          row = { ...row, part_count: n != null && Number.isFinite(n) ? n : null };
          break;
        }
        case 'program':
          row = { ...row, program: o.value };
          break;
        case 'controller_mode':
          row = { ...row, controller_mode: o.value };
          break;
        case 'spindle_speed': {
          const n = o.value == null ? null : Number(o.value);
          row = { ...row, spindle_speed: n != null && Number.isFinite(n) ? n : null };
          break;
        }
        case 'condition':
          if (o.condition)
            this.applyCondition(o.key, o.condition.level, o.condition.nativeCode, o.condition.message, at);
          break;
        case 'other':
          break;
      }
    }
    const active = [...this.faults.values()].flatMap((m) => [...m.values()]);
    const latest = active.reduce<{ since: number; message: string } | null>(
      (a, f) => (!a || f.since >= a.since ? f : a),
      null,
    );
    const earliest = active.reduce<number | null>((a, f) => (a == null || f.since < a ? f.since : a), null);
    this.signals.faultActive = active.length > 0;
    this.row = {
      ...row,
      fault_since: earliest,
      fault_message: latest?.message || null,
      updated_at: receivedAt,
    };
    this.dirty = true;
    return this.evaluate(at, receivedAt);
  }

  private applyCondition(key: string, level: string, code: string, message: string, at: number): void {
    const codes = this.faults.get(key) ?? new Map<string, { since: number; message: string }>();
    if (level === 'FAULT') {
      const k = code || message || key;
      if (!codes.has(k)) codes.set(k, { since: at, message: message || code });
    } else if (level === 'NORMAL' || level === 'UNAVAILABLE') {
      if (code && level === 'NORMAL') codes.delete(code);
      else codes.clear();
    } else if (level === 'WARNING' && code) {
      codes.delete(code); // a code that drops from FAULT to WARNING is no longer a fault
    }
    this.faults.set(key, codes);
  }

  /** Re-evaluate the state (also called on a timer, so a silent adapter turns UNAVAILABLE after 5 minutes). */
  evaluate(at: number, now: number): StateChangeEvent | null {
    const state = stateFromSignals(this.signals, now as EpochMs);
    if (state === this.row.state && this.row.state_since != null) return null;
    // State intervals never go backwards: a late line cannot start a state before the current one began.
    const since = Math.max(at, this.row.state_since ?? at);
    this.row = { ...this.row, state, state_since: since, updated_at: now };
    this.dirty = true;
    return { at: since, state };
  }
}
