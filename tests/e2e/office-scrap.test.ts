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
import { freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import type { Kysely } from 'kysely';
import { aCompany, aMachine, aUser } from '../../services/api/src/testing/builders';
import { aRejectReason, MIN, someStates } from '../../services/api/src/testing/downtime-builders';
import { aShift } from '../../services/api/src/testing/live-builders';
import { launchChromium, logIn, startProduct } from './harness';
import type { RunningProduct } from './harness';
import { ON_POSTGRES } from './office-harness';

// The scrap form of the machine quality screen (reports-admin §2 "Machine quality", §4 "Scrap form: create,
// edit, delete; closing a dirty form asks confirmation", §5 scrap rules, §8 "Scrap save failure: server error
// list or single message in the form") in Chromium on PostgreSQL (decision 0871). A manager opens
// /machine/{id}/quality with adjustmenttime and qty (what the Cycles report's Reject Part opens), rejects two
// parts; the reject shows in the grid, in the Quality report, and lowers Quality on the OEE report by the
// hand-computed amount; then edits it, meets the dirty-close confirmation and a server error list, and deletes
// it. Screenshots at desk and phone widths go to test-results/office-scrap/ (gitignored).

const ARTIFACTS = fileURLToPath(new URL('../../test-results/office-scrap/', import.meta.url));
const CLOCK: CompanyClock = { timezone: 'America/Chicago' };
const POLL = { timeout: 20_000, interval: 200 } as const;

function lastWeek(now: number): { start: number; end: number } {
  const link = quickLinks(CLOCK, 'day', epochMs(now)).find((l) => l.label === 'Last week');
  if (!link) throw new Error('no Last week quick link');
  return { start: link.start, end: link.end };
}

// The plant, last week, Day shift 06:00–14:00: only the Lathe runs, Tuesday 06:00–09:20, job Flange, 20
// cycles of 10 min, one part each. Quality (METRICS.md §3) = good / total = 20 / 20 before any reject.
// - Reject 2 parts removed from good parts (count 0): good 18 of 20 → 90.0 %.
// - Edited to 3 parts, non-conforming, not removed from good parts (count 3): good 20 of 23 → 87.0 %.
// - Deleted: 100.0 % again.
const PARTS = 20;
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

interface Plant {
  email: string;
  password: string;
  lathe: string;
  /** The end of the Lathe's third cycle: what its Reject Part row action sends as adjustmenttime. */
  cycleEnd: number;
  dent: string;
  companyId: string;
}

async function seedPlant(db: Kysely<Database>, range: { start: number; end: number }, now: number) {
  const company = await aCompany(db, {
    name: 'Acme Machining',
    timezone: CLOCK.timezone,
    productTier: 'full',
  });
  const user = await aUser(db, company, { role: 'manager', displayName: 'Maria Manager' });
  await aShift(db, company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 840 });
  const lathe = await aMachine(db, company, { name: 'Lathe', sortOrder: 1 });
  const scope = companyScope(db, company.id);
  const monday = shopDateOf(CLOCK, epochMs(range.start));
  const at = (i: number, h: number, m = 0) => companyDayStart(CLOCK, addDays(monday, i)) + (h * 60 + m) * MIN;
  await someStates(db, company, lathe, [
    [range.start, at(1, 6), 'INACTIVE'],
    [at(1, 6), at(1, 9, 20), 'ACTIVE'],
    [at(1, 9, 20), range.end, 'INACTIVE'],
  ]);
  const jobId = crypto.randomUUID();
  await scope
    .insertInto('jobs', {
      id: jobId,
      name: 'Flange',
      erp_job_id: null,
      expected_cycle_time: 10 * MIN,
      ideal_cycle_time: 8 * MIN,
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
      end_at: at(1, 10),
      setup_mode: 'none',
      setup_end: at(1, 6),
      expected_cycle_time: 10 * MIN,
      ideal_cycle_time: 8 * MIN,
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
  const ends = Array.from({ length: PARTS }, (_, k) => at(1, 6, (k + 1) * 10));
  await scope
    .insertInto(
      'cycles',
      ends.map((end) => ({
        machine_id: lathe,
        start_at: end - 10 * MIN,
        end_at: end,
        duration: 10 * MIN,
        count: 1,
        source: 'part_count',
        setup: 0,
      })),
    )
    .execute();
  await aRejectReason(db, company, { name: 'Burr', color: '#b3261e' });
  await aRejectReason(db, company, { name: 'Judgement', reject_behavior: 'operator', color: '#1f5fbf' });
  const dent = await aRejectReason(db, company, { name: 'Dent', color: '#7a4f01' });
  await recomputeRollups(db, {
    companyId: company.id,
    machineId: lathe,
    from: range.start,
    to: range.end,
    now,
  });
  return {
    email: user.email,
    password: user.password,
    lathe,
    cycleEnd: ends[2]!,
    dent: dent.id,
    companyId: company.id,
  } satisfies Plant;
}

// ---- Reading the page (role-based: STYLE.md)

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const grid = (page: Page) => page.getByRole('table', { name: 'Scrap' });
const form = (page: Page, name: string) => page.getByRole('dialog', { name });

function tableRows(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.trim() ?? '')),
    );
}

