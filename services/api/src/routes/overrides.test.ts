import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope, runRawRetention } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { createAdapter } from '../repositories/adapters';
import type { Company } from '../repositories/company';
import { createMachine } from '../repositories/machines';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';

interface Overrides {
  range: { start: number; end: number };
  until: number;
  series: Array<{
    key: string;
    label: string;
    dataItemType: string;
    steps: Array<{ t: number; value: number | null }>;
    summary: {
      min: number | null;
      max: number | null;
      mean: number | null;
      belowMs: number;
      aboveMs: number;
    };
  }>;
}

const MIN = 60_000;
const HOUR = 60 * MIN;

// reports-admin §2 "Overrides report: step charts" over GET /api/reports/overrides (decision 0807).
describe.each(DIALECTS)('overrides report on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /** A mill whose adapter maps a feed, a rapid and a spindle override, and one other field. */
  async function mill(company: Company) {
    const scope = companyScope(h.t.db, company.id);
    const path = { componentName: 'path', componentType: 'Path' };
    const adapterId = await createAdapter(
      scope,
      {
        name: 'Okuma',
        fields: [
          { name: 'pFovr', dataItemType: 'PATH_FEEDRATE_OVERRIDE', dataItemSubtype: 'PROGRAMMED', ...path },
          { name: 'pRovr', dataItemType: 'PATH_FEEDRATE_OVERRIDE', dataItemSubtype: 'RAPID', ...path },
          { name: 'S1ovr', dataItemType: 'ROTARY_VELOCITY_OVERRIDE', ...path },
          { name: 'exec', dataItemType: 'EXECUTION', ...path },
        ],
      },
      1,
    );
    return createMachine(scope, { name: 'Mill 1', adapterId }, 1);
  }

  const observe = (company: Company, machineId: string, rows: Array<[number, string, string | null]>) =>
    h.t.db
      .insertInto('observations')
      .values(
        rows.map(([ts, key, value]) => ({ company_id: company.id, machine_id: machineId, ts, key, value })),
      )
      .execute();

  const overrides = (cookie: string, machineId: string, start: number, end: number) =>
    h.get(`/api/reports/overrides?machineId=${machineId}&start=${start}&end=${end}`, cookie);

  it('gives each override field its steps, starting with the value in force, and their summary', async () => {
    const { company, cookie } = await h.tenant();
    const m = await mill(company);
    const start = h.clock.now - 4 * HOUR;
    const end = h.clock.now - 2 * HOUR;
    await observe(company, m, [
      [start - 3 * HOUR, 'pFovr', '100'], // in force at the start
      [start - 25 * HOUR, 'S1ovr', '90'], // beyond the 24 h look-back: not known
      [start + 10 * MIN, 'pFovr', '80'],
      [start + 20 * MIN, 'pFovr', '80'],
      [start + 30 * MIN, 'exec', 'ACTIVE'],
      [start + 40 * MIN, 'pFovr', 'UNAVAILABLE'],
      [start + 60 * MIN, 'pFovr', '120'],
      [start + 90 * MIN, 'S1ovr', '50'],
      [end, 'pFovr', '10'], // after the range
    ]);
    const other = await aMachine(h.t.db, company);
    await observe(company, other, [[start + 5 * MIN, 'pFovr', '5']]);

    const res = await overrides(cookie, m, start, end);
    expect(res.status).toBe(200);
    const r = (await res.json()) as Overrides;
    expect(r.series.map((s) => [s.key, s.label])).toEqual([
      ['S1ovr', 'Spindle override (S1ovr)'],
      ['pFovr', 'Feed override (pFovr)'],
      ['pRovr', 'Rapid override (pRovr)'],
    ]);
    const [spindle, feed, rapid] = r.series;
    expect(feed!.steps).toEqual([
      { t: start, value: 100 },
      { t: start + 10 * MIN, value: 80 },
      { t: start + 40 * MIN, value: null },
      { t: start + 60 * MIN, value: 120 },
    ]);
    // 100 % for 10 min, 80 % for 30 min, unavailable 20 min, 120 % for 60 min.
    expect(feed!.summary).toMatchObject({
      min: 80,
      max: 120,
      mean: (100 * 10 + 80 * 30 + 120 * 60) / 100,
      belowMs: 30 * MIN,
      aboveMs: 60 * MIN,
    });
    expect(spindle!.steps).toEqual([{ t: start + 90 * MIN, value: 50 }]);
    expect(rapid!.steps).toEqual([]);
    expect(rapid!.summary.mean).toBeNull();
  });

  it('starts with the value in force from the kept seed when raw retention removed its row (decision 1132)', async () => {
    const { company, cookie } = await h.tenant();
    const m = await mill(company);
    const floor = Math.floor((h.clock.now - 24 * HOUR) / (24 * HOUR)) * 24 * HOUR;
    await observe(company, m, [[floor - 2 * HOUR, 'pFovr', '100']]);
    expect((await runRawRetention(h.t.db, 1, h.clock.now)).floor).toBe(floor);
    const r = (await (await overrides(cookie, m, floor + HOUR, floor + 2 * HOUR)).json()) as Overrides;
    expect(r.series.find((s) => s.key === 'pFovr')!.steps).toEqual([{ t: floor + HOUR, value: 100 }]);
  });

  it('shows the steps of a range before the raw floor from the changes kept when the rows went (decision 1150)', async () => {
    const { company, cookie } = await h.tenant();
    const m = await mill(company);
    const floor = Math.floor((h.clock.now - 24 * HOUR) / (24 * HOUR)) * 24 * HOUR;
    await observe(company, m, [
      [floor - 7 * HOUR, 'S1ovr', '95'], // in force when the second range starts
      [floor - 5 * HOUR, 'pFovr', '100'],
      [floor - 4 * HOUR, 'pFovr', '80'],
      [floor - 3 * HOUR, 'pFovr', '80'], // a repeat: no step
      [floor - 2 * HOUR, 'pFovr', '120'],
      [floor - 2 * HOUR, 'exec', 'ACTIVE'], // not an override: not kept
      [floor + HOUR, 'pFovr', '90'], // after the floor: stays raw
    ]);
    expect((await runRawRetention(h.t.db, 1, h.clock.now)).floor).toBe(floor);
    const left = await h.t.db
      .selectFrom('observations')
      .select(['key', 'ts'])
      .where('machine_id', '=', m)
      .execute();
    expect(left).toEqual([{ key: 'pFovr', ts: floor + HOUR }]);

    const before = (await (await overrides(cookie, m, floor - 6 * HOUR, floor - HOUR)).json()) as Overrides;
    expect(before.series.find((s) => s.key === 'pFovr')!.steps).toEqual([
      { t: floor - 5 * HOUR, value: 100 },
      { t: floor - 4 * HOUR, value: 80 },
      { t: floor - 2 * HOUR, value: 120 },
    ]);
    expect(before.series.find((s) => s.key === 'S1ovr')!.steps).toEqual([{ t: floor - 6 * HOUR, value: 95 }]);

    // Across the floor: the kept changes, then the raw rows.
    const across = (await (
      await overrides(cookie, m, floor - 3 * HOUR, floor + 2 * HOUR)
    ).json()) as Overrides;
    expect(across.series.find((s) => s.key === 'pFovr')!.steps).toEqual([
      { t: floor - 3 * HOUR, value: 80 },
      { t: floor - 2 * HOUR, value: 120 },
      { t: floor + HOUR, value: 90 },
    ]);
  });

  it('ends the last step at now when the range reaches into the future', async () => {
    const { company, cookie } = await h.tenant();
    const m = await mill(company);
    const start = h.clock.now - HOUR;
    await observe(company, m, [[start + MIN, 'pFovr', '70']]);
    const r = (await (await overrides(cookie, m, start, start + 3 * HOUR)).json()) as Overrides;
    expect(r.until).toBe(h.clock.now);
    expect(r.series.find((s) => s.key === 'pFovr')!.summary.belowMs).toBe(59 * MIN);
  });

  it('answers 400 with the spec texts for a bad range, 404 for another company’s machine', async () => {
    const { company, cookie } = await h.tenant();
    const m = await mill(company);
    const t = h.clock.now;
    const backwards = await overrides(cookie, m, t, t - HOUR);
    expect(backwards.status).toBe(400);
    expect(await backwards.text()).toContain('Start Date must be before End Date');
    const long = await overrides(cookie, m, t - 8 * 24 * HOUR, t);
    expect(long.status).toBe(400);
    expect(await long.text()).toContain('Select up to 7 days');
    const missing = await h.get(`/api/reports/overrides?start=${t - HOUR}&end=${t}`, cookie);
    expect(missing.status).toBe(400);

    const stranger = await h.tenant();
    expect((await overrides(stranger.cookie, m, t - HOUR, t)).status).toBe(404);
  });
});
