import { HOUR_MS, MINUTE_MS } from '../brand';
import type { StartInSetupMode } from '../metrics/production';
import type { CycleInputOption } from './rules';
import { cycleTimeFromInput, cycleTimeMs, formatPartsPerHour } from './rules';

// A job's standards as a planner enters them and as a job run starts with them (live-operations §3 JobMachine,
// §4 Job dispatch, §5 cycle time inputs; reports-admin §4 job run start-in-setup, §9 parts per hour). The
// office's job screens, the dispatch service, the job-run editor and the floor's pickers all call these.

// ---- Start in setup (decision 1083)

/**
 * The start-in-setup mode a run takes: none when started in production; in setup, the job machine's mode,
 * `unplanned` when it has none (setup is an availability loss unless someone planned it).
 */
export const runSetupMode = (setup: boolean, jobMachineMode: StartInSetupMode): StartInSetupMode =>
  !setup ? 'none' : jobMachineMode === 'none' ? 'unplanned' : jobMachineMode;

/**
 * The setup time a job run starts with (live-operations §4 Job dispatch "Start-in-setup: none clears setuptime,
 * planned and unplanned set setuptime to 0"; reports-admin §4 "none (setuptime null), planned, unplanned
 * (setuptime 0)"; issue 29 "planned and unplanned set setuptime to 0 from every entry point"): every start of a
 * run (the dispatch route and modal, the tile's job picker, the Start Job overlay, the tablet's offline
 * `start_job`, auto dispatch) stores this, whatever the job or job machine says.
 */
export const startSetupTime = (mode: StartInSetupMode): 0 | null => (mode === 'none' ? null : 0);

/**
 * The setup time a job run holds as the job-run editor saves and the run views read it (decision 1083): none
 * has none (null); unplanned has 0; planned keeps the time a planner explicitly planned for it in the editor
 * (the stages' total, decision 0940; reports-admin §4 gives planned no value), 0 when none was, as every
 * start stores. Unit-free: seconds in, seconds out; ms in, ms out.
 */
export function runSetupTime(mode: StartInSetupMode, planned: number | null | undefined): number | null {
  switch (mode) {
    case 'none':
      return null;
    case 'unplanned':
      return 0;
    case 'planned':
      return planned ?? 0;
  }
}

/**
 * The duration a setup is timed against (live-operations §2 "Setup timer against expected duration", the
 * workcenter card's expected setup, the labor activity set's expectedSetupDuration), in ms: none when the run
 * started in production; else the run's own setup time when above 0 (a planned one the job-run editor kept),
 * else the job's standard (the job machine's setup time), since every start stores 0; null when neither has one.
 */
export function expectedSetupMs(
  mode: StartInSetupMode,
  runMs: number | null | undefined,
  standardMs: number | null | undefined,
): number | null {
  if (mode === 'none') return null;
  if (runMs != null && runMs > 0) return runMs;
  if (standardMs != null && standardMs > 0) return standardMs;
  return null;
}

// ---- Cycle-time entry (live-operations §5; the company's cycleinputoption)

export interface Hms {
  hours: number;
  minutes: number;
  /** 0 to 60, to the millisecond (step 0.001). */
  seconds: number;
}

/** A duration as the hours, minutes and seconds the cycle time inputs show (the inverse of cycleTimeMs). */
export function hmsOf(ms: number): Hms {
  const whole = Math.max(0, Math.round(ms));
  const hours = Math.floor(whole / HOUR_MS);
  const minutes = Math.floor((whole % HOUR_MS) / MINUTE_MS);
  return { hours, minutes, seconds: (whole % MINUTE_MS) / 1000 };
}

/** The inputs' seconds take at most three decimals (step 0.001). */
const onStep = (seconds: number): boolean => Math.abs(seconds * 1000 - Math.round(seconds * 1000)) < 1e-6;

/** The input a cycle time is entered with: a time (h/m/s) per cycle or per part, or parts per hour. */
export const cycleInputIsTime = (option: CycleInputOption): boolean => option !== 'partsperhour';

