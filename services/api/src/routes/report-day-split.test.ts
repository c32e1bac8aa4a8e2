import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { companyDayRange, shopDateOf, splitAtDays, epochMs } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { loadCompanyClock } from '@takt/db/rollups';
import { machineFigures } from '../testing/report-figures';
import { aDowntimeReason, anAnnotation, MIN } from '../testing/downtime-builders';
import { aMachineWithFacts, apiPerTest, aReportTenant, generatedFacts } from '../testing/report-plant';

// Decision 1125: a day-or-coarser report on any range reads the whole company days of its range from the
// week and day rows and only the partial days at its edges from the hourly rows (their cut buckets from the
// facts). Property: for random ranges (edges mid-hour, mid-day, on day starts, across the end of DST and
// across week boundaries; day start 06:00, time zone America/Chicago) and day, week and month cells, the
// OEE, utilization and production figures of a machine read that way equal those of a machine with the
// same facts built wholly from the facts. Both dialects.

const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** The company day starts at 06:00 local time. */
const DAY_START = 6 * HOUR;
/** Local wall time in America/Chicago: CDT (UTC−5) up to 2025-11-02 02:00, CST (UTC−6) after. */
const at = (month: number, day: number, h: number, m = 0) =>
  Date.UTC(2025, month - 1, day, h + (month < 11 || (month === 11 && day < 2) ? 5 : 6), m);
/** Facts from Thursday 2025-10-23 06:00 local to now, Wednesday 2025-11-12 14:37:12.345 (DST ends on the 2nd). */
const T0 = at(10, 23, 6);
const NOW = at(11, 12, 14, 37) + 12_345;
/** Day 13:00–21:00 and Swing 21:00–05:00 after the 06:00 day start. */
const SHIFTS = [['Day', 420, 900] as const, ['Swing', 900, 1380] as const];

/** 300 state changes (one in five UNAVAILABLE), 600 cycles and 8 corrections over the three weeks. */
const STATES = ['ACTIVE', 'ACTIVE', 'INACTIVE', 'FAULT', 'UNAVAILABLE'];
const FACTS = generatedFacts({
  t0: T0,
  now: NOW,
  cuts: 300,
  cycles: 600,
  corrections: 8,
  states: STATES,
  seed: 1125,
});

/** Company-day starts (06:00 local) on the way, and the instants around the end of DST. */
const DAY_STARTS = [
  ...Array.from({ length: 9 }, (_, i) => at(10, 23 + i, 6)),
  ...Array.from({ length: 12 }, (_, i) => at(11, 1 + i, 6)),
];
const instant = fc.oneof(
  fc.integer({ min: T0, max: NOW }),
  fc.integer({ min: 0, max: Math.floor((NOW - T0) / HOUR) }).map((h) => T0 + h * HOUR),
  fc.constantFrom(...DAY_STARTS),
  fc.constantFrom(at(11, 1, 10, 17), at(11, 2, 1, 30), at(11, 2, 3), at(11, 3, 5, 59), at(11, 10, 6), NOW),
);
const case_ = fc
  .record({ x: instant, y: instant, interval: fc.constantFrom('day', 'week', 'month') })
  .filter(({ x, y }) => Math.abs(x - y) > MIN)
  .map(({ x, y, interval }) => ({ a: Math.min(x, y), b: Math.max(x, y), interval }));

