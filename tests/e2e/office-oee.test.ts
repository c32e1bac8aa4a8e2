import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { WaterfallStep } from '@takt/domain';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import {
  aDowntimeReason,
  anAnnotation,
  aRejectReason,
  MIN,
  someStates,
} from '../../services/api/src/testing/downtime-builders';
import type { StateRows } from '../../services/api/src/testing/downtime-builders';
import { aShift } from '../../services/api/src/testing/live-builders';
import {
  aJobWithRun,
  aRejectRow,
  recomputeMachines,
  someCycles,
} from '../../services/api/src/testing/report-plant';
import { anOfficePlant, officeSession, ON_POSTGRES, POLL, tableRows } from './office-harness';
import type { Span } from './office-harness';

// The OEE report of the office app (reports-admin §2 "OEE report", §9 rounding; decision 0803 waterfall) in
// Chromium, on a plant seeded last week with hand-computed figures, on PostgreSQL (decision 0871). A manager opens
// it from /app/reports, picks "Last week", drills into a group and a machine, filters one shift, downloads the
// CSV and checks the loss waterfall. Screenshots of the OEE and utilization reports at desk and phone widths
// go to test-results/office-oee/ (gitignored).

// The plant, America/Chicago, shifts Day 06:00–14:00 and Swing 14:00–22:00 every day. Monday to Friday of
// last week (minutes after local midnight):
// - Lathe (group Cell): in cycle 06:00–10:00, Break (planned) 10:00–10:30, in cycle 10:30–13:50, idle
//   13:50–14:00, in cycle 14:00–18:00, idle after. Cycles of 10 min (ideal 8), one part each: 24 + 20 on Day,
//   24 on Swing. Rejects: 3 on Wednesday's Day shift, 1 on Thursday's Swing shift.
// - Mill (group Cell): in cycle 06:00–13:50, cycles of 10 min (ideal 9): 47 parts a day, no rejects.
// - Press (no group): idle all week, no parts.
// Idle time carries no reason (uncategorized).
const DAYS = 5;
const LATHE = {
  ppt: 7 * 960 - DAYS * 30,
  run: DAYS * 680,
  ideal: DAYS * 68 * 8,
  total: DAYS * 68,
  good: DAYS * 68 - 4,
};
const MILL = { ppt: 7 * 960, run: DAYS * 470, ideal: DAYS * 47 * 9, total: DAYS * 47, good: DAYS * 47 };
const PRESS = { ppt: 7 * 960, run: 0 };
// Day shift only: 7 × 480 min of shift time; the Break is in it, 3 of the Lathe's rejects.
const LATHE_DAY = {
  ppt: 7 * 480 - DAYS * 30,
  run: DAYS * 440,
  ideal: DAYS * 44 * 8,
  total: DAYS * 44,
  good: DAYS * 44 - 3,
};
const MILL_DAY = { ppt: 7 * 480, run: DAYS * 470, ideal: DAYS * 47 * 9, total: DAYS * 47, good: DAYS * 47 };
const PRESS_DAY = { ppt: 7 * 480, run: 0 };

const oee = (f: { ppt: number; ideal: number; total: number; good: number }) =>
  (f.ideal * f.good) / (f.total * f.ppt);
/** reports-admin §9: OEE percentages with one decimal. */
const p1 = (fraction: number) => `${(Math.round(fraction * 1000) / 10).toFixed(1)}%`;
const sum = (...fs: Array<Partial<Record<'ppt' | 'run' | 'ideal' | 'total' | 'good', number>>>) => ({
  ppt: fs.reduce((t, f) => t + (f.ppt ?? 0), 0),
  run: fs.reduce((t, f) => t + (f.run ?? 0), 0),
  ideal: fs.reduce((t, f) => t + (f.ideal ?? 0), 0),
  total: fs.reduce((t, f) => t + (f.total ?? 0), 0),
  good: fs.reduce((t, f) => t + (f.good ?? 0), 0),
});

interface Plant {
  email: string;
  password: string;
  cell: string;
  lathe: string;
  mill: string;
  press: string;
  day: string;
  swing: string;
}