async function settled(page: Page) {
  await expect.poll(() => page.locator('[aria-busy="true"]').count(), POLL).toBe(0);
  await expect.poll(() => page.locator('.report__body [role="progressbar"]').count(), POLL).toBe(0);
}

/** The OEE report's tiles (or the machine quality screen's) as label → value. */
async function oeeTiles(
  page: Page,
  region = 'OEE and its factors for the range',
): Promise<Record<string, string>> {
  return page
    .getByRole('region', { name: region })
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

const timeText = (t: number) =>
  new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    timeZone: CLOCK.timezone,
  }).format(t);

describe.each(ON_POSTGRES)('the scrap form in Chromium on %s', (dialect) => {
  let db: TestDb;
  let product: RunningProduct;
  let browser: Browser;
  let page: Page;
  let plant: Plant;
  const range = lastWeek(Date.now());
  const dates = `start=${range.start}&end=${range.end}`;
  const qualityPath = () => `/machine/${plant.lathe}/quality?interval=day&${dates}`;

  async function oeeQuality(): Promise<string> {
    await page.goto(`${product.url}/dashboard/oee?interval=day&${dates}`);
    await expect.poll(() => heading(page).textContent(), POLL).toBe('OEE Report for All Machines');
    await settled(page);
    await expect.poll(async () => (await oeeTiles(page)).Quality ?? '', POLL).not.toBe('');
    return (await oeeTiles(page)).Quality!;
  }

  async function openQuality() {
    await page.goto(`${product.url}${qualityPath()}`);
    await expect.poll(() => heading(page).textContent(), POLL).toBe('Quality for Lathe');
    await settled(page);
  }

  beforeAll(async () => {
    db = await freshDb(dialect);
    plant = await seedPlant(db.db, range, Date.now());
    [product, browser] = await Promise.all([
      startProduct({ DATABASE_URL: db.url, TAKT_DEMO: '0', TAKT_INGEST: '0' }),
      launchChromium(),
    ]);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await db?.cleanup();
  });

  it('opens the form prefilled from a cycle and saves a reject that shows in the grid', async () => {
    await page.goto(`${product.url}${qualityPath()}&adjustmenttime=${plant.cycleEnd}&qty=1`);
    await logIn(page, plant);
    await expect.poll(() => heading(page).textContent(), POLL).toBe('Quality for Lathe');

    const f = form(page, 'Reject Parts');
    await expect.poll(() => f.count(), POLL).toBe(1);
    await expect(f.getByText('Filled in from the cycle you selected.').count()).resolves.toBe(1);
    // The cycle's end in company time, and its one part.
    const wall = new Intl.DateTimeFormat('sv-SE', {
      dateStyle: 'short',
      timeStyle: 'short',
      timeZone: CLOCK.timezone,
    })
      .format(plant.cycleEnd)
      .replace(' ', 'T');
    expect(await f.getByLabel('Time', { exact: true }).inputValue()).toBe(wall);
    expect(await f.getByLabel('Count', { exact: true }).inputValue()).toBe('1');
    // reports-admin §5: count min 1; a reason is needed; Save stays disabled until the form is valid.
    const save = f.getByRole('button', { name: 'Save' });
    await f.getByLabel('Count', { exact: true }).fill('0');
    await expect.poll(() => f.getByText('Count must be at least 1').count()).toBe(1);
    expect(await save.isDisabled()).toBe(true);
    await f.getByLabel('Count', { exact: true }).fill('2');
    await f.getByLabel('Reason').selectOption({ label: 'Burr' });
    // Burr rejects as Scrap: the type is shown and not editable (only reject_behavior operator is).
    expect(await f.getByRole('radio', { name: 'Scrap' }).isChecked()).toBe(true);
    expect(await f.getByRole('radio', { name: 'Scrap' }).isDisabled()).toBe(true);
    expect(await f.getByText('Set by the reason: Scrap.').count()).toBe(1);
    expect(await f.getByRole('checkbox', { name: 'Remove from good parts' }).isChecked()).toBe(true);
    await f.getByLabel('Message').fill('Burr on the bore');
    await screenshots(page, 'scrap-form-new');

    const posted = page.waitForRequest(
      (r) => r.url().endsWith('/api/partadjustment') && r.method() === 'POST',
    );
    await save.click();
    // reports-admin §5: removed from good parts, so the count sent is 0.
    expect((await posted).postDataJSON()).toMatchObject({
      machine_id: plant.lathe,
      adjustmenttime: plant.cycleEnd,
      scrapcount: 2,
      count: 0,
      deductFromGoodParts: true,
      scrap: true,
    });
    await expect.poll(() => f.count(), POLL).toBe(0);
    await expect
      .poll(() => tableRows(grid(page)), POLL)
      .toEqual([[timeText(plant.cycleEnd), 'Flange', '2', 'Burr', 'Burr on the bore', 'Scrap']]);
    // The machine's own Quality tile moves at once: good 18 of 20.
    await expect
      .poll(async () => (await oeeTiles(page, 'Rejects of this machine in the range')).Quality, POLL)
      .toBe(pct((PARTS - 2) / PARTS));
    // The prefill is spent: a reload does not open the form again.
    expect(new URL(page.url()).searchParams.has('adjustmenttime')).toBe(false);
    await screenshots(page, 'machine-quality');
  }, 120_000);

  it('shows the reject in the Quality report and lowers Quality on the OEE report by 2 / 20', async () => {
    await page.goto(`${product.url}/dashboard/quality?interval=day&${dates}`);
    await expect.poll(() => heading(page).textContent(), POLL).toBe('Quality Report for All Machines');
    await settled(page);
    await expect
      .poll(() => tableRows(page.getByRole('region', { name: 'Rejects by reason' }).getByRole('table')), POLL)
      .toEqual([['Burr', '2', '100.0%']]);
    expect(await oeeQuality()).toBe(pct((PARTS - 2) / PARTS)); // 90.0%
  }, 60_000);

  it('edits the reject from its row: operator reason, Non-Conforming, not removed from good parts', async () => {
    await openQuality();
    await grid(page)
      .getByRole('row', { name: /Burr on the bore/ })
      .click();
    const f = form(page, 'Edit Reject');
    await expect.poll(() => f.count(), POLL).toBe(1);
    expect(await f.getByLabel('Count', { exact: true }).inputValue()).toBe('2');

    // reports-admin §4: closing a dirty form asks first; Keep editing keeps the change.
    await f.getByLabel('Count', { exact: true }).fill('3');
    await f.getByRole('button', { name: 'Cancel' }).click();
    await expect
      .poll(() => f.getByText('You have unsaved changes. Close the form and lose them?').count())
      .toBe(1);
    await f.getByRole('button', { name: 'Keep editing' }).click();
    expect(await f.getByLabel('Count', { exact: true }).inputValue()).toBe('3');

    // Judgement lets the user choose the type (reject_behavior operator).
    await f.getByLabel('Reason').selectOption({ label: 'Judgement' });
    expect(await f.getByRole('radio', { name: 'Non-Conforming' }).isDisabled()).toBe(false);
    await f.getByRole('radio', { name: 'Non-Conforming' }).check();
    await f.getByRole('checkbox', { name: 'Remove from good parts' }).uncheck();
    await screenshots(page, 'scrap-form-edit');
    const put = page.waitForRequest((r) => r.method() === 'PUT');
    await f.getByRole('button', { name: 'Save' }).click();
    // Not removed from good parts: count = scrap count.
    expect((await put).postDataJSON()).toMatchObject({
      scrapcount: 3,
      count: 3,
      deductFromGoodParts: false,
      reject_behavior: 'nonconform',
    });
    await expect
      .poll(() => tableRows(grid(page)), POLL)
      .toEqual([
        [timeText(plant.cycleEnd), 'Flange', '3', 'Judgement', 'Burr on the bore', 'Non-Conforming'],
      ]);
    expect(await oeeQuality()).toBe(pct(PARTS / (PARTS + 3))); // 87.0%
  }, 60_000);

  it('closes a dirty form only after confirmation, and lists the server errors of a failed save', async () => {
    await openQuality();
    await page.getByRole('button', { name: 'Reject Parts' }).click();
    const f = form(page, 'Reject Parts');
    await f.getByLabel('Reason').selectOption({ label: 'Dent' });
    await page.keyboard.press('Escape');
    await expect.poll(() => f.getByRole('button', { name: 'Close without saving' }).count()).toBe(1);
    await f.getByRole('button', { name: 'Close without saving' }).click();
    await expect.poll(() => f.count(), POLL).toBe(0);
    expect(await tableRows(grid(page))).toHaveLength(1);

    // Dent is archived while the form is open: the server refuses with its list (reports-admin §8).
    await page.getByRole('button', { name: 'Reject Parts' }).click();
    await f.getByLabel('Reason').selectOption({ label: 'Dent' });
    await f
      .getByLabel('Time', { exact: true })
      .fill(
        new Intl.DateTimeFormat('sv-SE', { dateStyle: 'short', timeStyle: 'short', timeZone: CLOCK.timezone })
          .format(plant.cycleEnd + 30 * MIN)
          .replace(' ', 'T'),
      );
    await companyScope(db.db, plant.companyId)
      .updateTable('part_adjustment_types')
      .set({ hidden: 1 })
      .where('id', '=', plant.dent)
      .execute();
    await f.getByRole('button', { name: 'Save' }).click();
    const alert = f.getByRole('alert');
    await expect.poll(() => alert.locator('p').textContent(), POLL).toBe('Parts could not be rejected.');
    expect(await alert.getByRole('listitem').allTextContents()).toEqual(['This reject reason is archived.']);
    await screenshots(page, 'scrap-form-error');
    await f.getByRole('button', { name: 'Cancel' }).click();
    await f.getByRole('button', { name: 'Close without saving' }).click();
    await expect.poll(() => f.count(), POLL).toBe(0);
  }, 60_000);

  it('deletes the reject after "Are you sure?", and Quality is back to 100 %', async () => {
    await openQuality();
    await grid(page)
      .getByRole('button', { name: `Edit the entry of ${timeText(plant.cycleEnd)}` })
      .press('Enter');
    const f = form(page, 'Edit Reject');
    await f.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => f.getByText('Are you sure? This entry will be deleted.').count()).toBe(1);
    await f.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => f.count(), POLL).toBe(0);
    await expect.poll(() => page.getByText('No rejects in this range.').count(), POLL).toBe(1);
    expect(await oeeQuality()).toBe(pct(1)); // 100.0%
  }, 60_000);

  it("corrects the Lathe's count from a cycle's Correct Part (app/machines/{id}/part-corrections)", async () => {
    await page.goto(
      `${product.url}/app/machines/${plant.lathe}/part-corrections?interval=day&${dates}&adjustmenttime=${plant.cycleEnd}&qty=1`,
    );
    await expect.poll(() => heading(page).textContent(), POLL).toBe('Part corrections for Lathe');
    const f = form(page, 'Correct Parts');
    await expect.poll(() => f.count(), POLL).toBe(1);
    const count = f.getByLabel('Parts to add (+) or take away (−)');
    expect(await count.inputValue()).toBe('1');
    await count.fill('0');
    await expect.poll(() => f.getByText('Count must be a whole number other than 0.').count()).toBe(1);
    await count.fill('-1');
    await f.getByLabel('Message').fill('Sensor counted one part twice');
    const posted = page.waitForRequest(
      (r) => r.url().endsWith('/api/partadjustment') && r.method() === 'POST',
    );
    await f.getByRole('button', { name: 'Save' }).click();
    expect((await posted).postDataJSON()).toMatchObject({ count: -1, scrap: false, category_id: null });
    await expect
      .poll(() => tableRows(page.getByRole('table', { name: 'Part corrections' })), POLL)
      .toEqual([[timeText(plant.cycleEnd), 'Flange', '−1', 'No reason', 'Sensor counted one part twice']]);
    // 19 parts, none rejected: Quality stays 100.0 %.
    await expect
      .poll(() => oeeTiles(page, 'Rejects of this machine in the range'), POLL)
      .toMatchObject({ Quality: pct(1), 'Net correction': '−1' });
    await screenshots(page, 'part-corrections');
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