describe.each(DIALECTS)('whole days from day and week rows, edges from hourly rows on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  /** The figures of one machine over [start, end) by `interval`, every cell and shift. */
  const figures = (cookie: string, machineId: string, start: number, end: number, interval: string) =>
    machineFigures(
      api.h,
      cookie,
      { machineId, start, end, interval },
      {
        data: ['oee', 'availability', 'performance', 'quality', 'allTime', 'timeInCycle', 'timeInCut'],
        groupBys: [['interval', 'shift'], ['shift']],
      },
    );

  /** Two machines with the same facts, recomputed up to now; `facts` then has no stored rows at all. */
  async function plant() {
    const { company, cookie, scope, recompute } = await aReportTenant(api.h, SHIFTS, {
      dayStartMs: DAY_START,
    });
    const brk = await aDowntimeReason(api.h.t.db, company, { name: 'Break', plannedBehavior: 'planned' });
    const jam = await aDowntimeReason(api.h.t.db, company, { name: 'Jam', plannedBehavior: 'unplanned' });
    const ids: string[] = [];
    for (const name of ['Stored', 'Facts']) {
      const m = await aMachineWithFacts(api.h, company, name, T0, FACTS);
      ids.push(m.id);
      for (const [k, d] of m.downtime.entries())
        if (k % 3 === 0)
          await anAnnotation(api.h.t.db, company, { machineId: m.id, ...d, typeId: k % 2 ? brk.id : jam.id });
    }
    const [stored, facts] = ids as [string, string];
    await recompute(ids, { from: T0 - DAY, to: NOW, now: NOW });
    await api.h.t.db.deleteFrom('rollup_dirty').execute();
    for (const t of ['rollups', 'rollup_days', 'rollup_weeks'] as const)
      await scope.deleteFrom(t).where('machine_id', '=', facts).execute();
    const clock = await loadCompanyClock(api.h.t.db, company.id);
    return { cookie, scope, stored, facts, clock };
  }

  it('a machine read from week, day and hourly rows = the same facts built from the facts (property)', async () => {
    const p = await plant();
    await fc.assert(
      fc.asyncProperty(case_, async ({ a, b, interval }) => {
        const [stored, facts] = await Promise.all([
          figures(p.cookie, p.stored, a, b, interval),
          figures(p.cookie, p.facts, a, b, interval),
        ]);
        expect(stored).toEqual(facts);
      }),
      {
        numRuns: 10,
        seed: 1125,
        examples: [
          // Monday 10:17 before the end of DST to Wednesday mid-hour after it: weeks, days and both edges.
          [{ a: at(10, 27, 10, 17), b: at(11, 12, 9, 41) + 123, interval: 'week' }],
          [{ a: at(11, 1, 10, 17), b: NOW, interval: 'day' }],
          [{ a: at(10, 23, 6), b: at(11, 10, 6), interval: 'month' }],
        ],
      },
    );
  });

  it('the whole days are read from the day and week rows and the partial days from the hourly rows', async () => {
    const p = await plant();
    const a = at(10, 27, 10, 17);
    const b = at(11, 12, 9, 41) + 123;
    const split = splitAtDays(p.clock, { start: a, end: b });
    expect(split.days).toEqual({ start: at(10, 28, 6), end: at(11, 12, 6) });
    // The stored machine's hourly rows of the whole days go, and so do its facts of the partial days after
    // the first cut hour and before the last one: a read that summed the hourly rows of the whole days, or
    // built the partial days from the facts, would lose those parts and that time.
    await p.scope
      .deleteFrom('rollups')
      .where('machine_id', '=', p.stored)
      .where('start_at', '>=', split.days!.start)
      .where('start_at', '<', split.days!.end)
      .execute();
    for (const [from, to] of [
      [at(10, 27, 11), split.days!.start],
      [split.days!.end, at(11, 12, 9)],
    ] as const) {
      await p.scope
        .deleteFrom('cycles')
        .where('machine_id', '=', p.stored)
        .where('end_at', '>=', from)
        .where('end_at', '<', to)
        .execute();
      // Only intervals wholly after the first cut bucket and before the last one (those are built from the facts).
      await p.scope
        .updateTable('state_intervals')
        .set({ state: 'FAULT' })
        .where('machine_id', '=', p.stored)
        .where('start_at', '>=', from)
        .where('start_at', '<', to)
        .where('end_at', '<=', at(11, 12, 9))
        .execute();
    }
    for (const interval of ['day', 'week', 'month']) {
      const [stored, facts] = await Promise.all([
        figures(p.cookie, p.stored, a, b, interval),
        figures(p.cookie, p.facts, a, b, interval),
      ]);
      expect(stored).toEqual(facts);
    }
    // The first week's cell starts at the range's start, mid-day, and ends at the next Monday's 06:00.
    const week = await figures(p.cookie, p.stored, a, b, 'week');
    expect(week.utilization.length).toBe(3);
    const monday = companyDayRange(p.clock, shopDateOf(p.clock, epochMs(at(11, 3, 12)))).start;
    expect(monday).toBe(at(11, 3, 6));
  });
});