async function seedPlant(db: Kysely<Database>, range: Span, now: number) {
  const { company, user, cell, lathe, mill, press, at, scope } = await anOfficePlant(db, range);
  const day = await aShift(db, company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 840 });
  const swing = await aShift(db, company, { name: 'Swing', startoffsetminutes: 840, endoffsetminutes: 1320 });
  const weekdays = Array.from({ length: DAYS }, (_, i) => i);

  const latheStates: Array<[number, number, 'ACTIVE' | 'INACTIVE']> = [];
  const millStates: Array<[number, number, 'ACTIVE' | 'INACTIVE']> = [];
  let latheAt = range.start;
  let millAt = range.start;
  for (const i of weekdays) {
    latheStates.push(
      [latheAt, at(i, 6), 'INACTIVE'],
      [at(i, 6), at(i, 10), 'ACTIVE'],
      [at(i, 10), at(i, 10, 30), 'INACTIVE'],
      [at(i, 10, 30), at(i, 13, 50), 'ACTIVE'],
      [at(i, 13, 50), at(i, 14), 'INACTIVE'],
      [at(i, 14), at(i, 18), 'ACTIVE'],
    );
    latheAt = at(i, 18);
    millStates.push([millAt, at(i, 6), 'INACTIVE'], [at(i, 6), at(i, 13, 50), 'ACTIVE']);
    millAt = at(i, 13, 50);
  }
  latheStates.push([latheAt, range.end, 'INACTIVE']);
  millStates.push([millAt, range.end, 'INACTIVE']);
  await someStates(db, company, lathe, latheStates satisfies StateRows);
  await someStates(db, company, mill, millStates satisfies StateRows);
  await someStates(db, company, press, [[range.start, range.end, 'INACTIVE']]);

  const brk = await aDowntimeReason(db, company, { name: 'Break', plannedBehavior: 'planned' });
  for (const i of weekdays)
    await anAnnotation(db, company, {
      machineId: lathe,
      start: at(i, 10),
      end: at(i, 10, 30),
      typeId: brk.id,
    });

  const cycleRows: Array<{ machine: string; end: number }> = [];
  const jobs = [
    { machine: lathe, name: 'Flange', expected: 10 * MIN, ideal: 8 * MIN },
    { machine: mill, name: 'Bracket', expected: 10 * MIN, ideal: 9 * MIN },
  ];
  for (const j of jobs)
    await aJobWithRun(scope, {
      machineId: j.machine,
      name: j.name,
      expected: j.expected,
      ideal: j.ideal,
      jobCreatedAt: range.start,
      start: at(0, 6),
      end: at(DAYS - 1, 22),
    });
  /** `count` cycles of 10 min, the first starting at `from`. */
  const cyclesFrom = (machine: string, from: number, count: number) => {
    for (let k = 1; k <= count; k++) cycleRows.push({ machine, end: from + k * 10 * MIN });
  };
  for (const i of weekdays) {
    cyclesFrom(lathe, at(i, 6), 24); // 06:10 … 10:00
    cyclesFrom(lathe, at(i, 10, 30), 20); // 10:40 … 13:50
    cyclesFrom(lathe, at(i, 14), 24); // 14:10 … 18:00
    cyclesFrom(mill, at(i, 6), 47); // 06:10 … 13:50
  }
  for (const m of [lathe, mill])
    await someCycles(
      scope,
      m,
      cycleRows.filter((c) => c.machine === m).map((c) => ({ start: c.end - 10 * MIN, end: c.end })),
    );
  const burr = await aRejectReason(db, company, { name: 'Burr' });
  const reject = (when: number, scrapcount: number) =>
    aRejectRow(lathe, when, { typeId: burr.id, scrapcount });
  await scope.insertInto('part_adjustments', [reject(at(2, 11), 3), reject(at(3, 15), 1)]).execute();
  await recomputeMachines(db, company, [lathe, mill, press], { from: range.start, to: range.end, now });
  return {
    email: user.email,
    password: user.password,
    cell,
    lathe,
    mill,
    press,
    day,
    swing,
  } satisfies Plant;
}

// ---- Reading the page (role-based: STYLE.md)

