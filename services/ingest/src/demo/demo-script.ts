// The behaviour of one simulated machine, as a pure, seeded script of timed steps (no IO, no clock):
// the same seed gives the same steps, so demos and tests are reproducible. simulator.ts plays it.

/** Demo adapter key → what it means (the field mapping the ingest uses for the demo plant). */
export const DEMO_KEYS = {
  avail: 'availability',
  execution: 'execution',
  mode: 'controller_mode',
  program: 'program',
  part_count: 'part_count',
  Sspeed: 'spindle_speed',
  path_feedrate: 'path_feedrate',
  system: 'condition',
} as const;

export type DemoKey = keyof typeof DEMO_KEYS;
export type DemoValueKey = Exclude<DemoKey, 'system'>;
export type DemoValues = Record<DemoValueKey, string>;

/** The order of the snapshot line an adapter sends on connect. */
export const DEMO_VALUE_KEYS: readonly DemoValueKey[] = [
  'avail',
  'execution',
  'mode',
  'program',
  'part_count',
  'Sspeed',
  'path_feedrate',
];

export interface DemoCondition {
  level: 'NORMAL' | 'FAULT' | 'UNAVAILABLE';
  nativeCode: string;
  nativeSeverity: string;
  qualifier: string;
  message: string;
}

export type DemoOutage =
  /** the adapter closes its clients and refuses connections */
  | 'refuse'
  /** the adapter hangs: sends nothing and answers no PING (clients time out) */
  | 'silent';

export interface DemoStep {
  /** simulated ms after the previous step */
  afterMs: number;
  set?: Partial<DemoValues>;
  condition?: DemoCondition;
  outage?: { kind: DemoOutage; durationMs: number };
}

/**
 * A program of the demo plant's jobs (the demo company's jobs: a program per job, decision 1035): its
 * nominal cycle, and the idle between cycles and the setup it takes.
 */
export interface DemoProgram {
  name: string;
  cycleMs: number;
  idleMs: [number, number];
  setupMs: [number, number];
}

/** Timing and rates of one machine, in simulated ms. */
export interface DemoProfile {
  cycleMs: [number, number];
  idleMs: [number, number];
  longBreakChance: number;
  longBreakMs: [number, number];
  setupMs: [number, number];
  programChangeChance: number;
  holdChance: number;
  holdMs: [number, number];
  faultChance: number;
  faultMs: [number, number];
  /** per cycle; which outage comes is picked from outageKinds */
  outageChance: number;
  outageKinds: ReadonlyArray<DemoOutage | 'power_off'>;
  outageMs: [number, number];
  spindleRpm: [number, number];
  feedrate: [number, number];
  /** how long spindle and feed hold one value during a cycle */
  segmentMs: [number, number];
  /**
   * The programs the machine runs, when it runs its jobs' programs (the demo plant) instead of made-up ones.
   * Then cycles, idle and setups follow the program, and the per-cycle chances above count per
   * PER_CHANCE_MS of cycle, so a short cycle does not break down more often per hour than a long one.
   */
  programs?: readonly DemoProgram[];
}

/** With programs, the per-cycle chances are per this much cycle time. */
export const PER_CHANCE_MS = 180_000;

export const DEFAULT_DEMO_PROFILE: DemoProfile = {
  cycleMs: [30_000, 360_000],
  idleMs: [5_000, 120_000],
  longBreakChance: 0.03,
  longBreakMs: [15 * 60_000, 60 * 60_000],
  setupMs: [5 * 60_000, 25 * 60_000],
  programChangeChance: 0.06,
  holdChance: 0.05,
  holdMs: [10_000, 90_000],
  faultChance: 0.025,
  faultMs: [60_000, 12 * 60_000],
  outageChance: 0.01,
  outageKinds: ['refuse', 'silent', 'power_off'],
  outageMs: [60_000, 8 * 60_000],
  spindleRpm: [800, 8_000],
  feedrate: [50, 2_500],
  segmentMs: [8_000, 40_000],
};

/**
 * The demo plant's rates when its machines run their jobs' programs (decision 1035): per PER_CHANCE_MS of
 * cycle, a long break every ~4 h of cutting, a fault every ~5 h, a job change every ~8 h; spindle and feed
 * change every 1–4 min. Tuned so a machine's OEE lands between roughly 40 and 85 %.
 */
export const DEMO_PLANT_RATES: Partial<DemoProfile> = {
  longBreakChance: 0.012,
  programChangeChance: 0.006,
  faultChance: 0.01,
  holdChance: 0.04,
  outageChance: 0.004,
  segmentMs: [60_000, 240_000],
};

/**
 * A demo machine's profile from its jobs: one program per job, cycling at the job's expected cycle time (the
 * script adds ±6 %), loading and unloading between cycles in proportion to the cycle, and a setup around the
 * job's setup time (a few minutes of changeover for a job without one).
 */
