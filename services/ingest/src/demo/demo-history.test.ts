import { describe, expect, it } from 'vitest';
import { DEMO_PLANT_RATES } from './demo-script';
import { planDemoHistory } from './demo-history';

// The operators' side of the demo plant's past (decision 1035), read from the same seeded scripts as the
// machine data: pure, so checked here without a database (the API test plays it into one).

const DAY = 86_400_000;
const FROM = Date.UTC(2026, 9, 1);
const PROGRAMS = [
  {
    name: 'O24201',
    cycleMs: 62_000,
    idleMs: [6_000, 33_000] as [number, number],
    setupMs: [1_260_000, 2_340_000] as [number, number],
  },
  {
    name: 'O24202',
    cycleMs: 28_000,
    idleMs: [4_000, 19_000] as [number, number],
    setupMs: [840_000, 1_560_000] as [number, number],
  },
  {
    name: 'O24204',
    cycleMs: 40_000,
    idleMs: [5_000, 24_000] as [number, number],
    setupMs: [180_000, 720_000] as [number, number],
  },
];

describe('planDemoHistory', () => {
  it('reads job changes, stops and parts from the scripts, in order and inside the range', () => {
    const machines = [1, 2, 3].map((seed) => ({
      machineId: `m${seed}`,
      seed,
      profile: { ...DEMO_PLANT_RATES, programs: PROGRAMS },
    }));
    const plans = planDemoHistory(machines, FROM, FROM + 7 * DAY);
    expect(plans.map((p) => p.machineId)).toEqual(['m1', 'm2', 'm3']);
    const names = new Set(PROGRAMS.map((p) => p.name));
    for (const plan of plans) {
      expect(names.has(plan.firstProgram)).toBe(true);
      // A job shop's week: a few job changes, breaks and faults, thousands of parts.
      expect(plan.changes.length).toBeGreaterThanOrEqual(3);
      expect(plan.stops.filter((s) => s.cause === 'break').length).toBeGreaterThanOrEqual(3);
      expect(plan.stops.some((s) => s.cause === 'fault')).toBe(true);
      expect(plan.cycleEnds.length).toBeGreaterThan(3_000);
      let previous = plan.firstProgram;
      let last = FROM;
      for (const c of plan.changes) {
        expect(names.has(c.program)).toBe(true);
        expect(c.program).not.toBe(previous);
        expect(c.start).toBeGreaterThanOrEqual(last);
        expect(c.production).toBeGreaterThan(c.start);
        previous = c.program;
        last = c.production;
      }
      for (const s of plan.stops) expect(s.end).toBeGreaterThan(s.start);
      expect(plan.cycleEnds).toEqual([...plan.cycleEnds].sort((a, b) => a - b));
      expect(plan.cycleEnds.at(-1)).toBeLessThan(FROM + 7 * DAY);
    }
    // The same seeds, the same past.
    expect(planDemoHistory(machines.slice(0, 1), FROM, FROM + DAY)).toEqual(
      planDemoHistory(machines.slice(0, 1), FROM, FROM + DAY),
    );
  });
});
