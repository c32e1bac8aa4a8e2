import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { addDays, companyDayStart, epochMs, quickLinks, shopDateOf } from '@takt/domain';
import type { CompanyClock } from '@takt/domain';
import type { Database } from '@takt/db';
import { recomputeRollups } from '@takt/db/rollups';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import type { Kysely } from 'kysely';
import { aCompany, aGroup, aMachine, aUser } from '../../services/api/src/testing/builders';
import {
  aDowntimeReason,
  anAnnotation,
  MIN,
  someStates,
} from '../../services/api/src/testing/downtime-builders';
import type { StateRows } from '../../services/api/src/testing/downtime-builders';
import { launchChromium, startProduct } from './harness';
import type { RunningProduct } from './harness';

// The Downtime report of the office app (reports-admin §2 "Downtime report", §4 planned values, §8 errors,
// §9 minutes with 2 decimals; decision 0805) in Chromium, on a plant seeded last week, on SQLite and
// PostgreSQL. A manager opens it from /app/reports, picks "Last week", reads the top reason of the pareto,
// drills into it, opens a machine's downtime from the stacked chart and downloads the same rows as CSV.
// Screenshots at desk and phone widths go to test-results/office-downtime/ (gitignored).

const ARTIFACTS = fileURLToPath(new URL('../../test-results/office-downtime/', import.meta.url));
const CLOCK: CompanyClock = { timezone: 'America/Chicago' };
const POLL = { timeout: 20_000, interval: 200 } as const;

/** "Last week" as the picker computes it (decision 0104: the whole ISO week before this one). */
function lastWeek(now: number): { start: number; end: number } {
  const link = quickLinks(CLOCK, 'day', epochMs(now)).find((l) => l.label === 'Last week');
  if (!link) throw new Error('no Last week quick link');
  return { start: link.start, end: link.end };
}

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

async function seedPlant(db: Kysely<Database>, range: { start: number; end: number }, now: number) {
  const company = await aCompany(db, {
    name: 'Acme Machining',
    timezone: CLOCK.timezone,
    productTier: 'full',
  });
  const user = await aUser(db, company, { role: 'manager', displayName: 'Maria Manager' });
  const cell = await aGroup(db, company, 'Cell');
  const lathe = await aMachine(db, company, { name: 'Lathe', groupIds: [cell], sortOrder: 1 });
  const mill = await aMachine(db, company, { name: 'Mill', groupIds: [cell], sortOrder: 2 });
  const press = await aMachine(db, company, { name: 'Press', sortOrder: 3 });
  const monday = shopDateOf(CLOCK, epochMs(range.start));
  /** Local time on weekday i (0 = Monday) of last week. */
  const at = (i: number, h: number, m = 0) => companyDayStart(CLOCK, addDays(monday, i)) + (h * 60 + m) * MIN;
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
  for (const machineId of [lathe, mill, press])
    await recomputeRollups(db, { companyId: company.id, machineId, from: range.start, to: range.end, now });
  return { email: user.email, password: user.password, lathe, mill, press, tool: tool.id } satisfies Plant;
}

// ---- Reading the page (role-based: STYLE.md)

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** A table's body rows as arrays of cell texts (row header first). */
function tableRows(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.trim() ?? '')),
    );
}

/** The grid of downtime periods (its heading says which reason). */
const grid = (page: Page) => page.locator('section:has(#grid-heading)');

async function settled(page: Page) {
  await expect.poll(() => page.locator('[aria-busy="true"]').count(), POLL).toBe(0);
  await expect.poll(() => page.locator('.report__body [role="progressbar"]').count(), POLL).toBe(0);
}

/** Clicks a chart's canvas at a fraction of its size (the charts open what lies under the pointer's row). */
async function clickChart(chart: Locator, fx: number, fy: number) {
  const canvas = chart.locator('canvas');
  const box = await canvas.boundingBox();
  if (!box) throw new Error('chart not drawn');
  await canvas.click({ position: { x: box.width * fx, y: box.height * fy } });
}

