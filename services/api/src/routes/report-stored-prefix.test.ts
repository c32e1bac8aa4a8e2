import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DIALECTS } from '@takt/db/testing';
import { machineFigures } from '../testing/report-figures';
import { aDowntimeReason, anAnnotation, MIN } from '../testing/downtime-builders';
import {
  aMachineWithFacts,
  anAdjustmentRow,
  apiPerTest,
  aReportTenant,
  generatedFacts,
  someCycles,
} from '../testing/report-plant';

// Decision 1067: a machine with a pending dirty mark is read from its stored rows before the mark and built
// from the facts only from there to the range's end. Property: for random marks and ranges (hourly rows
// and, for day-aligned ranges, day rows), the figures equal those of the same facts built wholly from the
// facts, while the stored rows after the mark are stale (the facts there changed after the recompute).
// Both dialects.

const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Local time (America/Chicago, CST = UTC−6) on Tuesday 2025-11-04. */
const at = (h: number, m = 0, ms = 0) => Date.UTC(2025, 10, 4, h + 6, m) + ms;
/** The machines' facts start yesterday at 11:00; now is 16:37:12.345 today. */
const T0 = at(11) - DAY;
const NOW = at(16, 37, 12_345);
const SHIFTS = [
  ['Day', 360, 870],
  ['Swing', 870, 1320],
] as const;

const FACTS = generatedFacts({
  t0: T0,
  now: NOW,
  cuts: 40,
  cycles: 80,
  corrections: 4,
  states: ['ACTIVE', 'ACTIVE', 'INACTIVE', 'FAULT'],
  seed: 67,
});

const instant = fc.oneof(
  fc.integer({ min: T0, max: NOW }),
  fc.integer({ min: 0, max: Math.floor((NOW - T0) / HOUR) }).map((h) => T0 + h * HOUR),
  fc.constantFrom(at(0), at(14, 30), NOW),
);
/** A range [a, b) and a dirty mark anywhere from before a to after b. */
const case_ = fc
  .tuple(instant, instant, fc.integer({ min: T0 - HOUR, max: NOW }))
  .filter(([x, y]) => x !== y)
  .map(([x, y, mark]) => ({ a: Math.min(x, y), b: Math.max(x, y), mark }));

describe.each(DIALECTS)('stored prefix and fresh tail on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  /** The additive figures of one machine over [start, end) by `interval`. */
  const figures = (cookie: string, machineId: string, start: number, end: number, interval: string) =>
    machineFigures(
      api.h,
      cookie,
      { machineId, start, end, interval },
      { data: ['allTime', 'timeInCycle', 'performance', 'quality'], groupBys: [['shift']] },
    );

  /**
   * Two machines with the same facts, both recomputed up to now; then the facts from `mark` on change on
   * both (states there turn FAULT, more cycles and a correction): `stored` is marked dirty from `mark`,
   * `facts` has its rows removed, so it is built from the facts on every call.
   */
  async function plant(mark: number) {
    const { company, cookie, scope, recompute } = await aReportTenant(api.h, SHIFTS);
    const brk = await aDowntimeReason(api.h.t.db, company, { name: 'Break', plannedBehavior: 'planned' });
    const ids: string[] = [];
    for (const name of ['Stored', 'Facts']) {
      const m = await aMachineWithFacts(api.h, company, name, T0, FACTS);
      ids.push(m.id);
      await anAnnotation(api.h.t.db, company, { machineId: m.id, ...m.downtime[0]!, typeId: brk.id });
    }
    const [stored, facts] = ids as [string, string];
    await recompute(ids, { from: T0 - DAY, to: NOW, now: NOW });
    await api.h.t.db.deleteFrom('rollup_dirty').execute();
    // The facts change from the mark on (after the recompute): the stored rows there are stale.
    await scope
      .updateTable('state_intervals')
      .set({ state: 'FAULT' })
      .where('machine_id', 'in', ids)
      .where('start_at', '>=', mark)
      .execute();
    const late = [mark + 30_000, mark + 95_000, mark + 40 * MIN].filter((t) => t < NOW);
    for (const m of ids) {
      await someCycles(
        scope,
        m,
        late.map((end) => ({ start: end - 1_000, end })),
      );
      await scope.insertInto('part_adjustments', [anAdjustmentRow(m, mark, { count: 2 })]).execute();
    }
    await scope.deleteFrom('rollups').where('machine_id', '=', facts).execute();
    await scope.deleteFrom('rollup_days').where('machine_id', '=', facts).execute();
    await scope.deleteFrom('rollup_weeks').where('machine_id', '=', facts).execute();
    await api.h.t.db
      .insertInto('rollup_dirty')
      .values({ machine_id: stored, company_id: company.id, from_at: mark, marked_at: NOW })
      .execute();
    return { cookie, stored, facts };
  }

  it('stored rows before the mark plus the facts after it = all from the facts (property)', async () => {
    await fc.assert(
      fc.asyncProperty(case_, async ({ a, b, mark }) => {
        const p = await plant(mark);
        const [hourStored, hourFacts] = await Promise.all([
          figures(p.cookie, p.stored, a, b, 'hour'),
          figures(p.cookie, p.facts, a, b, 'hour'),
        ]);
        expect(hourStored).toEqual(hourFacts);
        // A day-aligned range (day rows, decision 0804) over yesterday and today.
        const [dayStored, dayFacts] = await Promise.all([
          figures(p.cookie, p.stored, at(0) - DAY, at(0) + DAY, 'day'),
          figures(p.cookie, p.facts, at(0) - DAY, at(0) + DAY, 'day'),
        ]);
        expect(dayStored).toEqual(dayFacts);
      }),
      { numRuns: 6, seed: 1067, examples: [[{ a: at(0) - DAY, b: NOW, mark: at(16, 20) }]] },
    );
  });
  it('the rows before the mark are read stored, not rebuilt: facts removed there after the recompute do not change the figures', async () => {
    const p = await plant(at(16, 20));
    // The stored machine's cycles before the mark's hour go after its rows were computed (no mark for them):
    // a report that rebuilt the range (or, by day, today) from the facts would lose their parts and ideal time.
    await api.h.t.db
      .deleteFrom('cycles')
      .where('machine_id', '=', p.stored)
      .where('end_at', '<', at(16))
      .execute();
    for (const [start, end, interval] of [
      [at(0) - DAY, NOW, 'hour'],
      [at(0) - DAY, at(0) + DAY, 'day'],
    ] as const) {
      const [stored, facts] = await Promise.all([
        figures(p.cookie, p.stored, start, end, interval),
        figures(p.cookie, p.facts, start, end, interval),
      ]);
      expect(stored).toEqual(facts);
    }
  });
});
