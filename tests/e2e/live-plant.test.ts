import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEMO_LOGINS, DEMO_MANUAL_STATIONS, DEMO_PLANT } from '@takt/api';
import { launchChromium, logIn, startProduct } from './harness';
import type { RunningProduct } from './harness';
import { expectTilesFollow } from './tile-follow';

// A fresh product on SQLite with the simulated plant, seen through Chromium.
const MACHINES: string[] = DEMO_PLANT.flatMap((g) => [...g.machines]);
/** Every work center of the demo: the simulated machines and the manual stations (no adapter). */
const WORK_CENTERS: string[] = [...MACHINES, ...DEMO_MANUAL_STATIONS.flatMap((g) => [...g.stations])];
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;

describe('the live plant in Chromium', () => {
  let product: RunningProduct;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    // Four times real speed: cycles of 7.5 s to 90 s, so changes come often but last long enough to see.
    [product, browser] = await Promise.all([startProduct({ TAKT_DEMO_SPEED: '4' }), launchChromium()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('asks for a login, then shows one tile per machine', async () => {
    await page.goto(`${product.url}/dashboards/live/utilization`);
    await logIn(page, admin);
    const tiles = page.locator('article[data-status]');
    await expect.poll(() => tiles.count(), { timeout: 15_000 }).toBe(WORK_CENTERS.length);
    for (const name of WORK_CENTERS)
      await expect.poll(() => page.locator(`article[aria-label="${name}"]`).count()).toBe(1);
  }, 60_000);

  it('follows each simulated adapter: a tile changes within 10 s of its machine', async () => {
    // Sampled for 40 s at most; done once four changes have lasted 10 s (decision 1195).
    await expectTilesFollow(page, MACHINES, product.demoPortBase, {
      windowMs: 40_000,
      atLeast: 2,
      enough: 4,
    });
  }, 90_000);

  it('opens the workcenter card of a machine with its name, status and time in state', async () => {
    const res = await page.request.get(`${product.url}/api/dashboard`);
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { machines: Array<{ id: string; name: string }> };
    const machine = body.machines[0]!;
    await page.goto(`${product.url}/${machine.id}`);
    const card = page.getByRole('main', { name: `Workcenter ${machine.name}` });
    await expect
      .poll(() => card.getByRole('heading', { name: machine.name }).count(), { timeout: 10_000 })
      .toBe(1);
    const status = card.getByRole('status').first();
    await expect
      .poll(async () => (await status.textContent())?.trim() ?? '', { timeout: 10_000 })
      .toMatch(/Active|Idle|Fault|Disconnected|Not Reported|Never Reported|Setup/);
  }, 30_000);

  it('lists the machines in the office app', async () => {
    await page.goto(`${product.url}/app/machines`);
    await expect.poll(() => page.getByRole('row').count(), { timeout: 10_000 }).toBe(1 + WORK_CENTERS.length); // header + one row each
  }, 30_000);

  it('answers 401 to the API without a session', async () => {
    const res = await fetch(`${product.url}/api/dashboard`);
    expect(res.status).toBe(401);
    expect(res.headers.get('mm-api-version')).toBeTruthy();
  });
});
