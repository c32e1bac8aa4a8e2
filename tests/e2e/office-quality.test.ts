import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { addDays, companyDayStart, epochMs, quickLinks, shopDateOf } from '@takt/domain';
import type { CompanyClock } from '@takt/domain';
import { companyScope } from '@takt/db';
import type { Database } from '@takt/db';
import { recomputeRollups } from '@takt/db/rollups';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import type { Kysely } from 'kysely';
import { aCompany, aGroup, aMachine, aUser } from '../../services/api/src/testing/builders';
import { aRejectReason, MIN, someStates } from '../../services/api/src/testing/downtime-builders';
import { aShift } from '../../services/api/src/testing/live-builders';
import { launchChromium, startProduct } from './harness';
import type { RunningProduct } from './harness';

// The Quality and Cycles reports of the office app (reports-admin §2 "Quality report", "Cycles report", §7
// reject list limit 25, §9 slow cycles; decision 0806) in Chromium, on a plant seeded last week, on SQLite and
// PostgreSQL. A manager opens the Quality report from /app/reports, picks "Last week", reads the top reject
// reason, drills into it, pages its rejects and downloads the same rows as CSV; then opens the Lathe's Cycles
// report from the OEE waterfall's performance step and finds the slow cycle marked. Screenshots at desk and
// phone widths go to test-results/office-quality/ (gitignored).

const ARTIFACTS = fileURLToPath(new URL('../../test-results/office-quality/', import.meta.url));
const CLOCK: CompanyClock = { timezone: 'America/Chicago' };
const POLL = { timeout: 20_000, interval: 200 } as const;

function lastWeek(now: number): { start: number; end: number } {
  const link = quickLinks(CLOCK, 'day', epochMs(now)).find((l) => l.label === 'Last week');
  if (!link) throw new Error('no Last week quick link');
  return { start: link.start, end: link.end };
}

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

async function seedPlant(db: Kysely<Database>, range: { start: number; end: number }, now: number) {
  const company = await aCompany(db, {
    name: 'Acme Machining',
    timezone: CLOCK.timezone,
    productTier: 'full',
  });
  const user = await aUser(db, company, { role: 'manager', displayName: 'Maria Manager' });
  await aShift(db, company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 840 });
  const cell = await aGroup(db, company, 'Cell');
  const lathe = await aMachine(db, company, { name: 'Lathe', groupIds: [cell], sortOrder: 1 });
  const mill = await aMachine(db, company, { name: 'Mill', groupIds: [cell], sortOrder: 2 });
  const press = await aMachine(db, company, { name: 'Press', sortOrder: 3 });
  const scope = companyScope(db, company.id);
  const monday = shopDateOf(CLOCK, epochMs(range.start));
  const at = (i: number, h: number, m = 0) => companyDayStart(CLOCK, addDays(monday, i)) + (h * 60 + m) * MIN;

  await someStates(db, company, lathe, [
    [range.start, at(1, 6), 'INACTIVE'],
    [at(1, 6), at(1, 7, 5), 'ACTIVE'],
    [at(1, 7, 5), range.end, 'INACTIVE'],
  ]);
  await someStates(db, company, mill, [[range.start, range.end, 'INACTIVE']]);
  await someStates(db, company, press, [[range.start, range.end, 'INACTIVE']]);

  const jobId = crypto.randomUUID();
  const expected = 10 * MIN;
  const ideal = 8 * MIN;
  await scope
    .insertInto('jobs', {
      id: jobId,
      name: 'Flange',
      erp_job_id: null,
      expected_cycle_time: expected,
      ideal_cycle_time: ideal,
      part_count_multiplier: 1,
      actual_parts: 1,
      setuptime: null,
      quantity: null,
      hidden: 0,
      created_at: range.start,
    })
    .execute();
  await scope
    .insertInto('job_runs', {
      id: crypto.randomUUID(),
      machine_id: lathe,
      job_id: jobId,
      job_machine_id: null,
      start_at: at(1, 6),
      end_at: at(1, 8),
      setup_mode: 'none',
      setup_end: at(1, 6),
      expected_cycle_time: expected,
      ideal_cycle_time: ideal,
      part_count_multiplier: 1,
      actual_parts: 1,
      reported_parts: null,
      required_cycles: null,
      part_behavior: 'one',
      expected_setup_ms: null,
      setup_note: null,
      created_at: at(1, 6),
    })
    .execute();
  const ends = [10, 20, 30, 40, 50, 65].map((m) => at(1, 6, m));
  await scope
    .insertInto(
      'cycles',
      ends.map((end, k) => {
        const start = k === 0 ? at(1, 6) : ends[k - 1]!;
        return {
          machine_id: lathe,
          start_at: start,
          end_at: end,
          duration: end - start,
          count: 1,
          source: 'part_count',
          setup: 0,
        };
      }),
    )
    .execute();

  const burr = await aRejectReason(db, company, { name: 'Burr' });
  const dent = await aRejectReason(db, company, { name: 'Dent' });
  const porosity = await aRejectReason(db, company, { name: 'Porosity', reject_behavior: 'nonconform' });
  const reject = (
    machine: string,
    type: { id: string; reject_behavior: string | null },
    when: number,
    n = 1,
  ) => ({
    id: crypto.randomUUID(),
    machine_id: machine,
    adjustment_time: when,
    type_id: type.id,
    scrapcount: n,
    count: 0,
    message: null,
    reject_behavior: type.reject_behavior === 'nonconform' ? ('nonconform' as const) : ('scrap' as const),
    deduct_from_good_parts: 1,
    job_run_id: null,
    kind: 'reject' as const,
    created_by: null,
    created_at: when,
  });
  const rows = [
    reject(lathe, burr, at(1, 6, 25)),
    ...Array.from({ length: BURR.lathe - 1 }, (_, k) => reject(lathe, burr, at(2, 8, k * 10))),
    ...Array.from({ length: BURR.mill }, (_, k) => reject(mill, burr, at(3, 8, k * 10))),
    ...Array.from({ length: 4 }, (_, k) => reject(mill, dent, at(4, 9, k * 10), 2)),
    ...Array.from({ length: 3 }, (_, k) => reject(press, porosity, at(4, 10, k * 10))),
  ];
  await scope.insertInto('part_adjustments', rows).execute();
  for (const machineId of [lathe, mill, press])
    await recomputeRollups(db, { companyId: company.id, machineId, from: range.start, to: range.end, now });
  return { email: user.email, password: user.password, lathe, burr: burr.id } satisfies Plant;
}