export function demoPlantProfile(
  programs: ReadonlyArray<{ name: string; cycleMs: number; setupMs: number | null }>,
): Partial<DemoProfile> {
  return {
    ...DEMO_PLANT_RATES,
    programs: programs.map((x) => ({
      name: x.name,
      cycleMs: x.cycleMs,
      idleMs: [Math.round(x.cycleMs * 0.05) + 3_000, Math.round(x.cycleMs * 0.4) + 8_000],
      setupMs:
        x.setupMs && x.setupMs > 0
          ? [Math.round(x.setupMs * 0.7), Math.round(x.setupMs * 1.3)]
          : [3 * 60_000, 12 * 60_000],
    })),
  };
}

const FAULTS: ReadonlyArray<Omit<DemoCondition, 'level'>> = [
  { nativeCode: 'E101', nativeSeverity: '2', qualifier: 'HIGH', message: 'Spindle overload' },
  { nativeCode: 'E214', nativeSeverity: '1', qualifier: 'LOW', message: 'Coolant level low' },
  { nativeCode: 'E305', nativeSeverity: '3', qualifier: '', message: 'X axis servo alarm' },
  { nativeCode: 'E412', nativeSeverity: '2', qualifier: '', message: 'Door interlock open' },
];

export const CONDITION_NORMAL: DemoCondition = {
  level: 'NORMAL',
  nativeCode: '',
  nativeSeverity: '',
  qualifier: '',
  message: '',
};
const CONDITION_UNAVAILABLE: DemoCondition = { ...CONDITION_NORMAL, level: 'UNAVAILABLE' };

/** mulberry32: a tiny, well-distributed 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Dice {
  constructor(private readonly random: () => number) {}
  chance(p: number): boolean {
    return this.random() < p;
  }
  between([min, max]: [number, number]): number {
    return Math.round(min + this.random() * (max - min));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }
}

interface Program {
  name: string;
  cycleMs: number;
  rpm: number;
  feed: number;
  idleMs: [number, number];
  setupMs: [number, number];
  /** the factor of the per-cycle chances (1 without programs) */
  chance: number;
}

/**
 * An endless script for one machine. The first step (afterMs 0) sets every value: it is the state
 * the adapter starts with. Mutable state (values, part count) lives in this generator only.
 */
export function* demoMachineScript(
  seed: number,
  profile: Partial<DemoProfile> = {},
): Generator<DemoStep, never> {
  const p: DemoProfile = { ...DEFAULT_DEMO_PROFILE, ...profile };
  const dice = new Dice(mulberry32(seed));
  const programs = p.programs && p.programs.length > 0 ? p.programs : null;
  const newProgram = (current?: Program): Program => {
    if (!programs) {
      return {
        name: `O${dice.between([1000, 9899])}`,
        cycleMs: dice.between(p.cycleMs),
        rpm: dice.between(p.spindleRpm),
        feed: dice.between(p.feedrate),
        idleMs: p.idleMs,
        setupMs: p.setupMs,
        chance: 1,
      };
    }
    // Another program than the current one, when there is another.
    const others = programs.filter((x) => x.name !== current?.name);
    const next = dice.pick(others.length > 0 ? others : programs);
    return {
      ...next,
      rpm: dice.between(p.spindleRpm),
      feed: dice.between(p.feedrate),
      chance: next.cycleMs / PER_CHANCE_MS,
    };
  };
  let program = newProgram();
  let parts = dice.between([0, 400]);
  const values: DemoValues = {
    avail: 'AVAILABLE',
    execution: 'READY',
    mode: 'AUTOMATIC',
    program: program.name,
    part_count: String(parts),
    Sspeed: '0',
    path_feedrate: '0',
  };
  yield { afterMs: 0, set: { ...values }, condition: CONDITION_NORMAL };
  // Short first wait, so a freshly started demo plant moves at once.
  let waitMs = dice.between([1_000, 20_000]);

  for (;;) {
    if ((yield* runCycle(dice, p, program, waitMs, parts)) === 'completed') parts++;
    waitMs = dice.between(program.idleMs);
    if (dice.chance(p.outageChance * program.chance)) {
      waitMs += yield* outage(dice, p, program.name, parts);
    } else if (dice.chance(p.programChangeChance * program.chance)) {
      program = newProgram(program);
      yield* changeProgram(dice, program);
    } else if (dice.chance(p.longBreakChance * program.chance)) {
      yield { afterMs: waitMs, set: { execution: 'STOPPED' } };
      waitMs = dice.between(p.longBreakMs);
    }
  }
}

type CycleEnd = 'completed' | 'faulted';

