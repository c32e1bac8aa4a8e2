import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WaterfallStep } from '../schemas/production-report';
import type { EfficiencyTotals } from './oee';
import { efficiency, emptyTotals } from './oee';
import { oeeWaterfall } from './waterfall';

const MIN = 60_000;

/** The contract (schemas/production-report.ts WaterfallStep): each level is the previous minus its losses. */
function checkAddsUp(steps: readonly WaterfallStep[]): void {
  let level: number | null = null;
  let pending = 0;
  for (const s of steps) {
    if (s.kind === 'loss') {
      pending += s.ms;
      continue;
    }
    if (level !== null) expect(s.ms, s.key).toBe(level - pending);
    level = s.ms;
    pending = 0;
  }
}

const ms = (steps: readonly WaterfallStep[], key: WaterfallStep['key']) =>
  steps.filter((s) => s.key === key).reduce((t, s) => t + s.ms, 0);

describe('oeeWaterfall', () => {
  it('reproduces the oee.com worked example (METRICS.md §7) for a day that holds only that shift', () => {
    // 480 min shift, 60 min planned breaks, 47 min unplanned, run 373 min, ideal 19,271 s, 423 of 19,271 rejected.
    const totals: EfficiencyTotals = {
      ...emptyTotals(),
      allTimeMs: 1440 * MIN,
      shiftTimeMs: 480 * MIN,
      plannedDowntimeMs: 60 * MIN,
      runTimeMs: 373 * MIN,
      idealTimeMs: 19_271_000,
      standardRunTimeMs: 373 * MIN,
      totalParts: 19_271,
      rejectedParts: 423,
    };
    const steps = oeeWaterfall({
      totals,
      downtimeByReason: {
        break: { plannedMs: 30 * MIN, unplannedMs: 0 },
        meal: { plannedMs: 30 * MIN, unplannedMs: 0 },
        jam: { plannedMs: 0, unplannedMs: 40 * MIN },
        uncategorized: { plannedMs: 0, unplannedMs: 7 * MIN },
      },
      reasonNames: new Map([
        ['break', 'Break'],
        ['meal', 'Meal'],
        ['jam', 'Jam'],
      ]),
    });
    expect(steps.map((s) => [s.key, s.ms, s.reasonName ?? null])).toEqual([
      ['allTime', 1440 * MIN, null],
      ['outsideShift', 960 * MIN, null],
      ['shiftTime', 480 * MIN, null],
      ['plannedDowntime', 30 * MIN, 'Break'],
      ['plannedDowntime', 30 * MIN, 'Meal'],
      ['plannedProductionTime', 420 * MIN, null],
      ['availabilityLoss', 40 * MIN, 'Jam'],
      ['availabilityLoss', 7 * MIN, 'Uncategorized'],
      ['runTime', 373 * MIN, null],
      // 22,380 s run − 19,271 s ideal
      ['performanceLoss', 3_109_000, null],
      // 19,271 s × 423 / 19,271 = 423 s
      ['qualityLoss', 423_000, null],
      ['fullyProductiveTime', 18_848_000, null],
    ]);
    checkAddsUp(steps);
    // 18,848 s / 25,200 s = 74.79 %
    expect(ms(steps, 'fullyProductiveTime') / ms(steps, 'plannedProductionTime')).toBeCloseTo(0.7479, 4);
    expect(steps.find((s) => s.key === 'availabilityLoss')?.link).toEqual({
      report: 'downtime',
      reasonId: 'jam',
    });
    expect(steps.find((s) => s.key === 'qualityLoss')?.link).toEqual({ report: 'quality' });
  });

  it('puts shift time the reasons do not explain (no machine data) under No data, apart from Uncategorized', () => {
    const steps = oeeWaterfall({
      totals: { ...emptyTotals(), allTimeMs: 100, shiftTimeMs: 100, runTimeMs: 30, idealTimeMs: 30 },
      downtimeByReason: {
        setup: { plannedMs: 0, unplannedMs: 20 },
        uncategorized: { plannedMs: 0, unplannedMs: 10 },
      },
    });
    const losses = steps.filter((s) => s.key === 'availabilityLoss');
    expect(losses.map((s) => [s.reasonId, s.ms, s.reasonName])).toEqual([
      ['nodata', 40, 'No data'],
      ['setup', 20, 'Setup'],
      ['uncategorized', 10, 'Uncategorized'],
    ]);
    checkAddsUp(steps);
  });

  it('shows performance above 1 as a negative loss, and nothing to lose without run time', () => {
    const fast = oeeWaterfall({
      totals: {
        ...emptyTotals(),
        shiftTimeMs: 100,
        allTimeMs: 100,
        runTimeMs: 100,
        idealTimeMs: 150,
        standardRunTimeMs: 100,
      },
      downtimeByReason: {},
    });
    expect(ms(fast, 'performanceLoss')).toBe(-50);
    expect(ms(fast, 'fullyProductiveTime')).toBe(150);
    const idle = oeeWaterfall({
      totals: { ...emptyTotals(), shiftTimeMs: 100, allTimeMs: 100, idealTimeMs: 30, totalParts: 3 },
      downtimeByReason: { uncategorized: { plannedMs: 0, unplannedMs: 100 } },
    });
    expect([ms(idle, 'performanceLoss'), ms(idle, 'qualityLoss'), ms(idle, 'fullyProductiveTime')]).toEqual([
      0, 0, 0,
    ]);
  });

  it('run time without a standard is not slow: P from the standard part, no loss when none has one (decision 1002)', () => {
    const base = { ...emptyTotals(), shiftTimeMs: 100, allTimeMs: 100, runTimeMs: 100 };
    // 40 of 100 run time with a standard, 30 ideal: P 0.75 applies to all run time.
    const mix = oeeWaterfall({
      totals: { ...base, idealTimeMs: 30, standardRunTimeMs: 40 },
      downtimeByReason: {},
    });
    expect([ms(mix, 'performanceLoss'), ms(mix, 'fullyProductiveTime')]).toEqual([25, 75]);
    const none = oeeWaterfall({ totals: base, downtimeByReason: {} });
    expect([ms(none, 'performanceLoss'), ms(none, 'fullyProductiveTime')]).toEqual([0, 100]);
  });

  it('always adds up exactly, and fully productive / planned production time is the OEE (property)', () => {
    const reasonIds = fc.constantFrom('setup', 'uncategorized', 'r1', 'r2', 'r3');
    const input = fc
      .record({
        outside: fc.nat(1e9),
        planned: fc.dictionary(reasonIds, fc.nat(1e7)),
        unplanned: fc.dictionary(reasonIds, fc.nat(1e7)),
        noData: fc.nat(1e7),
        run: fc.nat(1e9),
        // ideal as a share of run time, above 1 allowed (METRICS.md §3)
        idealShare: fc.double({ min: 0, max: 1.5, noNaN: true }),
        // the share of run time with a standard (decision 1002)
        standardShare: fc.constantFrom(0, 0.3, 1),
        total: fc.nat(1e6),
        rejectedShare: fc.double({ min: 0, max: 1, noNaN: true }),
      })
      .map((x) => {
        const plannedMs = Object.values(x.planned).reduce((t, v) => t + v, 0);
        const unplannedMs = Object.values(x.unplanned).reduce((t, v) => t + v, 0);
        const shiftTimeMs = plannedMs + unplannedMs + x.noData + x.run;
        const byReason: Record<string, { plannedMs: number; unplannedMs: number }> = {};
        for (const [id, v] of Object.entries(x.planned)) byReason[id] = { plannedMs: v, unplannedMs: 0 };
        for (const [id, v] of Object.entries(x.unplanned))
          byReason[id] = { plannedMs: byReason[id]?.plannedMs ?? 0, unplannedMs: v };
        const totals: EfficiencyTotals = {
          ...emptyTotals(),
          allTimeMs: shiftTimeMs + x.outside,
          shiftTimeMs,
          plannedDowntimeMs: plannedMs,
          runTimeMs: x.run,
          idealTimeMs: Math.round(x.run * x.standardShare * x.idealShare),
          standardRunTimeMs: Math.round(x.run * x.standardShare),
          totalParts: x.total,
          rejectedParts: Math.round(x.total * x.rejectedShare),
        };
        return { totals, byReason };
      });
    fc.assert(
      fc.property(input, ({ totals, byReason }) => {
        const steps = oeeWaterfall({ totals, downtimeByReason: byReason });
        checkAddsUp(steps);
        expect(ms(steps, 'allTime')).toBe(totals.allTimeMs);
        expect(ms(steps, 'plannedDowntime')).toBe(totals.plannedDowntimeMs);
        const oee = efficiency(totals, { shiftFiltered: false }).oee;
        if (oee !== null) {
          const shown = ms(steps, 'fullyProductiveTime') / ms(steps, 'plannedProductionTime');
          expect(Math.abs(shown - oee)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(oee)));
        }
      }),
      { numRuns: 500 },
    );
  });
});
