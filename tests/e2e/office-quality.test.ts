import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { aRejectReason, MIN, someStates } from '../../services/api/src/testing/downtime-builders';
import { aShift } from '../../services/api/src/testing/live-builders';
import {
  aJobWithRun,
  aRejectRow,
  recomputeMachines,
  someCycles,
} from '../../services/api/src/testing/report-plant';
import { anOfficePlant, clickChart, officeSession, ON_POSTGRES, POLL, tableRows } from './office-harness';
import type { Span } from './office-harness';

// The Quality and Cycles reports of the office app (reports-admin §2 "Quality report", "Cycles report", §7
// reject list limit 25, §9 slow cycles; decision 0806) in Chromium, on a plant seeded last week, on SQLite and
// PostgreSQL. A manager opens the Quality report from /app/reports, picks "Last week", reads the top reject
// reason, drills into it, pages its rejects and downloads the same rows as CSV; then opens the Lathe's Cycles
// report from the OEE waterfall's performance step and finds the slow cycle marked. Screenshots at desk and
// phone widths go to test-results/office-quality/ (gitignored).

// The plant, America/Chicago, last week (weekday 0 = Monday), Day shift 06:00–14:00:
// - Rejects: Burr (scrap) one part each, 18 on the Lathe (one of them Tuesday 06:25, in its third cycle) and
//   12 on the Mill; Dent (scrap) 4 × 2 parts on the Mill; Porosity (non-conforming) 3 × 1 on the Press.
//   Pareto: Burr 30 (73.2 %), Dent 8 (92.7 %), Porosity 3 (100.0 %). Burr by machine: Lathe 18, Mill 12.
// - Cycles: only the Lathe runs, Tuesday 06:00–07:05, job Flange (expected 10 min, ideal 8 min): five cycles
//   of 10 min, then one of 15 min (50 % over expected: slow, reports-admin §9).
const BURR = { lathe: 18, mill: 12 };

interface Plant {
  email: string;
  password: string;
  lathe: string;
  burr: string;
}

