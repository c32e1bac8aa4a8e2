import { describe, expect, it } from 'vitest';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { createAdapter } from '../../services/api/src/repositories/adapters';
import { MIN, someStates } from '../../services/api/src/testing/downtime-builders';
import { aJobWithRun, recomputeMachines, someCycles } from '../../services/api/src/testing/report-plant';
import { anOfficePlant, officeSession, ON_SQLITE, POLL, tableRows } from './office-harness';
import type { Span } from './office-harness';

// The Parts report (reports-admin §2 "Parts report": /dashboard/parts and /machine/{id}/parts, at most 7
// days, CSV via /api/reports/partGoals), the Overrides report (/machine/{id}/overrides step charts; decision
// 0807) and the Cycles report's row actions (Go to Timeline, Reject Part, Correct Part) in Chromium, on SQLite
// and PostgreSQL. Screenshots at desk and phone widths go to test-results/office-parts/ (gitignored).

// The plant, America/Chicago, last week (weekday 0 = Monday): only the Lathe runs, Tuesday 06:00–07:00, six
// cycles of 10 min, one part each, under job Flange (expected 10 min) scheduled 06:00–08:00 without setup:
// the goal is 120 min / 10 min = 12 parts, so the Lathe made 6 of 12 (50 %, 6 behind); Mill and Press made
// nothing and had no job run, so no goal.
// The Lathe's adapter maps a feed override (pFovr) and a spindle override (S1ovr); Tuesday the operator set
// the feed to 100 % at 06:00, 80 % at 06:30 and back to 100 % at 07:00; the spindle override never reported.

interface Plant {
  email: string;
  password: string;
  lathe: string;
  tuesday: Span;
}

async function seedPlant(db: Kysely<Database>, range: Span, now: number): Promise<Plant> {
  const { company, user, lathe, mill, press, at, scope } = await anOfficePlant(db, range);
  await someStates(db, company, lathe, [
    [range.start, at(1, 6), 'INACTIVE'],
    [at(1, 6), at(1, 7), 'ACTIVE'],
    [at(1, 7), range.end, 'INACTIVE'],
  ]);
  await someStates(db, company, mill, [[range.start, range.end, 'INACTIVE']]);
  await someStates(db, company, press, [[range.start, range.end, 'INACTIVE']]);
  await aJobWithRun(scope, {
    machineId: lathe,
    name: 'Flange',
    expected: 10 * MIN,
    ideal: 8 * MIN,
    jobCreatedAt: range.start,
    start: at(1, 6),
    end: at(1, 8),
  });
  await someCycles(
    scope,
    lathe,
    [0, 1, 2, 3, 4, 5].map((k) => ({ start: at(1, 6, k * 10), end: at(1, 6, (k + 1) * 10) })),
  );
  const path = { componentName: 'path', componentType: 'Path' };
  const adapterId = await createAdapter(
    scope,
    {
      name: 'Lathe adapter',
      fields: [
        { name: 'pFovr', dataItemType: 'PATH_FEEDRATE_OVERRIDE', dataItemSubtype: 'PROGRAMMED', ...path },
        { name: 'S1ovr', dataItemType: 'ROTARY_VELOCITY_OVERRIDE', ...path },
      ],
    },
    range.start,
  );
  await db.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', lathe).execute();
  await db
    .insertInto('observations')
    .values(
      (
        [
          [at(1, 6), '100'],
          [at(1, 6, 30), '80'],
          [at(1, 7), '100'],
        ] as const
      ).map(([ts, value]) => ({ company_id: company.id, machine_id: lathe, ts, key: 'pFovr', value })),
    )
    .execute();
  await recomputeMachines(db, company, [lathe, mill, press], { from: range.start, to: range.end, now });
  return { email: user.email, password: user.password, lathe, tuesday: { start: at(1, 0), end: at(2, 0) } };
}

