import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyMeasures, epochMs } from '@takt/domain';
import type { Rollup } from '@takt/domain';
import { companyScope } from '@takt/db';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { recomputeRollups } from '@takt/db/rollups';
import type { HeldRows } from '@takt/db/rollups';
import { aCompany, aMachine } from '../testing/builders';
import { someStates } from '../testing/downtime-builders';
import { aJobWithRun, someCycles } from '../testing/report-plant';
import { dashboardGoals } from '../services/dashboard-figures';
import { HeldSums } from '../services/held-sums';
import { openRunsOn } from '../repositories/dashboard';

// Decision 1191: the held rows' sums a tile goal takes (decision 1155) are kept between answers. A stored hour that
// changes is seen by the next answer, also when the worker rewrote it at the same instant (a fixed clock); a new
// hour is added to the kept sum; another company's machine of the same id never gets this one's sum.

const MIN = 60_000;
const HOUR = 60 * MIN;
const MON = Date.parse('2024-01-15T00:00:00Z');
const START = MON + 6 * HOUR + 10 * MIN;
const COMPUTED = MON + 10 * HOUR;
const NOW = COMPUTED + 20 * MIN;

describe.each(DIALECTS)('held sums kept between tile answers on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('a changed stored hour is seen at once, a new one is added, and the goal is the one summed afresh', async () => {
    const company = await aCompany(t.db, { timezone: 'UTC' });
    const scope = companyScope(t.db, company.id);
    const id = await aMachine(t.db, company, { name: 'Lathe' });
    await aJobWithRun(scope, {
      machineId: id,
      name: 'Job',
      expected: MIN,
      ideal: MIN,
      jobCreatedAt: START,
      start: START,
      setupEnd: START + 5 * MIN,
      end: null,
    });
    await someStates(t.db, company, id, [
      [START, START + 5 * MIN, 'SETUP'],
      [START + 5 * MIN, null, 'ACTIVE'],
    ]);
    const partsEvery = (from: number, to: number) =>
      Array.from({ length: Math.floor((to - from) / (7 * MIN)) }, (_, k) => from + (k + 1) * 7 * MIN).map(
        (end) => ({ start: end - 5 * MIN, end }),
      );
    await someCycles(scope, id, partsEvery(START, COMPUTED));
    const recompute = async (to: number, now: number) => {
      await recomputeRollups(t.db, { companyId: company.id, machineId: id, from: START, to, now });
      await t.db.deleteFrom('rollup_dirty').execute();
    };
    await recompute(COMPUTED, COMPUTED);
    const runs = await openRunsOn(scope, [id]);
    const sums = new HeldSums();
    const goal = async (now: number) => {
      const kept = (await dashboardGoals(scope, [id], runs, now, undefined, sums)).get(id)!;
      const afresh = (await dashboardGoals(scope, [id], runs, now)).get(id)!;
      expect(kept).toEqual(afresh);
      return kept;
    };

    const first = await goal(NOW);
    expect(sums.size).toEqual({ machines: 1, rows: 3 }); // 07:00–10:00
    // A late part in the stored 08:00 hour, recomputed at the same instant as before (a fixed clock).
    await someCycles(scope, id, [{ start: MON + 8 * HOUR + 3 * MIN, end: MON + 8 * HOUR + 4 * MIN }]);
    await recompute(COMPUTED, COMPUTED);
    const changed = await goal(NOW);
    expect(changed.actualParts).toBe(first.actualParts! + 1);
    // An hour later the worker has stored 10:00–11:00 too: one more row, added to the kept sum.
    await someCycles(scope, id, partsEvery(COMPUTED, COMPUTED + HOUR));
    await recompute(COMPUTED + HOUR, COMPUTED + HOUR);
    const later = await goal(NOW + HOUR);
    expect(sums.size).toEqual({ machines: 1, rows: 4 });
    expect(later.actualParts).toBeGreaterThan(changed.actualParts!);
  });
});

describe('HeldSums', () => {
  const HOUR_MS = HOUR;
  const row = (i: number, parts: number): Rollup => ({
    ...emptyMeasures(),
    parts,
    machineId: 'm',
    start: epochMs(MON + i * HOUR_MS),
    end: epochMs(MON + (i + 1) * HOUR_MS),
    shiftId: null,
  });
  const held = (parts: number[], stamp = (i: number) => `${i}`): HeldRows => ({
    rows: parts.map((p, i) => row(i, p)),
    stamps: { computedAt: parts.map(() => MON), measures: parts.map((_, i) => stamp(i)) },
    from: MON,
    to: MON + parts.length * HOUR_MS,
  });

  it.each([
    ['the same rows', [1, 2], [1, 2], 3],
    ['a row more: added to the kept sum', [1, 2], [1, 2, 4], 7],
    ['a row fewer', [1, 2, 4], [1, 2], 3],
  ])('%s', (_, before, after, parts) => {
    const sums = new HeldSums();
    sums.sumOf('A', 'm', held(before));
    expect(sums.sumOf('A', 'm', held(after)).all.parts).toBe(parts);
  });

  it('a row with another stamp is summed again', () => {
    const sums = new HeldSums();
    sums.sumOf('A', 'm', held([1, 2]));
    expect(
      sums.sumOf(
        'A',
        'm',
        held([5, 2], (i) => (i === 0 ? 'rewritten' : `${i}`)),
      ).all.parts,
    ).toBe(7);
  });

  it("another company's machine of the same id never gets this one's sum, and the kept rows are bounded", () => {
    const sums = new HeldSums(4);
    sums.sumOf('A', 'm', held([1, 2]));
    // The same stamps under company B (its own rows) give B's sum.
    expect(sums.sumOf('B', 'm', held([10, 20, 30])).all.parts).toBe(60);
    expect(sums.sumOf('A', 'm', held([1, 2])).all.parts).toBe(3);
    expect(sums.size.rows).toBeLessThanOrEqual(4);
    // More rows than the bound: summed, not kept.
    expect(sums.sumOf('C', 'm', held([1, 1, 1, 1, 1])).all.parts).toBe(5);
    expect(sums.size.rows).toBeLessThanOrEqual(4);
  });
});