// ---- Reading the page (role-based: STYLE.md)

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const section = (page: Page, name: string | RegExp) =>
  page.getByRole('region', { name, exact: typeof name === 'string' });

function tableRows(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.trim() ?? '')),
    );
}

const rejectList = (page: Page) => page.locator('section:has(#rejects-heading)');

async function settled(page: Page) {
  await expect.poll(() => page.locator('[aria-busy="true"]').count(), POLL).toBe(0);
  await expect.poll(() => page.locator('.report__body [role="progressbar"]').count(), POLL).toBe(0);
}

async function clickChart(chart: Locator, fx: number, fy: number) {
  const canvas = chart.locator('canvas');
  const box = await canvas.boundingBox();
  if (!box) throw new Error('chart not drawn');
  await canvas.click({ position: { x: box.width * fx, y: box.height * fy } });
}

describe.each(DIALECTS)('the Quality and Cycles reports in Chromium on %s', (dialect) => {
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

  it('opens from /app/reports, applies Last week and shows the top reject reason with its count', async () => {
    await page.goto(`${product.url}/app/reports`);
    await page.getByLabel('Email').fill(plant.email);
    await page.getByLabel('Password').fill(plant.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('link', { name: /^Quality/ }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/quality');
    await expect.poll(() => heading(page).textContent(), POLL).toBe('Quality Report for All Machines');

    await page.getByRole('button', { name: /^Date range:/ }).click();
    const menu = page.getByRole('dialog', { name: 'Date range' });
    await menu.getByRole('button', { name: 'Last week', exact: true }).click();
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('quicklink')).toBe('last-week');
    const q = new URL(page.url()).searchParams;
    expect([Number(q.get('start')), Number(q.get('end'))]).toEqual([range.start, range.end]);
    await settled(page);

    const reasons = section(page, 'Rejects by reason').getByRole('table');
    await expect
      .poll(() => tableRows(reasons), POLL)
      .toEqual([
        ['Burr', '30', '73.2%'],
        ['Dent', '8', '92.7%'],
        ['Porosity', '3', '100.0%'],
      ]);
    await expect
      .poll(() => tableRows(section(page, 'Rejects by machine').getByRole('table')), POLL)
      .toEqual([
        ['Mill', '20'],
        ['Lathe', '18'],
        ['Press', '3'],
      ]);
    // The list: 37 rejects (41 parts), newest first, 25 a page (reports-admin §9).
    await expect
      .poll(() => rejectList(page).getByRole('status').textContent(), POLL)
      .toBe('Rejects 1–25 of 37');
    mkdirSync(ARTIFACTS, { recursive: true });
    if (dialect === 'sqlite') await screenshots(page, 'quality-report');
  }, 120_000);

  it('drills into the top reason, pages its rejects and downloads the same rows as CSV', async () => {
    await clickChart(section(page, 'Rejects by reason').locator('figure'), 0.2, 0.5);
    await expect.poll(() => new URL(page.url()).searchParams.get('reason')).toBe(plant.burr);
    const byMachine = section(page, 'Rejects by machine: Burr');
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
    if (dialect === 'sqlite') await screenshots(page, 'quality-report-burr');

    const link = byMachine.getByRole('link', { name: 'Download CSV' });
    await expect.poll(() => link.count(), POLL).toBe(1);
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^\/api\/partadjustment\/allRejectsByCategory\?.*category_id=.*&format=csv&token=/);
    const res = await page.request.get(`${product.url}${href}`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('text/csv');
    const csv = (await res.text())
      .trim()
      .split(/\r?\n/)
      .map((l) => l.split(','));
    expect(csv[0]).toEqual(['Reason', 'Machine', 'Scrap Count']);
    expect(csv.slice(1).map((r) => [r[1], r[2]])).toEqual(await tableRows(byMachine.getByRole('table')));
    expect(csv.slice(1).every((r) => r[0] === 'Burr')).toBe(true);
  }, 60_000);

  it("opens the Lathe's Cycles report from the OEE waterfall's performance step, the slow cycle marked", async () => {
    await page.goto(`${product.url}/dashboard/oee?interval=day&start=${range.start}&end=${range.end}`);
    await expect.poll(() => heading(page).textContent(), POLL).toBe('OEE Report for All Machines');
    await settled(page);
    const losses = section(page, 'Where the time went');
    // All machines: the step opens the machine with the lowest Performance, the only one that ran.
    const step = losses.getByRole('link', { name: 'Performance loss (slow cycles)' });
    await expect.poll(() => step.count(), POLL).toBe(1);
    await expect
      .poll(() => losses.getByRole('link', { name: 'Quality loss (rejected parts)' }).getAttribute('href'))
      .toBe(`/dashboard/quality?start=${range.start}&end=${range.end}`);
    await step.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/machine/${plant.lathe}/cycles`);
    await expect.poll(() => heading(page).textContent(), POLL).toBe('Cycles Report for Lathe');
    await settled(page);

    const grid = section(page, 'Cycles').getByRole('table');
    await expect.poll(() => tableRows(grid).then((r) => r.length), POLL).toBe(6);
    const rows = await tableRows(grid);
    expect(rows.map((r) => r.slice(1))).toEqual([
      ['10:00', '10:00', '8:00', '1', '0', '0', 'Flange'],
      ['10:00', '10:00', '8:00', '1', '0', '0', 'Flange'],
      ['10:00', '10:00', '8:00', '1', '1', '0', 'Flange'],
      ['10:00', '10:00', '8:00', '1', '0', '0', 'Flange'],
      ['10:00', '10:00', '8:00', '1', '0', '0', 'Flange'],
      ['Slow15:00', '10:00', '8:00', '1', '0', '0', 'Flange'],
    ]);
    expect(await grid.locator('tbody tr.row--slow').count()).toBe(1);
    await expect(section(page, 'Cycles').getByRole('status').textContent()).resolves.toBe('6 cycles, 1 slow');

    // reports-admin §2: a machine report's quick links reach one week at most.
    await page.getByRole('button', { name: /^Date range:/ }).click();
    const menu = page.getByRole('dialog', { name: 'Date range' });
    await expect.poll(() => menu.getByRole('button', { name: 'Last week', exact: true }).count()).toBe(1);
    expect(await menu.getByRole('button', { name: 'Last month', exact: true }).count()).toBe(0);
    await page.keyboard.press('Escape');

    const link = section(page, 'Cycles').getByRole('link', { name: 'Download CSV' });
    await expect.poll(() => link.count(), POLL).toBe(1);
    const res = await page.request.get(`${product.url}${(await link.getAttribute('href'))!}`);
    expect(res.status()).toBe(200);
    const csv = (await res.text()).trim().split(/\r?\n/);
    expect(csv[0]).toBe('Time,Duration,Expected,Ideal,Parts,Scrap,Non-Conform,Operation');
    expect(csv).toHaveLength(7);
    if (dialect === 'sqlite') await screenshots(page, 'machine-cycles');
  }, 60_000);
});

async function screenshots(page: Page, name: string) {
  const desk = page.viewportSize();
  await page.screenshot({ path: join(ARTIFACTS, `${name}-1280x800.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(ARTIFACTS, `${name}-390x844.png`), fullPage: true });
  await page.setViewportSize(desk ?? { width: 1280, height: 800 });
  await page.waitForTimeout(300);
}