/**
 * What the cycle time input shows for a stored cycle time (ms per cycle), per the company's cycleinputoption:
 * the time per cycle, the time per part (ms), or parts per hour. The inverse of cycleTimeFromInput.
 */
export function cycleInputOf(option: CycleInputOption, cycleMs: number, partCountMultiplier: number): number {
  const perCycle = partCountMultiplier > 0 ? partCountMultiplier : 1;
  switch (option) {
    case 'timepercycle':
      return cycleMs;
    case 'timeperpart':
      return cycleMs / perCycle;
    case 'partsperhour':
      return cycleMs > 0 ? (HOUR_MS / cycleMs) * perCycle : 0;
  }
}

/** What a planner typed for one cycle time: hours, minutes and seconds, or parts per hour. */
export interface CycleTimeEntry {
  hours: number;
  minutes: number;
  seconds: number;
  partsPerHour: number;
}

export type CycleTimeEntryResult = { ok: true; ms: number } | { ok: false; message: string };

/** live-operations §5 cycle time inputs, in its words where it has them. */
export const CYCLE_ENTRY_MESSAGES = {
  hours: 'Hours must be at least 0',
  minutes: 'Minutes must be at least 0',
  seconds: 'Seconds must be between 0 and 60 (step 0.001)',
  partsPerHour: 'Parts per hour must be more than 0',
  zero: 'Cycle time must be more than 0',
} as const;

/**
 * The stored cycle time (ms per cycle) of an entry, per the company's cycleinputoption: hours and minutes at
 * least 0, seconds 0 to 60 in steps of 0.001, or parts per hour above 0; never 0 ms.
 */
export function cycleTimeOfEntry(
  option: CycleInputOption,
  e: CycleTimeEntry,
  partCountMultiplier: number,
): CycleTimeEntryResult {
  let value: number | null;
  if (cycleInputIsTime(option)) {
    if (!(e.hours >= 0) || !Number.isInteger(e.hours))
      return { ok: false, message: CYCLE_ENTRY_MESSAGES.hours };
    if (!(e.minutes >= 0) || !Number.isInteger(e.minutes))
      return { ok: false, message: CYCLE_ENTRY_MESSAGES.minutes };
    if (!(e.seconds >= 0 && e.seconds <= 60) || !onStep(e.seconds))
      return { ok: false, message: CYCLE_ENTRY_MESSAGES.seconds };
    value = cycleTimeMs(e.hours, e.minutes, e.seconds);
  } else {
    if (!(e.partsPerHour > 0)) return { ok: false, message: CYCLE_ENTRY_MESSAGES.partsPerHour };
    value = e.partsPerHour;
  }
  const ms = value === null ? null : cycleTimeFromInput(option, value, partCountMultiplier);
  if (ms === null || Math.round(ms) < 1) return { ok: false, message: CYCLE_ENTRY_MESSAGES.zero };
  return { ok: true, ms: Math.round(ms) };
}

/** The entry a stored cycle time opens with, per the company's cycleinputoption. */
export function cycleEntryOf(
  option: CycleInputOption,
  cycleMs: number,
  partCountMultiplier: number,
): CycleTimeEntry {
  const shown = cycleInputOf(option, cycleMs, partCountMultiplier);
  const time = cycleInputIsTime(option) ? hmsOf(shown) : { hours: 0, minutes: 0, seconds: 0 };
  const pph = cycleInputIsTime(option) ? 0 : Math.round(shown * 1000) / 1000;
  return { ...time, partsPerHour: pph };
}

/**
 * Parts per hour of a standard (reports-admin §9 "3600000 / cycle time", live-operations §5): of the time per
 * part, which is the cycle time when a cycle makes one part; one decimal, '-' without a cycle time.
 */
export const standardPartsPerHour = (cycleMs: number, partCountMultiplier: number): string =>
  formatPartsPerHour(partCountMultiplier > 0 ? cycleMs / partCountMultiplier : cycleMs);
