import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import {
  aDowntimeReason,
  anAnnotation,
  MIN,
  someStates,
} from '../../services/api/src/testing/downtime-builders';
import type { StateRows } from '../../services/api/src/testing/downtime-builders';
import { recomputeMachines } from '../../services/api/src/testing/report-plant';
import { anOfficePlant, clickChart, officeSession, ON_SQLITE, POLL, tableRows } from './office-harness';
import type { Span } from './office-harness';

// The Downtime report of the office app (reports-admin §2 "Downtime report", §4 planned values, §8 errors,
// §9 minutes with 2 decimals; decision 0805) in Chromium, on a plant seeded last week, on SQLite and
// PostgreSQL. A manager opens it from /app/reports, picks "Last week", reads the top reason of the pareto,
// drills into it, opens a machine's downtime from the stacked chart and downloads the same rows as CSV.
// Screenshots at desk and phone widths go to test-results/office-downtime/ (gitignored).

// The plant, America/Chicago, last week; machines run all week except (local times, weekday 0 = Monday):
// - Lathe (group Cell): Tool change (unplanned) 10:00–10:45 Monday to Friday: 5 × 45 = 225 min.
// - Mill (group Cell): Tool change 09:00–09:30 on Tuesday and Wednesday (60 min); Break (planned)
//   12:00–12:30 Monday to Friday (150 min).
// - Press (no group): stopped without a reason Thursday 14:00–14:20 (20 min).
// Pareto: Tool change 285.00, Break 150.00, Uncategorized 20.00 minutes. By machine: Lathe 225, Mill 210,
// Press 20.
const TOOL_MIN = 5 * 45 + 2 * 30;
const BREAK_MIN = 5 * 30;
const UNCAT_MIN = 20;

interface Plant {
  email: string;
  password: string;
  lathe: string;
  mill: string;
  press: string;
  tool: string;
}

async function seedPlant(db: Kysely<Database>, range: Span, now: number) {
  const { company, user, lathe, mill, press, at } = await anOfficePlant(db, range);
  const tool = await aDowntimeReason(db, company, { name: 'Tool change', plannedBehavior: 'unplanned' });
  const brk = await aDowntimeReason(db, company, { name: 'Break', plannedBehavior: 'planned' });

  /** Running all week except the stops [start, end). */
  const runningExcept = (stops: Array<[number, number]>): StateRows => {
    const rows: Array<[number, number, 'ACTIVE' | 'INACTIVE']> = [];
    let t = range.start;
    for (const [s, e] of [...stops].sort((a, b) => a[0] - b[0])) {
      rows.push([t, s, 'ACTIVE'], [s, e, 'INACTIVE']);
      t = e;
    }
    rows.push([t, range.end, 'ACTIVE']);
    return rows;
  };
  const weekdays = [0, 1, 2, 3, 4];
  const latheStops = weekdays.map((i) => [at(i, 10), at(i, 10, 45)] as [number, number]);
  const millTool = [1, 2].map((i) => [at(i, 9), at(i, 9, 30)] as [number, number]);
  const millBreak = weekdays.map((i) => [at(i, 12), at(i, 12, 30)] as [number, number]);
  const pressStop: [number, number] = [at(3, 14), at(3, 14, 20)];
  await someStates(db, company, lathe, runningExcept(latheStops));
  await someStates(db, company, mill, runningExcept([...millTool, ...millBreak]));
  await someStates(db, company, press, runningExcept([pressStop]));
  for (const [i, [start, end]] of latheStops.entries())
    await anAnnotation(db, company, {
      machineId: lathe,
      start,
      end,
      typeId: tool.id,
      message: i === 0 ? 'Insert worn' : null,
    });
  for (const [start, end] of millTool)
    await anAnnotation(db, company, { machineId: mill, start, end, typeId: tool.id });
  for (const [start, end] of millBreak)
    await anAnnotation(db, company, { machineId: mill, start, end, typeId: brk.id });
  await recomputeMachines(db, company, [lathe, mill, press], { from: range.start, to: range.end, now });
  return { email: user.email, password: user.password, lathe, mill, press, tool: tool.id } satisfies Plant;
}

