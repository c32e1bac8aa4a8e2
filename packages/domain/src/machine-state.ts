import type { DurationMs } from './brand';
import { MINUTE_MS } from './brand';

// METRICS.md §1: every instant of a machine's life is in exactly one of these states.
export const MACHINE_STATES = ['ACTIVE', 'SETUP', 'INACTIVE', 'FAULT', 'UNAVAILABLE'] as const;
export type MachineState = (typeof MACHINE_STATES)[number];

/**
 * METRICS.md §1: the LINK's heartbeat lost for 5 minutes means UNAVAILABLE (live-operations §9 diagnostics
 * timeout too). It is a rule about the link (no line, PONG, agent answer, MQTT message or gateway push reached
 * the worker), never about silence between observations: a quiet machine keeps its state.
 */
export const HEARTBEAT_TIMEOUT_MS = (5 * MINUTE_MS) as DurationMs;

/** MTConnect Execution values that mean "reporting, not in cycle" (METRICS.md §1). */
export const IDLE_EXECUTIONS = [
  'READY',
  'STOPPED',
  'INTERRUPTED',
  'FEED_HOLD',
  'WAIT',
  'OPTIONAL_STOP',
  'PROGRAM_STOPPED',
  'PROGRAM_COMPLETED',
] as const;

/** What the live view knows about a machine at one instant, from its latest observations. */
export interface LiveSignals {
  /** The data link to the adapter is up (link evidence decides: derive/link.ts). */
  connected: boolean;
  /**
   * Last Availability value, when the device reports one. The deriver passes an UNAVAILABLE only while no
   * newer reporting evidence came (METRICS.md §1 newest evidence wins: derive/availability.ts).
   */
  availability?: string | null;
  /** Last Execution value (upper case), or null when unknown/UNAVAILABLE. */
  execution?: string | null;
  /** At least one Condition is at FAULT level. */
  faultActive: boolean;
  /** An operator has the job in setup (live-operations setup flow). */
  inSetup: boolean;
}

/**
 * METRICS.md §1 state of a machine from its current signals.
 * Precedence: SETUP overrides the machine; no data → UNAVAILABLE; in cycle → ACTIVE (a fault while in cycle
 * is still production); an active FAULT condition → FAULT; otherwise INACTIVE.
 */
export function stateFromSignals(s: LiveSignals): MachineState {
  if (s.inSetup) return 'SETUP';
  if (!s.connected) return 'UNAVAILABLE';
  if (s.availability != null && s.availability.toUpperCase() === 'UNAVAILABLE') return 'UNAVAILABLE';
  const execution = s.execution?.toUpperCase() ?? null;
  if (execution === 'ACTIVE') return 'ACTIVE';
  if (s.faultActive) return 'FAULT';
  if (execution === null || execution === 'UNAVAILABLE') return 'UNAVAILABLE';
  return 'INACTIVE';
}