describe.each(DIALECTS)('the Downtime report in Chromium on %s', (dialect) => {
  let db: TestDb;
  let product: RunningProduct;
  let browser: Browser;
  let page: Page;
  let plant: Plant;
  const range = lastWeek(Date.now());

  beforeAll(async () => {
    db = await freshDb(dialect);
    plant = await seedPlant(db.db, range, Date.now());
    [product, browser] = await Promise.all([
      startProduct({ DATABASE_URL: db.url, TAKT_DEMO: '0', TAKT_INGEST: '0' }),
      launchChromium(),
    ]);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await db?.cleanup();
  });

  it('opens from /app/reports, applies Last week and shows the top reason with its minutes', async () => {
    await page.goto(`${product.url}/app/reports`);
    await page.getByLabel('Email').fill(plant.email);
    await page.getByLabel('Password').fill(plant.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('link', { name: /^Downtime/ }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/downtime');
    await expect.poll(() => heading(page).textContent(), POLL).toBe('Downtime Report for All Machines');

    await page.getByRole('button', { name: /^Date range:/ }).click();
    const menu = page.getByRole('dialog', { name: 'Date range' });
    // reports-admin §5: the downtime report's maximum range.
    await expect.poll(() => menu.getByText('Select up to 31 days').count()).toBeGreaterThan(0);
    await menu.getByRole('button', { name: 'Last week', exact: true }).click();
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('quicklink')).toBe('last-week');
    const q = new URL(page.url()).searchParams;
    expect([Number(q.get('start')), Number(q.get('end'))]).toEqual([range.start, range.end]);
    await settled(page);

    // The pareto, longest first, minutes with 2 decimals (reports-admin §9), and the accumulated percent.
    const reasons = section(page, 'Downtime by reason').getByRole('table');
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

    mkdirSync(ARTIFACTS, { recursive: true });
    if (dialect === 'sqlite') await screenshots(page, 'downtime-report');
  }, 120_000);

  it('drills into the top reason from the pareto, then downloads the same rows as CSV', async () => {
    // The first column of the pareto is the top reason.
    await clickChart(section(page, 'Downtime by reason').locator('figure'), 0.2, 0.5);
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

    const link = grid(page).getByRole('link', { name: 'Download CSV' });
    await expect.poll(() => link.count(), POLL).toBe(1);
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^\/api\/reports\/downtime\?.*categoryId=.*&format=csv&token=/);
    const res = await page.request.get(`${product.url}${href}`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('text/csv');
    const csv = (await res.text())
      .trim()
      .split(/\r?\n/)
      .map((l) => l.split(','));
    expect(csv[0]).toEqual(['Start', 'Duration', 'Machine', 'Reason', 'Message', 'Planned']);
    expect(csv.slice(1).map((r) => r.slice(1))).toEqual(rows.map((r) => r.slice(1)));
    if (dialect === 'sqlite') await screenshots(page, 'downtime-report-reason');
  }, 60_000);

  it("opens a machine's downtime from the stacked chart, with the range and the reason", async () => {
    // Drilled into Tool change, the stacked chart shows that reason only; the Lathe's row is the first.
    await clickChart(section(page, 'Downtime by machine').locator('figure'), 0.5, 0.15);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/machine/${plant.lathe}/downtime`);
    const q = new URL(page.url()).searchParams;
    expect([Number(q.get('start')), Number(q.get('end')), q.get('reason')]).toEqual([
      range.start,
      range.end,
      plant.tool,
    ]);
    await expect.poll(() => heading(page).textContent(), POLL).toBe('Downtime Report for Lathe');
    await settled(page);
    await expect
      .poll(() => tableRows(section(page, 'Downtime by reason').getByRole('table')), POLL)
      .toEqual([['Tool change', '225.00', '5', '100.0%']]);
    expect(await section(page, 'Downtime by machine').count()).toBe(0);
    expect(await grid(page).getByRole('heading', { level: 2 }).textContent()).toBe(
      'Downtime periods: Tool change',
    );
    expect(await tableRows(grid(page).getByRole('table'))).toHaveLength(5);
    if (dialect === 'sqlite') await screenshots(page, 'machine-downtime');

    // Back to all machines with the same dates.
    await page.getByRole('button', { name: 'Return to Downtime Report for All Machines' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/downtime');
    await expect.poll(() => heading(page).textContent(), POLL).toBe('Downtime Report for All Machines');
    expect(Number(new URL(page.url()).searchParams.get('start'))).toBe(range.start);
  }, 60_000);

  it('hides planned downtime with its toggle, and says what is wrong with a range over 31 days', async () => {
    await settled(page);
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
    await settled(page);
    await expect
      .poll(() => tableRows(section(page, 'Downtime by reason').getByRole('table')), POLL)
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
});

/** Full-page screenshots at a desk (1280×800) and a phone (390×844) width. */
async function screenshots(page: Page, name: string) {
  const desk = page.viewportSize();
  await page.screenshot({ path: join(ARTIFACTS, `${name}-1280x800.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // Charts redraw on resize.
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(ARTIFACTS, `${name}-390x844.png`), fullPage: true });
  await page.setViewportSize(desk ?? { width: 1280, height: 800 });
  await page.waitForTimeout(300);
}
