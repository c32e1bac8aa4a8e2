// What the office report tests share (reports-admin §2): a plant seeded last week in America/Chicago, the
// product and Chromium around it, logging in from /app/reports, applying "Last week", reading tables and
// charts by role (STYLE.md), CSV downloads and screenshots at desk and phone widths.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { addDays, companyDayStart, epochMs, quickLinks, shopDateOf } from '@takt/domain';
import type { CompanyClock } from '@takt/domain';
import { companyScope } from '@takt/db';
import type { Database } from '@takt/db';
import { freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import type { Kysely } from 'kysely';
import { aCompany, aGroup, aMachine, aUser } from '../../services/api/src/testing/builders';
import { MIN } from '../../services/api/src/testing/downtime-builders';
import { launchChromium, logIn, startProduct } from './harness';
import type { RunningProduct } from './harness';

export const CLOCK: CompanyClock = { timezone: 'America/Chicago' };
export const POLL = { timeout: 20_000, interval: 200 } as const;

export interface Span {
  start: number;
  end: number;
}

/** "Last week" as the picker computes it (decision 0104: the whole ISO week before this one). */
export function lastWeek(now: number): Span {
  const link = quickLinks(CLOCK, 'day', epochMs(now)).find((l) => l.label === 'Last week');
  if (!link) throw new Error('no Last week quick link');
  return { start: link.start, end: link.end };
}

/**
 * The company every office report test seeds: Acme Machining with a manager, the Lathe and the Mill in group
 * Cell and the Press in none, in that order; `at` is a local time on weekday i (0 = Monday) of the week.
 */
export async function anOfficePlant(db: Kysely<Database>, week: Span) {
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
  const monday = shopDateOf(CLOCK, epochMs(week.start));
  const at = (i: number, h: number, m = 0) => companyDayStart(CLOCK, addDays(monday, i)) + (h * 60 + m) * MIN;
  return { company, user, cell, lathe, mill, press, at, scope: companyScope(db, company.id) };
}

/** What the tests of one describe share, filled in by its beforeAll, and the page read by role (STYLE.md). */
export interface OfficeSession<P> {
  db: TestDb;
  product: RunningProduct;
  browser: Browser;
  page: Page;
  plant: P;
  week: Span;
  /** The report's title. */
  heading(): Locator;
  /** A report section by its heading (a RegExp matches a heading that goes on). */
  section(name: string | RegExp): Locator;
  /** Waits until nothing loads: the page and each list mark themselves busy while their answer loads. */
  settled(): Promise<void>;
  /** Logs in on /app/reports and opens the report whose link `link` names. */
  openFromReports(link: RegExp): Promise<void>;
  /**
   * Picks "Last week" in the date range menu and applies it: the URL then carries the quick link and the
   * week. `inMenu` looks at the open menu first; `beforeApply` at the page between the pick and Apply.
   */
  applyLastWeek(look?: {
    inMenu?: (menu: Locator) => Promise<void>;
    beforeApply?: (menu: Locator) => Promise<void>;
  }): Promise<URLSearchParams>;
  /**
   * The CSV behind a "Download CSV" link (reports-admin §7: the URL carries the user token), its href
   * matching `href`, as rows of cells; answered 200 as text/csv.
   */
  downloadCsv(link: Locator, href: RegExp): Promise<string[][]>;
  /**
   * Full-page screenshots into test-results/{folder}/ (gitignored) at a desk (1280×800) and a phone (390×844)
   * width; with `screens`, the phone page screen by screen too, as a phone shows it.
   */
  screenshots(name: string, screens?: boolean): Promise<void>;
}

/**
 * A fresh database of `dialect` seeded with `seed` for last week, the product on it (no demo plant, no
 * ingest unless `env` turns it on) and a Chromium page at desk width: set up before the describe's tests,
 * torn down after.
 */
export function officeSession<P extends { email: string; password: string }>(
  dialect: Parameters<typeof freshDb>[0],
  folder: string,
  seed: (db: Kysely<Database>, week: Span, now: number) => Promise<P>,
  env: Record<string, string> = {},
): OfficeSession<P> {
  const s: OfficeSession<P> = {
    week: lastWeek(Date.now()),
    heading: () => s.page.getByRole('heading', { level: 1 }),
    section: (name) => s.page.getByRole('region', { name, exact: typeof name === 'string' }),
    async settled() {
      await expect.poll(() => s.page.locator('[aria-busy="true"]').count(), POLL).toBe(0);
      await expect.poll(() => s.page.locator('.report__body [role="progressbar"]').count(), POLL).toBe(0);
    },
    async openFromReports(link) {
      await s.page.goto(`${s.product.url}/app/reports`);
      await logIn(s.page, s.plant);
      await s.page.getByRole('link', { name: link }).click();
    },
    async applyLastWeek(look = {}) {
      const { page } = s;
      await page.getByRole('button', { name: /^Date range:/ }).click();
      const menu = page.getByRole('dialog', { name: 'Date range' });
      await look.inMenu?.(menu);
      await menu.getByRole('button', { name: 'Last week', exact: true }).click();
      await look.beforeApply?.(menu);
      await page.getByRole('button', { name: 'Apply', exact: true }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('quicklink')).toBe('last-week');
      const q = new URL(page.url()).searchParams;
      expect([Number(q.get('start')), Number(q.get('end'))]).toEqual([s.week.start, s.week.end]);
      return q;
    },
    async downloadCsv(link, href) {
      await expect.poll(() => link.count(), POLL).toBe(1);
      const url = (await link.getAttribute('href'))!;
      expect(url).toMatch(href);
      const res = await s.page.request.get(`${s.product.url}${url}`);
      expect(res.status()).toBe(200);
      expect(res.headers()['content-type']).toContain('text/csv');
      return (await res.text())
        .trim()
        .split(/\r?\n/)
        .map((l) => l.split(','));
    },
    screenshots: (name, screens = false) => screenshots(s.page, folder, name, screens),
  } as OfficeSession<P>;
  beforeAll(async () => {
    s.db = await freshDb(dialect);
    s.plant = await seed(s.db.db, s.week, Date.now());
    [s.product, s.browser] = await Promise.all([
      startProduct({ DATABASE_URL: s.db.url, TAKT_DEMO: '0', TAKT_INGEST: '0', ...env }),
      launchChromium(),
    ]);
    s.page = await s.browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  }, 120_000);
  afterAll(async () => {
    await s.browser?.close();
    await s.product?.stop();
    await s.db?.cleanup();
  });
  return s;
}

// ---- Reading the page (role-based: STYLE.md)

/** A table's body rows as arrays of cell texts (row header first). */
export function tableRows(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.trim() ?? '')),
    );
}

