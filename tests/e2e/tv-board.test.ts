import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_LOGINS, DEMO_MANUAL_STATIONS } from '@takt/api';
import { freePorts, launchChromium, startProduct } from './harness';
import type { RunningProduct } from './harness';

// Issue 28 point 3 (decisions 1041, 1042): a TV is registered like a tablet and opens its live board without a
// person's login; every board lays all its tiles on a 1920 × 1080 screen at 48 machines, no figure cut.
const MACHINE_COUNT = 48;
const TILE_COUNT = MACHINE_COUNT + DEMO_MANUAL_STATIONS.flatMap((g) => g.stations).length;
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;
const POLL = { timeout: 30_000, interval: 250 } as const;

/** Tiles whose box leaves the screen, cut figures, names and statuses, and whether the page scrolls. */
const layoutProblems = (page: Page) =>
  page.evaluate(() => {
    const tiles = [...document.querySelectorAll('article[data-status]')];
    const outside = tiles
      .filter((t) => {
        const r = t.getBoundingClientRect();
        return r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5;
      })
      .map((t) => t.getAttribute('aria-label'));
    const cut = [...document.querySelectorAll('article[data-status] dd, article[data-status] .fit-text')]
      .filter((e) => e.scrollWidth > e.clientWidth)
      .map((e) => e.textContent);
    // A name or status that needs more lines than it has, and tiles whose content runs past their bottom
    // (the Downtime tile's No data and buttons, decision 1081).
    const clipped = [
      ...document.querySelectorAll('article[data-status] :is(.tile__name, .tile__description)'),
    ]
      .filter((e) => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1)
      .map((e) => e.textContent);
    const spilled = tiles
      .filter((t) => {
        const bottom = t.getBoundingClientRect().bottom + 1;
        return [...t.children].some((c) => c.getBoundingClientRect().bottom > bottom);
      })
      .map((t) => t.getAttribute('aria-label'));
    const scrolls =
      document.documentElement.scrollHeight > innerHeight ||
      document.documentElement.scrollWidth > innerWidth;
    return { tiles: tiles.length, outside, cut, clipped, spilled, scrolls };
  });

describe('a TV on the wall', () => {
  let product: RunningProduct;
  let browser: Browser;
  let tv: BrowserContext;
  let screen: Page;
  let adminCookie: string;

  beforeAll(async () => {
    const portBase = await freePorts(MACHINE_COUNT);
    [product, browser] = await Promise.all([
      startProduct({
        TAKT_DEMO_MACHINES: String(MACHINE_COUNT),
        TAKT_DEMO_PORT_BASE: String(portBase),
        TAKT_DEMO_DAYS: '0',
      }),
      launchChromium(),
    ]);
    tv = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    screen = await tv.newPage();
    const login = await fetch(`${product.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: product.url },
      body: JSON.stringify({ email: admin.email, password: admin.password }),
    });
    adminCookie = login.headers.get('set-cookie')!.split(';')[0]!;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  const asAdmin = (method: string, path: string, body: unknown) =>
    fetch(`${product.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: product.url, cookie: adminCookie },
      body: JSON.stringify(body),
    });

  it('is registered by the code it shows and opens its board with no one logged in, view only', async () => {
    await screen.goto(`${product.url}/tablet/register`);
    const shown = screen.locator('.tablet-register__value');
    await expect.poll(async () => (await shown.textContent()) ?? '', POLL).toMatch(/^[A-Z2-9]{6}$/);
    const code = (await shown.textContent())!;

    const res = await asAdmin('POST', '/api/tablets/associate', {
      code,
      remote_identifier: 'Hall TV',
      dashboardView: 'downtime',
    });
    expect(res.status).toBe(200);
    const tablet = (await res.json()) as { id: string };

    // Activated, it goes to its board in TV mode (no controls): no sign-in page on the way.
    await expect.poll(() => screen.url(), POLL).toContain('/dashboards/live/downtime?tv=1');
    await expect.poll(() => screen.locator('article[data-status]').count(), POLL).toBe(TILE_COUNT);
    expect(await screen.getByLabel('Password').count()).toBe(0);
    expect(await screen.getByRole('button', { name: 'Start Job' }).count()).toBe(0);
    // Its credential reads the board and nothing else.
    expect((await tv.request.get(`${product.url}/api/dashboard`)).status()).toBe(200);
    expect((await tv.request.get(`${product.url}/api/jobs`)).status()).toBe(403);

    // Every tile of 48 machines on the screen, every time in state whole ("0:10:…" never).
    await expect
      .poll(() => layoutProblems(screen), POLL)
      .toEqual({
        tiles: TILE_COUNT,
        outside: [],
        cut: [],
        clipped: [],
        spilled: [],
        scrolls: false,
      });

    // The admin gives it another board: it reloads and opens that one.
    expect((await asAdmin('PUT', `/api/tablets/${tablet.id}`, { dashboardView: 'utilization' })).status).toBe(
      200,
    );
    await expect.poll(() => screen.url(), POLL).toContain('/dashboards/live/utilization?tv=1');
    // Any other page leads back to its board.
    await screen.goto(`${product.url}/`);
    await expect.poll(() => screen.url(), POLL).toContain('/dashboards/live/utilization?tv=1');
    await expect.poll(() => screen.locator('article[data-status]').count(), POLL).toBe(TILE_COUNT);
    await expect
      .poll(() => layoutProblems(screen), POLL)
      .toEqual({
        tiles: TILE_COUNT,
        outside: [],
        cut: [],
        clipped: [],
        spilled: [],
        scrolls: false,
      });
  }, 180_000);
});