/** The grid of downtime periods (its heading says which reason). */
const grid = (page: Page) => page.locator('section:has(#grid-heading)');

describe.each(ON_SQLITE)('the Downtime report in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-downtime', seedPlant);
  const range = office.week;

  it('opens from /app/reports, applies Last week and shows the top reason with its minutes', async () => {
    const { page } = office;
    await office.openFromReports(/^Downtime/);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/downtime');
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Downtime Report for All Machines');

    await office.applyLastWeek({
      // reports-admin §5: the downtime report's maximum range.
      inMenu: (menu) => expect.poll(() => menu.getByText('Select up to 31 days').count()).toBeGreaterThan(0),
    });
    await office.settled();

    // The pareto, longest first, minutes with 2 decimals (reports-admin §9), and the accumulated percent.
    const reasons = office.section('Downtime by reason').getByRole('table');
    await expect
      .poll(() => tableRows(reasons), POLL)
      .toEqual([
        ['Tool change', TOOL_MIN.toFixed(2), '7', '62.6%'],
        ['Break', BREAK_MIN.toFixed(2), '5', '95.6%'],
        ['Uncategorized', UNCAT_MIN.toFixed(2), '1', '100.0%'],
      ]);
    expect((await tableRows(reasons))[0]!.slice(0, 2)).toEqual(['Tool change', '285.00']);
    const total = TOOL_MIN + BREAK_MIN + UNCAT_MIN;
    await expect(
      page
        .getByRole('region', { name: 'Downtime totals for the range' })
        .locator('.tile__value')
        .first()
        .textContent(),
    ).resolves.toBe(total.toFixed(2));
    expect(await tableRows(grid(page).getByRole('table'))).toHaveLength(13);

    await office.screenshots('downtime-report');
  }, 120_000);

  it('drills into the top reason from the pareto, then downloads the same rows as CSV', async () => {
    const { page, plant } = office;
    // The first column of the pareto is the top reason.
    await clickChart(office.section('Downtime by reason').locator('figure'), 0.2, 0.5);
    await expect.poll(() => new URL(page.url()).searchParams.get('reason')).toBe(plant.tool);
    await expect
      .poll(() => grid(page).getByRole('heading', { level: 2 }).textContent(), POLL)
      .toBe('Downtime periods: Tool change');
    const rows = await tableRows(grid(page).getByRole('table'));
    expect(rows.map((r) => r.slice(1))).toEqual([
      ['45.00', 'Lathe', 'Tool change', 'Insert worn', 'Unplanned'],
      ['30.00', 'Mill', 'Tool change', '', 'Unplanned'],
      ['45.00', 'Lathe', 'Tool change', '', 'Unplanned'],
      ['30.00', 'Mill', 'Tool change', '', 'Unplanned'],
      ['45.00', 'Lathe', 'Tool change', '', 'Unplanned'],
      ['45.00', 'Lathe', 'Tool change', '', 'Unplanned'],
      ['45.00', 'Lathe', 'Tool change', '', 'Unplanned'],
    ]);
    await expect(grid(page).getByRole('status').textContent()).resolves.toBe('7 stops, 285.00 min in all');

    const csv = await office.downloadCsv(
      grid(page).getByRole('link', { name: 'Download CSV' }),
      /^\/api\/reports\/downtime\?.*categoryId=.*&format=csv&token=/,
    );
    expect(csv[0]).toEqual(['Start', 'Duration', 'Machine', 'Reason', 'Message', 'Planned']);
    expect(csv.slice(1).map((r) => r.slice(1))).toEqual(rows.map((r) => r.slice(1)));
    await office.screenshots('downtime-report-reason');
  }, 60_000);

  it("opens a machine's downtime from the stacked chart, with the range and the reason", async () => {
    const { page, plant } = office;
    // Drilled into Tool change, the stacked chart shows that reason only; the Lathe's row is the first.
    await clickChart(office.section('Downtime by machine').locator('figure'), 0.5, 0.15);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/machine/${plant.lathe}/downtime`);
    const q = new URL(page.url()).searchParams;
    expect([Number(q.get('start')), Number(q.get('end')), q.get('reason')]).toEqual([
      range.start,
      range.end,
      plant.tool,
    ]);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Downtime Report for Lathe');
    await office.settled();
    await expect
      .poll(() => tableRows(office.section('Downtime by reason').getByRole('table')), POLL)
      .toEqual([['Tool change', '225.00', '5', '100.0%']]);
    expect(await office.section('Downtime by machine').count()).toBe(0);
    expect(await grid(page).getByRole('heading', { level: 2 }).textContent()).toBe(
      'Downtime periods: Tool change',
    );
    expect(await tableRows(grid(page).getByRole('table'))).toHaveLength(5);
    await office.screenshots('machine-downtime');

    // Back to all machines with the same dates.
    await page.getByRole('button', { name: 'Return to Downtime Report for All Machines' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/downtime');
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Downtime Report for All Machines');
    expect(Number(new URL(page.url()).searchParams.get('start'))).toBe(range.start);
  }, 60_000);

  it('hides planned downtime with its toggle, and says what is wrong with a range over 31 days', async () => {
    const { page, product } = office;
    await office.settled();
    await page.getByRole('button', { name: 'Show all reasons' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('reason')).toBeNull();
    // The toggle's state is the URL, which React Router updates in a transition: click, then wait for it
    // (Playwright's uncheck() gives up when the box has not changed the instant after the click).
    const planned = page
      .getByRole('group', { name: 'Show' })
      .getByRole('checkbox', { name: 'Planned', exact: true });
    await planned.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('hide'), POLL).toBe('planned');
    await expect.poll(() => planned.isChecked(), POLL).toBe(false);
    await office.settled();
    await expect
      .poll(() => tableRows(office.section('Downtime by reason').getByRole('table')), POLL)
      .toEqual([
        ['Tool change', '285.00', '7', '93.4%'],
        ['Uncategorized', '20.00', '1', '100.0%'],
      ]);

    const start = range.end - 40 * 24 * 60 * MIN;
    await page.goto(`${product.url}/dashboard/downtime?interval=day&start=${start}&end=${range.end}`);
    const alert = page.locator('.report__body').getByRole('alert');
    await expect.poll(() => alert.count(), POLL).toBe(1);
    // reports-admin §8: the server's message, not a generic one.
    expect(await alert.textContent()).not.toBe('An error occurred with your request.');
    expect(await alert.textContent()).toMatch(/31/);
  }, 60_000);

  it('drills into Uncategorized and downloads only the periods without a reason (decision 0812)', async () => {
    const { page, product } = office;
    await page.goto(
      `${product.url}/dashboard/downtime?interval=day&start=${range.start}&end=${range.end}&reason=uncategorized`,
    );
    await office.settled();
    await expect
      .poll(() => grid(page).getByRole('heading', { level: 2 }).textContent(), POLL)
      .toBe('Downtime periods: Uncategorized');
    await expect.poll(() => tableRows(grid(page).getByRole('table')), POLL).toHaveLength(1);
    const rows = await tableRows(grid(page).getByRole('table'));
    expect(rows[0]!.slice(1, 4)).toEqual([UNCAT_MIN.toFixed(2), 'Press', 'Uncategorized']);

    const csv = await office.downloadCsv(
      grid(page).getByRole('link', { name: 'Download CSV' }),
      /^\/api\/reports\/downtime\?.*categoryId=uncategorized&format=csv&token=/,
    );
    expect(csv[0]).toEqual(['Start', 'Duration', 'Machine', 'Reason', 'Message', 'Planned']);
    expect(csv.slice(1).map((r) => r.slice(1))).toEqual(rows.map((r) => r.slice(1)));
  }, 60_000);
});