/**
 * The main navigation with its More menu open (decision 1152: API keys, Users and Internal are under More at
 * desk width, so the header keeps one row).
 */
export async function moreOf(page: Page): Promise<Locator> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: 'More' }).click();
  return nav;
}

/** Opens the user's menu in the header (Signed in as, E-mail, Anonymize, Log out; decision 1152). */
export async function openAccountMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Account: / }).click();
}

/** Drags `handle` by mouse to just below the top of `target` (a sortable list's drop above that row). */
export async function dragAbove(page: Page, handle: Locator, target: Locator) {
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, to.y + 4, { steps: 8 });
  await page.mouse.up();
}

/** Clicks a chart's canvas at a fraction of its size (the charts open what lies under the pointer's row). */
export async function clickChart(chart: Locator, fx: number, fy: number) {
  const canvas = chart.locator('canvas');
  const box = await canvas.boundingBox();
  if (!box) throw new Error('chart not drawn');
  await canvas.click({ position: { x: box.width * fx, y: box.height * fy } });
}

/** Full-page screenshots of `page` into test-results/{folder}/ at 1280×800 and 390×844 (see OfficeSession). */
export async function screenshots(page: Page, folder: string, name: string, screens = false) {
  const dir = fileURLToPath(new URL(`../../test-results/${folder}/`, import.meta.url));
  mkdirSync(dir, { recursive: true });
  const desk = page.viewportSize();
  await page.screenshot({ path: join(dir, `${name}-1280x800.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // Charts redraw on resize.
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(dir, `${name}-390x844.png`), fullPage: true });
  const height = screens ? await page.evaluate(() => document.documentElement.scrollHeight) : 0;
  for (let y = 0, n = 1; y < height; y += 844, n++)
    await page.screenshot({
      path: join(dir, `${name}-390x844-${String(n)}.png`),
      fullPage: true,
      clip: { x: 0, y, width: 390, height: Math.min(844, height - y) },
    });
  await page.setViewportSize(desk ?? { width: 1280, height: 800 });
  await page.waitForTimeout(300);
}

/**
 * The database an office browser test runs on (decision 0871): every API test runs on both dialects, so each
 * browser test runs on one, half the files on each, and every run still drives both through Chromium.
 */
export const ON_POSTGRES = ['postgres'] as const;
export const ON_SQLITE = ['sqlite'] as const;
