import { describe, expect, it } from 'vitest';
import type { DemoProfile, DemoStep } from './demo-script';
import { DEMO_PLANT_RATES, DEMO_VALUE_KEYS, demoMachineScript, mulberry32 } from './demo-script';

function take(seed: number, n: number, profile?: Partial<DemoProfile>): DemoStep[] {
  const script = demoMachineScript(seed, profile);
  return Array.from({ length: n }, () => script.next().value);
}

const EXECUTIONS = new Set([
  'READY',
  'ACTIVE',
  'STOPPED',
  'INTERRUPTED',
  'FEED_HOLD',
  'PROGRAM_COMPLETED',
  'UNAVAILABLE',
]);

describe('mulberry32', () => {
  it('is deterministic per seed and stays in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(mulberry32(43)()).not.toBe(xs[0]);
  });
});

describe('demoMachineScript', () => {
  it('starts with every value set', () => {
    const [first] = take(1, 1);
    expect(first?.afterMs).toBe(0);
    expect(Object.keys(first?.set ?? {}).sort()).toEqual([...DEMO_VALUE_KEYS].sort());
    expect(first?.condition?.level).toBe('NORMAL');
  });

  it('is deterministic for a seed and differs between seeds', () => {
    expect(take(7, 2000)).toEqual(take(7, 2000));
    expect(take(8, 50)).not.toEqual(take(7, 50));
  });

  it('plays a plausible machine: known executions, +1 part at each cycle end, faults cleared, cycles 30 s–6 min', () => {
    const steps = take(3, 20_000);
    let parts = Number(steps[0]?.set?.part_count);
    let clock = 0;
    let cycleStart: number | null = null;
    let faults = 0;
    let faulted = false;
    const cycleLengths: number[] = [];
    for (const step of steps.slice(1)) {
      clock += step.afterMs;
      expect(step.afterMs).toBeGreaterThanOrEqual(0);
      const execution = step.set?.execution;
      if (execution !== undefined) expect(EXECUTIONS.has(execution)).toBe(true);
      if (step.set?.part_count !== undefined && step.set.part_count !== 'UNAVAILABLE') {
        const next = Number(step.set.part_count);
        if (execution === 'PROGRAM_COMPLETED') {
          expect(next).toBe(parts + 1);
          if (cycleStart !== null) cycleLengths.push(clock - cycleStart);
        } else {
          expect(next).toBe(parts); // a power-on repeats the count
        }
        parts = next;
      }
      if (execution === 'ACTIVE' && cycleStart === null) cycleStart = clock;
      if (
        execution !== undefined &&
        execution !== 'ACTIVE' &&
        execution !== 'FEED_HOLD' &&
        execution !== 'INTERRUPTED'
      )
        cycleStart = null;
      if (step.condition?.level === 'FAULT') {
        expect(faulted).toBe(false);
        faulted = true;
        faults++;
      } else if (step.condition) {
        faulted = false;
      }
    }
    expect(faults).toBeGreaterThan(0);
    expect(cycleLengths.length).toBeGreaterThan(100);
    // holds can stretch a cycle; the nominal range is 30 s–6 min with ±6 % jitter
    expect(Math.min(...cycleLengths)).toBeGreaterThanOrEqual(30_000 * 0.94);
    expect(Math.max(...cycleLengths)).toBeLessThanOrEqual(360_000 * 1.06 + 90_000);
  });

  it('includes outages of every kind over a long run', () => {
    const steps = take(11, 50_000);
    const kinds = new Set(steps.flatMap((s) => (s.outage ? [s.outage.kind] : [])));
    expect(kinds).toEqual(new Set(['refuse', 'silent']));
    expect(steps.some((s) => s.set?.avail === 'UNAVAILABLE')).toBe(true);
  });
});

describe('demoMachineScript with programs (the demo plant, decision 1035)', () => {
  const PROGRAMS = [
    {
      name: 'O24101',
      cycleMs: 95_000,
      idleMs: [8_000, 46_000] as [number, number],
      setupMs: [60_000, 90_000] as [number, number],
    },
    {
      name: 'O24103',
      cycleMs: 180_000,
      idleMs: [12_000, 80_000] as [number, number],
      setupMs: [60_000, 90_000] as [number, number],
    },
  ];

  it('runs only its programs, each cycle near its program cycle, idle within its program idle', () => {
    const steps = take(5, 40_000, { ...DEMO_PLANT_RATES, programs: PROGRAMS });
    const cycleOf = new Map(PROGRAMS.map((p) => [p.name, p]));
    let program = steps[0]?.set?.program ?? '';
    expect(cycleOf.has(program)).toBe(true);
    let clock = 0;
    let cycleStart: number | null = null;
    let completedAt: number | null = null;
    const changes = new Set<string>();
    let idles = 0;
    for (const step of steps.slice(1)) {
      clock += step.afterMs;
      const set = step.set ?? {};
      if (set.program !== undefined && set.program !== 'UNAVAILABLE') {
        expect(cycleOf.has(set.program)).toBe(true);
        if (set.program !== program) changes.add(set.program);
        program = set.program;
      }
      if (set.execution === 'ACTIVE' && cycleStart === null) {
        // A cycle right after the last one waited its program's load/unload time.
        if (completedAt === clock - step.afterMs) {
          const [min, max] = cycleOf.get(program)!.idleMs;
          expect(step.afterMs).toBeGreaterThanOrEqual(min);
          expect(step.afterMs).toBeLessThanOrEqual(max);
          idles++;
        }
        cycleStart = clock;
      }
      if (set.execution === 'PROGRAM_COMPLETED' && cycleStart !== null) {
        const nominal = cycleOf.get(program)!.cycleMs;
        expect(clock - cycleStart).toBeGreaterThanOrEqual(nominal * 0.94);
        expect(clock - cycleStart).toBeLessThanOrEqual(nominal * 1.06 + 90_000);
        completedAt = clock;
      }
      if (set.execution !== undefined && !['ACTIVE', 'FEED_HOLD', 'INTERRUPTED'].includes(set.execution))
        cycleStart = null;
    }
    expect(idles).toBeGreaterThan(1_000);
    // Over weeks of steps the machine changes jobs, in turn to another program.
    expect(changes.size).toBe(2);
  });

  it('keeps the default script unchanged without programs', () => {
    expect(take(7, 500)).toEqual(take(7, 500, {}));
  });
});