async function seedPlant(db: Kysely<Database>, range: Span, now: number) {
  const { company, user, lathe, mill, press, at, scope } = await anOfficePlant(db, range);
  await aShift(db, company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 840 });

  await someStates(db, company, lathe, [
    [range.start, at(1, 6), 'INACTIVE'],
    [at(1, 6), at(1, 7, 5), 'ACTIVE'],
    [at(1, 7, 5), range.end, 'INACTIVE'],
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
  const ends = [10, 20, 30, 40, 50, 65].map((m) => at(1, 6, m));
  await someCycles(
    scope,
    lathe,
    ends.map((end, k) => ({ start: k === 0 ? at(1, 6) : ends[k - 1]!, end })),
  );

  const burr = await aRejectReason(db, company, { name: 'Burr' });
  const dent = await aRejectReason(db, company, { name: 'Dent' });
  const porosity = await aRejectReason(db, company, { name: 'Porosity', reject_behavior: 'nonconform' });
  const reject = (
    machine: string,
    type: { id: string; reject_behavior: string | null },
    when: number,
    n = 1,
  ) =>
    aRejectRow(machine, when, {
      typeId: type.id,
      scrapcount: n,
      behavior: type.reject_behavior === 'nonconform' ? 'nonconform' : 'scrap',
    });
  const rows = [
    reject(lathe, burr, at(1, 6, 25)),
    ...Array.from({ length: BURR.lathe - 1 }, (_, k) => reject(lathe, burr, at(2, 8, k * 10))),
    ...Array.from({ length: BURR.mill }, (_, k) => reject(mill, burr, at(3, 8, k * 10))),
    ...Array.from({ length: 4 }, (_, k) => reject(mill, dent, at(4, 9, k * 10), 2)),
    ...Array.from({ length: 3 }, (_, k) => reject(press, porosity, at(4, 10, k * 10))),
  ];
  await scope.insertInto('part_adjustments', rows).execute();
  await recomputeMachines(db, company, [lathe, mill, press], { from: range.start, to: range.end, now });
  return { email: user.email, password: user.password, lathe, burr: burr.id } satisfies Plant;
}

const rejectList = (page: Page) => page.locator('section:has(#rejects-heading)');

describe.each(ON_POSTGRES)('the Quality and Cycles reports in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-quality', seedPlant);
  const range = office.week;

  it('opens from /app/reports, applies Last week and shows the top reject reason with its count', async () => {
    const { page } = office;
    await office.openFromReports(/^Quality/);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/quality');
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Quality Report for All Machines');

    await office.applyLastWeek();
    await office.settled();

    const reasons = office.section('Rejects by reason').getByRole('table');
    await expect
      .poll(() => tableRows(reasons), POLL)
      .toEqual([
        ['Burr', '30', '73.2%'],
        ['Dent', '8', '92.7%'],
        ['Porosity', '3', '100.0%'],
      ]);
    await expect
      .poll(() => tableRows(office.section('Rejects by machine').getByRole('table')), POLL)
      .toEqual([
        ['Mill', '20'],
        ['Lathe', '18'],
        ['Press', '3'],
      ]);
    // The list: 37 rejects (41 parts), newest first, 25 a page (reports-admin §9).
    await expect
      .poll(() => rejectList(page).getByRole('status').textContent(), POLL)
      .toBe('Rejects 1–25 of 37');
    await office.screenshots('quality-report');
  }, 120_000);

  it('drills into the top reason, pages its rejects and downloads the same rows as CSV', async () => {
    const { page, plant } = office;
    await clickChart(office.section('Rejects by reason').locator('figure'), 0.2, 0.5);
    await expect.poll(() => new URL(page.url()).searchParams.get('reason')).toBe(plant.burr);
    const byMachine = office.section('Rejects by machine: Burr');
    await expect
      .poll(() => tableRows(byMachine.getByRole('table')), POLL)
      .toEqual([
        ['Lathe', String(BURR.lathe)],
        ['Mill', String(BURR.mill)],
      ]);
    await expect
      .poll(() => rejectList(page).getByRole('heading', { level: 2 }).textContent())
      .toBe('Rejects: Burr');
    await expect
      .poll(() => rejectList(page).getByRole('status').textContent(), POLL)
      .toBe('Rejects 1–25 of 30');
    expect(await tableRows(rejectList(page).getByRole('table'))).toHaveLength(25);

    await rejectList(page).getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBe('2');
    await expect
      .poll(() => rejectList(page).getByRole('status').textContent(), POLL)
      .toBe('Rejects 26–30 of 30');
    const last = await tableRows(rejectList(page).getByRole('table'));
    expect(last).toHaveLength(5);
    // Newest first: page 2 ends with the oldest Burr, the Lathe's on Tuesday.
    expect(last.map((r) => r.slice(1, 5))).toEqual(
      Array.from({ length: 5 }, () => ['Lathe', 'Burr', '1', 'Scrap']),
    );
    await office.screenshots('quality-report-burr');

    const csv = await office.downloadCsv(
      byMachine.getByRole('link', { name: 'Download CSV' }),
      /^\/api\/partadjustment\/allRejectsByCategory\?.*category_id=.*&format=csv&token=/,
    );
    expect(csv[0]).toEqual(['Reason', 'Machine', 'Scrap Count']);
    expect(csv.slice(1).map((r) => [r[1], r[2]])).toEqual(await tableRows(byMachine.getByRole('table')));
    expect(csv.slice(1).every((r) => r[0] === 'Burr')).toBe(true);
  }, 60_000);

  it('downloads the reject list as CSV: every row the list shows, across its pages (decision 0812)', async () => {
    const { page } = office;
    const list = rejectList(page);
    await list.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBeNull();
    await expect.poll(() => list.getByRole('status').textContent(), POLL).toBe('Rejects 1–25 of 30');
    const first = await tableRows(list.getByRole('table'));
    await list.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => list.getByRole('status').textContent(), POLL).toBe('Rejects 26–30 of 30');
    const shown = [...first, ...(await tableRows(list.getByRole('table')))];
    expect(shown).toHaveLength(30);

    // The list's link, not the drill-down's: all 30 Burr rejects, not the 5 of this page.
    const csv = await office.downloadCsv(
      list.getByRole('link', { name: 'Download CSV' }),
      /^\/api\/partadjustment\/rejects\?.*category_id=.*&format=csv&token=/,
    );
    expect(csv[0]).toEqual(['Time', 'Machine', 'Reason', 'Count', 'Type', 'Operation', 'Message']);
    expect(csv.slice(1).map((r) => r.slice(1))).toEqual(shown.map((r) => r.slice(1)));
    // The same times: the CSV's company wall clock is the minute the list shows.
    csv.slice(1).forEach((r, k) => {
      const [, day, hh, mm] = /^\d{4}-\d{2}-(\d{2}) (\d{2}):(\d{2}):00$/.exec(r[0]!)!;
      const h12 = Number(hh) % 12 === 0 ? 12 : Number(hh) % 12;
      expect(shown[k]![0]).toContain(`${Number(day)}`);
      expect(shown[k]![0]).toContain(`${h12}:${mm}`);
    });
  }, 60_000);

  it("opens the Lathe's Cycles report from the OEE waterfall's performance step, the slow cycle marked", async () => {
    const { page, plant, product } = office;
    await page.goto(`${product.url}/dashboard/oee?interval=day&start=${range.start}&end=${range.end}`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('OEE Report for All Machines');
    await office.settled();
    const losses = office.section('Where the time went');
    // All machines: the step opens the machine with the lowest Performance, the only one that ran.
    const step = losses.getByRole('link', { name: 'Performance loss (slow cycles)' });
    await expect.poll(() => step.count(), POLL).toBe(1);
    await expect
      .poll(() => losses.getByRole('link', { name: 'Quality loss (rejected parts)' }).getAttribute('href'))
      .toBe(`/dashboard/quality?start=${range.start}&end=${range.end}`);
    await step.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/machine/${plant.lathe}/cycles`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Cycles Report for Lathe');
    await office.settled();

    const grid = office.section('Cycles').getByRole('table');
    await expect.poll(() => tableRows(grid).then((r) => r.length), POLL).toBe(6);
    const rows = await tableRows(grid);
    // Time, then Duration … Operation; the last column holds the row actions (reports-admin §2).
    expect(rows.map((r) => r.slice(1, 8))).toEqual([
      ['10:00', '10:00', '8:00', '1', '0', '0', 'Flange'],
      ['10:00', '10:00', '8:00', '1', '0', '0', 'Flange'],
      ['10:00', '10:00', '8:00', '1', '1', '0', 'Flange'],
      ['10:00', '10:00', '8:00', '1', '0', '0', 'Flange'],
      ['10:00', '10:00', '8:00', '1', '0', '0', 'Flange'],
      ['Slow15:00', '10:00', '8:00', '1', '0', '0', 'Flange'],
    ]);
    expect(rows.map((r) => r[8])).toEqual(
      Array.from({ length: 6 }, () => 'Go to TimelineReject PartCorrect Part'),
    );
    expect(await grid.locator('tbody tr.row--slow').count()).toBe(1);
    await expect(office.section('Cycles').getByRole('status').textContent()).resolves.toBe(
      '6 cycles, 1 slow',
    );

    // reports-admin §2: a machine report's quick links reach one week at most.
    await page.getByRole('button', { name: /^Date range:/ }).click();
    const menu = page.getByRole('dialog', { name: 'Date range' });
    await expect.poll(() => menu.getByRole('button', { name: 'Last week', exact: true }).count()).toBe(1);
    expect(await menu.getByRole('button', { name: 'Last month', exact: true }).count()).toBe(0);
    await page.keyboard.press('Escape');

    const csv = await office.downloadCsv(
      office.section('Cycles').getByRole('link', { name: 'Download CSV' }),
      /^\/api\/reports\/cycles\?.*&format=csv&token=/,
    );
    expect(csv[0]!.join(',')).toBe('Time,Duration,Expected,Ideal,Parts,Scrap,Non-Conform,Operation');
    expect(csv).toHaveLength(7);
    await office.screenshots('machine-cycles');
  }, 60_000);
});