/**
 * One cycle, started after `waitMs`: spindle and feed vary in segments; maybe a hold or a fault.
 * A completed cycle ends with PROGRAM_COMPLETED and the part count at `parts + 1`.
 */
function* runCycle(
  dice: Dice,
  p: DemoProfile,
  program: Program,
  waitMs: number,
  parts: number,
): Generator<DemoStep, CycleEnd> {
  const total = Math.round(program.cycleMs * (0.94 + dice.between([0, 120]) / 1000));
  const faultAt = dice.chance(p.faultChance * program.chance) ? dice.between([0, total]) : -1;
  const holdAt = dice.chance(p.holdChance * program.chance) ? dice.between([0, total]) : -1;
  yield { afterMs: waitMs, set: { execution: 'ACTIVE', mode: 'AUTOMATIC', ...motion(dice, program) } };
  const done = {
    execution: 'PROGRAM_COMPLETED',
    part_count: String(parts + 1),
    Sspeed: '0',
    path_feedrate: '0',
  };
  let elapsed = 0;
  for (;;) {
    const segment = Math.min(dice.between(p.segmentMs), total - elapsed);
    if (faultAt >= elapsed && faultAt < elapsed + segment) {
      yield* fault(dice, p, faultAt - elapsed);
      return 'faulted';
    }
    // A hold inside the segment: the rest of the segment comes after it (the cycle is its length plus the hold).
    let rest = segment;
    if (holdAt >= elapsed && holdAt < elapsed + segment) {
      yield* hold(dice, p, program, holdAt - elapsed);
      rest = segment - (holdAt - elapsed);
    }
    elapsed += segment;
    if (elapsed >= total) {
      yield { afterMs: rest, set: done };
      return 'completed';
    }
    yield { afterMs: rest, set: motion(dice, program) };
  }
}

function motion(dice: Dice, program: Program): Partial<DemoValues> {
  const wobble = (base: number) => base * (0.85 + dice.between([0, 300]) / 1000);
  return { Sspeed: String(Math.round(wobble(program.rpm))), path_feedrate: wobble(program.feed).toFixed(1) };
}

function* hold(dice: Dice, p: DemoProfile, program: Program, afterMs: number): Generator<DemoStep, void> {
  yield { afterMs, set: { execution: dice.chance(0.5) ? 'FEED_HOLD' : 'INTERRUPTED', path_feedrate: '0' } };
  yield { afterMs: dice.between(p.holdMs), set: { execution: 'ACTIVE', ...motion(dice, program) } };
}

function* fault(dice: Dice, p: DemoProfile, afterMs: number): Generator<DemoStep, void> {
  const alarm = dice.pick(FAULTS);
  yield {
    afterMs,
    set: { execution: 'STOPPED', Sspeed: '0', path_feedrate: '0' },
    condition: { level: 'FAULT', ...alarm },
  };
  yield { afterMs: dice.between(p.faultMs), set: { execution: 'READY' }, condition: CONDITION_NORMAL };
}

/** Setup for a new program: manual mode, program change, then back to automatic. */
function* changeProgram(dice: Dice, program: Program): Generator<DemoStep, void> {
  yield { afterMs: dice.between([2_000, 10_000]), set: { mode: 'MANUAL', execution: 'READY' } };
  yield { afterMs: dice.between([10_000, 60_000]), set: { program: program.name } };
  yield { afterMs: dice.between(program.setupMs), set: { mode: 'AUTOMATIC' } };
}

/**
 * One of three outages: the network drops (refuse), the adapter hangs (silent), or the machine is
 * switched off (every value UNAVAILABLE, while the adapter keeps answering). Returns the extra wait
 * the next step needs so nothing happens while the adapter is away.
 */
function* outage(dice: Dice, p: DemoProfile, program: string, parts: number): Generator<DemoStep, number> {
  const durationMs = dice.between(p.outageMs);
  const kind = dice.pick(p.outageKinds.length > 0 ? p.outageKinds : DEFAULT_DEMO_PROFILE.outageKinds);
  if (kind !== 'power_off') {
    yield { afterMs: dice.between([1_000, 5_000]), outage: { kind, durationMs } };
    return durationMs;
  }
  const off = Object.fromEntries(DEMO_VALUE_KEYS.map((k) => [k, 'UNAVAILABLE'])) as DemoValues;
  yield { afterMs: dice.between([1_000, 5_000]), set: off, condition: CONDITION_UNAVAILABLE };
  const on: DemoValues = {
    avail: 'AVAILABLE',
    execution: 'READY',
    mode: 'MANUAL',
    program,
    part_count: String(parts),
    Sspeed: '0',
    path_feedrate: '0',
  };
  yield { afterMs: durationMs, set: on, condition: CONDITION_NORMAL };
  yield { afterMs: dice.between([20_000, 120_000]), set: { mode: 'AUTOMATIC' } };
  return 0;
}
