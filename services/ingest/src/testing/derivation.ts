import type { DerivationResult, EpochMs } from '@takt/domain';

/** A machine's current state for derived-record tests: running since 0, connected, no program. */
export const runningCurrent: DerivationResult['current'] = {
  state: 'ACTIVE',
  reason: null,
  since: 0 as EpochMs,
  execution: 'ACTIVE',
  availability: 'AVAILABLE',
  controllerMode: null,
  partCount: null,
  program: null,
  subprogram: null,
  inSetup: false,
  connected: true,
  lastHeartbeat: null,
  faultSince: null,
  faultMessage: null,
};

/** A derivation with no records but those given, the machine running (derived-record tests). */
export const derivationOf = (records: Partial<DerivationResult>): DerivationResult => ({
  intervals: [],
  cycles: [],
  programs: [],
  subprograms: [],
  faults: [],
  spindle: [],
  inCut: [],
  current: runningCurrent,
  ...records,
});