/** The six (or four) tiles as label → value. */
async function tiles(page: Page): Promise<Record<string, string>> {
  const region = page.getByRole('region', { name: 'OEE and its factors for the range' });
  return region
    .locator('.tile')
    .evaluateAll((els) =>
      Object.fromEntries(
        els.map((e) => [
          e.querySelector('.tile__label')?.textContent?.trim() ?? '',
          e.querySelector('.tile__value')?.textContent?.trim() ?? '',
        ]),
      ),
    );
}

const list = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** Row name → the Name, OEE, … cells of one list, once its first row carries figures. */
async function listFigures(page: Page, name: string): Promise<Map<string, string[]>> {
  const rows = await tableRows(list(page, name).getByRole('table'));
  return new Map(rows.map((r) => [r[0]!, r.slice(1)]));
}

/**
 * Waits until the Machine Groups and Machines lists name the plant's group and machines: they answer their own
 * calls, after the tiles' (polled, as they may still be loading).
 */
async function listsNameThePlant(page: Page): Promise<void> {
  const keysOf = async (name: string) => [...(await listFigures(page, name)).keys()];
  await expect.poll(() => keysOf('Machine Groups'), POLL).toEqual(['Cell']);
  await expect.poll(() => keysOf('Machines'), POLL).toEqual(['Lathe', 'Mill', 'Press']);
}