describe.each(ON_SQLITE)('the Parts and Overrides reports in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-parts', seedPlant);

  it('opens the Parts report from /app/reports and shows each machine against its goal', async () => {
    const { page } = office;
    await office.openFromReports(/^Parts Report/);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/parts');
    await office.applyLastWeek();
    await office.settled();
    const machines = office.section('Machines').getByRole('table');
    await expect
      .poll(() => tableRows(machines), POLL)
      .toEqual([
        ['Lathe', '6', '12', '50 %', '−6'],
        ['Mill', '0', '-', '-', ''],
        ['Press', '0', '-', '-', ''],
      ]);
    const tiles = page.getByRole('region', { name: 'Parts for the range' });
    await expect.poll(() => tiles.textContent(), POLL).toContain('Good parts6');
    await expect.poll(() => tiles.textContent(), POLL).toContain('Percent of goal50 %');
    await office.screenshots('parts-report');

    // The CSV: one row per machine and day, the same parts and goal (reports-admin §2, §7).
    const csv = await office.downloadCsv(
      office.section('Machines').getByRole('link', { name: 'Download CSV' }),
      /^\/api\/reports\/partGoals\?.*format=csv&token=/,
    );
    expect(csv[0]).toEqual(['Machine', 'Start', 'End', 'Parts', 'Goal']);
    const lathe = csv.slice(1).filter((r) => r[0] === 'Lathe');
    expect(lathe).toHaveLength(7);
    expect(lathe.reduce((t, r) => t + Number(r[3]), 0)).toBe(6);
    expect(lathe.reduce((t, r) => t + Number(r[4] || 0), 0)).toBe(12);
  }, 120_000);

  it("opens the Lathe's own Parts report from the list, with the way back", async () => {
    const { page, plant } = office;
    await office.section('Machines').getByRole('link', { name: 'Lathe' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/machine/${plant.lathe}/parts`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Parts Report for Lathe');
    await office.settled();
    await expect
      .poll(() => tableRows(office.section('Machines').getByRole('table')), POLL)
      .toEqual([['Lathe', '6', '12', '50 %', '−6']]);
    await page.getByRole('button', { name: 'Return to the Parts Report for all machines' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/parts');
  }, 60_000);

  it("charts the Lathe's overrides on Tuesday: 30 minutes at 80 % feed, the spindle never reported", async () => {
    const { page, plant, product } = office;
    const { start, end } = plant.tuesday;
    await page.goto(`${product.url}/machine/${plant.lathe}/overrides?interval=day&start=${start}&end=${end}`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Overrides Report for Lathe');
    await office.settled();
    // Feed known from 06:00 to midnight (18 h): (100 × 17.5 h + 80 × 0.5 h) / 18 h = 99.4 %.
    await expect
      .poll(() => tableRows(office.section('Override summary for the range').getByRole('table')), POLL)
      .toEqual([
        ['Spindle override (S1ovr)', '-', '-', '-', '-'],
        ['Feed override (pFovr)', '99 %', '80 % – 100 %', '0.5', '0.0'],
      ]);
    await expect(
      page.getByRole('img', { name: 'Override settings over time, in percent' }).count(),
    ).resolves.toBe(1);
    await office.screenshots('overrides-report');
  }, 60_000);

  it("opens the Lathe's utilization at /machine/{id}/utilization as the Utilization report drilled into it", async () => {
    const { page, plant, product } = office;
    const { start, end } = plant.tuesday;
    await page.goto(
      `${product.url}/machine/${plant.lathe}/utilization?interval=day&start=${start}&end=${end}`,
    );
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/utilization');
    const q = new URL(page.url()).searchParams;
    expect([q.get('machine'), q.get('start'), q.get('end')]).toEqual([
      plant.lathe,
      String(start),
      String(end),
    ]);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Utilization Report for Lathe');
  }, 60_000);

  it("gives each of the Lathe's cycles its row actions: timeline around it, Reject Part and Correct Part", async () => {
    const { page, plant, product } = office;
    const { start, end } = plant.tuesday;
    await page.goto(`${product.url}/machine/${plant.lathe}/cycles?interval=day&start=${start}&end=${end}`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Cycles Report for Lathe');
    await office.settled();
    const grid = office.section('Cycles').getByRole('table');
    await expect.poll(() => grid.locator('tbody tr').count(), POLL).toBe(6);
    const first = grid.locator('tbody tr').first();
    const cycleEnd = start + 6 * 60 * MIN + 10 * MIN;
    const href = async (name: string) =>
      new URL((await first.getByRole('link', { name }).getAttribute('href'))!, product.url);
    const timeline = await href('Go to Timeline');
    expect(timeline.pathname).toBe(`/machine/${plant.lathe}/timeline`);
    // An hour either side of the cycle (06:00–06:10).
    expect(Number(timeline.searchParams.get('start'))).toBe(cycleEnd - 10 * MIN - 60 * MIN);
    expect(Number(timeline.searchParams.get('end'))).toBe(cycleEnd + 60 * MIN);
    const reject = await href('Reject Part');
    expect(reject.pathname).toBe(`/machine/${plant.lathe}/quality`);
    expect(Object.fromEntries(reject.searchParams)).toMatchObject({
      adjustmenttime: String(cycleEnd),
      qty: '1',
      start: String(start),
      end: String(end),
    });
    expect((await href('Correct Part')).pathname).toBe(`/app/machines/${plant.lathe}/part-corrections`);
    await first.getByRole('link', { name: 'Reject Part' }).click();
    await expect.poll(() => page.getByRole('dialog').count(), POLL).toBe(1);
  }, 60_000);
});