describe.each(ON_POSTGRES)('the OEE report in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-oee', seedPlant);
  const range = office.week;
  const T_ALL = (range.end - range.start) / MIN;

  it('opens from /app/reports, applies Last week, drills into a group and a machine, and back', async () => {
    const { page, plant } = office;
    await office.openFromReports(/^OEE/);
    await expect.poll(() => page.url()).toContain('/dashboard/oee');
    await expect.poll(() => office.heading().textContent(), POLL).toBe('OEE Report for All Machines');

    // The quick link closes the menu; the view is stale until Apply, which writes the range into the URL.
    const q = await office.applyLastWeek({
      beforeApply: async (menu) => {
        await expect.poll(() => menu.count()).toBe(0);
        await expect.poll(() => page.getByRole('status').filter({ hasText: 'Press Apply' }).count()).toBe(1);
      },
    });
    expect(q.get('interval')).toBe('day');
    await office.settled();

    // All machines: OEE = Σideal × good ÷ (total × T_ppt); OOE over shift time, TEEP over all time.
    const all = sum(LATHE, MILL, PRESS);
    const shiftTime = 3 * 7 * 960;
    const f = all.ideal * all.good;
    await expect
      .poll(() => tiles(page), POLL)
      .toEqual({
        OEE: p1(oee(all)), // 24.0%
        OOE: p1(f / (all.total * shiftTime)),
        TEEP: p1(f / (all.total * 3 * T_ALL)),
        Availability: p1(all.run / all.ppt),
        Performance: p1(all.ideal / all.run),
        Quality: p1(all.good / all.total),
      });
    expect((await tiles(page)).OEE).toBe('24.0%');
    await listsNameThePlant(page);
    const groups = await listFigures(page, 'Machine Groups');
    expect(groups.get('Cell')![0]).toBe(p1(oee(sum(LATHE, MILL)))); // 36.1%
    const machines = await listFigures(page, 'Machines');
    expect([...machines.keys()]).toEqual(['Lathe', 'Mill', 'Press']);
    expect(machines.get('Lathe')![0]).toBe('40.9%');
    expect(machines.get('Lathe')![0]).toBe(p1(oee(LATHE)));
    expect(machines.get('Mill')![0]).toBe(p1(oee(MILL))); // 31.5%
    // The Press never ran: no performance, no OEE.
    expect(machines.get('Press')!.slice(0, 4)).toEqual(['-', '-', '-', '0.0%']);

    await office.screenshots('oee-report', true);

    // Drill into the group: its machines only, no group list, the back link.
    await list(page, 'Machine Groups').getByRole('button', { name: 'Cell', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('group')).toBe(plant.cell);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('OEE Report for Cell');
    await office.settled();
    await expect.poll(async () => (await tiles(page)).OEE, POLL).toBe(p1(oee(sum(LATHE, MILL))));
    expect(await list(page, 'Machine Groups').count()).toBe(0);
    expect([...(await listFigures(page, 'Machines')).keys()]).toEqual(['Lathe', 'Mill']);

    // Then a machine: the URL carries both.
    await list(page, 'Machines').getByRole('button', { name: 'Lathe', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('machine')).toBe(plant.lathe);
    expect(new URL(page.url()).searchParams.get('group')).toBe(plant.cell);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('OEE Report for Lathe');
    await office.settled();
    await expect
      .poll(() => tiles(page), POLL)
      .toEqual({
        OEE: '40.9%',
        OOE: p1((LATHE.ideal * LATHE.good) / (LATHE.total * 7 * 960)), // 40.0%
        TEEP: p1((LATHE.ideal * LATHE.good) / (LATHE.total * T_ALL)),
        Availability: p1(LATHE.run / LATHE.ppt), // 51.8%
        Performance: '80.0%',
        Quality: p1(LATHE.good / LATHE.total), // 98.8%
      });

    // The back link clears the drill-down and keeps the dates.
    await page.getByRole('button', { name: 'Return to OEE Report for All Machines' }).click();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('OEE Report for All Machines');
    const back = new URL(page.url()).searchParams;
    expect([back.get('group'), back.get('machine')]).toEqual([null, null]);
    expect([Number(back.get('start')), Number(back.get('end')), back.get('interval')]).toEqual([
      range.start,
      range.end,
      'day',
    ]);
    await office.settled();
    await expect.poll(async () => (await tiles(page)).OEE, POLL).toBe('24.0%');
  }, 120_000);

  it('shows a loss waterfall whose steps add up to the OEE tile', async () => {
    const { page, product } = office;
    const answer = (await (
      await page.request.get(
        `${product.url}/api/reports/oee?start=${range.start}&end=${range.end}&interval=day`,
      )
    ).json()) as { efficiency: { oee: number }; waterfall: WaterfallStep[] };
    const ms = (key: WaterfallStep['key']) =>
      answer.waterfall.filter((s) => s.key === key).reduce((t, s) => t + s.ms, 0);
    const ppt = ms('plannedProductionTime');
    const fp = ms('fullyProductiveTime');
    expect(ppt).toBe(sum(LATHE, MILL, PRESS).ppt * MIN);
    // Every step after planned production time takes its loss off: they end exactly at fully productive time.
    const losses = ms('availabilityLoss') + ms('performanceLoss') + ms('qualityLoss');
    expect(ppt - losses).toBeCloseTo(fp, 3);
    expect(ms('runTime')).toBe(ppt - ms('availabilityLoss'));
    expect(fp / ppt).toBeCloseTo(answer.efficiency.oee, 12);

    const section = list(page, 'Where the time went');
    const rows = new Map(
      (await tableRows(section.getByRole('table'))).map((r) => [r[0]!, { hours: r[1]!, share: r[2]! }]),
    );
    // 3 machines × the week; 150 min of Break; T_ppt 20,010 min; fully productive 4835 × 571 ÷ 575 min.
    expect(rows.get('All time')!.hours).toBe(((3 * T_ALL) / 60).toFixed(1));
    expect(rows.get('Planned downtime: Break')!.hours).toBe('2.5');
    expect(rows.get('Planned production time')!.hours).toBe('333.5');
    expect(rows.get('Run time')!.hours).toBe('95.8');
    expect(rows.get('Fully productive time')).toEqual({ hours: '80.0', share: '24.0%' });
    // The last bar over planned production time is the OEE tile, and the caption says so.
    expect(rows.get('Fully productive time')!.share).toBe((await tiles(page)).OEE);
    await expect
      .poll(() => section.locator('figcaption').textContent())
      .toBe('OEE 24.0% = fully productive time (80.0 h) ÷ planned production time (333.5 h).');
  }, 60_000);

  it('filters one shift (OOE and TEEP go) and downloads the same figures as CSV', async () => {
    const { page } = office;
    const filter = page.getByRole('group', { name: 'Shifts' });
    await filter.getByRole('checkbox', { name: 'Swing' }).uncheck();
    await expect.poll(() => filter.getByRole('checkbox', { name: 'Day' }).isChecked()).toBe(true);
    await office.settled();
    const all = sum(LATHE_DAY, MILL_DAY, PRESS_DAY);
    await expect
      .poll(() => tiles(page), POLL)
      .toEqual({
        OEE: p1(oee(all)), // 38.8%
        Availability: p1(all.run / all.ppt),
        Performance: p1(all.ideal / all.run),
        Quality: p1(all.good / all.total),
      });
    expect((await tiles(page)).OEE).toBe('38.8%');

    const machines = list(page, 'Machines');
    const headers = await machines.getByRole('columnheader').allTextContents();
    expect(headers.map((h) => h.replace(/[▲▼]/g, '').trim())).toEqual([
      'Name',
      'OEE',
      'Availability',
      'Performance',
      'Quality',
      'OEE Over Time',
    ]);
    const shown = await listFigures(page, 'Machines');
    expect(shown.get('Lathe')!.slice(0, 4)).toEqual([
      p1(oee(LATHE_DAY)), // 54.1%
      p1(LATHE_DAY.run / LATHE_DAY.ppt),
      '80.0%',
      p1(LATHE_DAY.good / LATHE_DAY.total),
    ]);
    expect(shown.get('Lathe')![0]).toBe('54.1%');

    const csv = await office.downloadCsv(
      machines.getByRole('link', { name: 'Download CSV' }),
      /^\/api\/reports\/warehouse\/production\/csv\?request=.*&token=/,
    );
    expect(csv[0]).toEqual([
      'Machine',
      'OEE (%)',
      'OOE (%)',
      'TEEP (%)',
      'Availability (%)',
      'Performance (%)',
      'Quality (%)',
    ]);
    const byName = new Map(csv.slice(1).map((r) => [r[0]!, r.slice(1)]));
    expect([...byName.keys()]).toEqual(['Lathe', 'Mill', 'Press', 'Total']);
    // The same one-decimal figures as on screen; OOE and TEEP have no meaning for one shift.
    for (const [name, cells] of shown) {
      const row = byName.get(name)!;
      const [o, ooe, teep, a, p, qual] = row;
      expect([ooe, teep], name).toEqual(['-', '-']);
      expect(
        [o, a, p, qual].map((v) => (v === '-' ? v : `${v}%`)),
        name,
      ).toEqual(cells.slice(0, 4));
    }
    expect(byName.get('Total')![0]).toBe('38.8');
  }, 60_000);

  it('shows the utilization report for last week, with the same shift filter', async () => {
    const { page, product } = office;
    await page.goto(
      `${product.url}/dashboard/utilization?interval=day&start=${range.start}&end=${range.end}`,
    );
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Utilization Report for All Machines');
    const filter = page.getByRole('group', { name: 'Shifts' });
    const tile = page.locator('.tile__value').first();
    // The shift choice is the company's (reports-admin §9): still the Day shift only, 3 × 7 × 480 min.
    await expect.poll(() => filter.getByRole('checkbox', { name: 'Swing' }).isChecked(), POLL).toBe(false);
    await office.settled();
    const dayShare = (LATHE_DAY.run + MILL_DAY.run) / (3 * 7 * 480);
    await expect.poll(() => tile.textContent(), POLL).toBe(`${Math.round(dayShare * 100)}%`); // 45%
    // All shifts: in-cycle share of all time, zero decimals: (3400 + 2350) ÷ (3 × the week).
    await filter.getByRole('checkbox', { name: 'All shifts' }).check();
    await office.settled();
    const share = (LATHE.run + MILL.run) / (3 * T_ALL);
    await expect.poll(() => tile.textContent(), POLL).toBe(`${Math.round(share * 100)}%`); // 19%
    expect((await tile.textContent()) ?? '').toBe('19%');
    const rows = await listFigures(page, 'Machines');
    expect(rows.get('Lathe')![0]).toBe(`${Math.round((LATHE.run / T_ALL) * 100)}%`);
    await office.screenshots('utilization-report', true);
  }, 60_000);

  it('lists utilization by shift, group and machine as the OEE report does, with the server CSV, and drills into a group', async () => {
    const { page, plant } = office;
    // Continues on the previous page: all shifts, last week.
    await office.settled();
    const inCycle = (run: number, machines: number) => `${Math.round((run / (machines * T_ALL)) * 100)}%`;
    await listsNameThePlant(page);
    const groups = await listFigures(page, 'Machine Groups');
    // Groups offer In-Cycle only (reports-admin §2): spindle-rotating and in-cut show '-'.
    expect(groups.get('Cell')!.slice(0, 3)).toEqual([inCycle(LATHE.run + MILL.run, 2), '-', '-']);
    const shifts = await listFigures(page, 'Shifts');
    expect([...shifts.keys()].sort()).toEqual(['Day', 'Swing']);
    for (const cells of shifts.values()) expect(cells.slice(1, 3)).toEqual(['-', '-']);
    const machines = await listFigures(page, 'Machines');
    expect([...machines.keys()]).toEqual(['Lathe', 'Mill', 'Press']);
    expect(machines.get('Lathe')![0]).toBe(inCycle(LATHE.run, 1));

    // The Machines list's CSV comes from the server and says the same In-Cycle figures.
    const csv = await office.downloadCsv(
      list(page, 'Machines').getByRole('link', { name: 'Download CSV' }),
      /^\/api\/reports\/warehouse\/production\/csv\?request=.*&token=/,
    );
    expect(csv[0]!.slice(0, 2)).toEqual(['Machine', 'Utilization (%)']);
    const byName = new Map(csv.slice(1).map((r) => [r[0]!, r.slice(1)]));
    expect([...byName.keys()]).toEqual(['Lathe', 'Mill', 'Press', 'Total']);
    for (const [name, cells] of machines) {
      const v = byName.get(name)![0]!;
      expect(v === '-' ? v : `${v}%`, name).toBe(cells[0]);
    }

    // The per-shift matrix, zero decimals, one column per shift.
    await list(page, 'Machines').getByLabel('Show').selectOption({ label: 'In-Cycle by Shift' });
    await office.settled();
    const matrixHeaders = await list(page, 'Machines').getByRole('columnheader').allTextContents();
    expect(matrixHeaders.map((h) => h.replace(/[▲▼]/g, '').trim())).toEqual(['Name', 'Day', 'Swing']);
    await list(page, 'Machines').getByLabel('Show').selectOption({ label: 'Summary' });

    await office.screenshots('utilization-lists', true);

    // A group row drills down: the group goes into the URL, its In-Cycle share heads the panel.
    await list(page, 'Machine Groups').getByRole('button', { name: 'Cell' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('group'), POLL).toBe(plant.cell);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Utilization Report for Cell');
    await office.settled();
    await expect
      .poll(() => page.getByRole('heading', { level: 2, name: /^Cell: In-Cycle/ }).textContent(), POLL)
      .toBe(`Cell: In-Cycle ${inCycle(LATHE.run + MILL.run, 2)}`);
    expect(await list(page, 'Machine Groups').count()).toBe(0);
    expect([...(await listFigures(page, 'Machines')).keys()]).toEqual(['Lathe', 'Mill']);
    await office.screenshots('utilization-group', true);
    await page.getByRole('button', { name: 'Return to Utilization Report for All Machines' }).click();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Utilization Report for All Machines');
  }, 90_000);

  it('shows no OEE for a range before any machine data', async () => {
    const { page, product } = office;
    // The week before the plant's: no machine was monitored yet (METRICS.md §1, §2: time before a machine's
    // first observation is in no time base), so no factor has a denominator and the report says so, rather
    // than an Availability of 0.0 % or tiles of '-'.
    const start = range.start - 7 * 24 * 60 * MIN;
    await page.goto(`${product.url}/dashboard/oee?interval=day&start=${start}&end=${range.start}`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('OEE Report for All Machines');
    await office.settled();
    await expect
      .poll(() => page.getByText('No OEE data in this range.', { exact: true }).count(), POLL)
      .toBe(1);
    expect(await page.getByRole('region', { name: 'OEE and its factors for the range' }).count()).toBe(0);
    await office.screenshots('oee-report-empty', true);
  }, 60_000);
});
