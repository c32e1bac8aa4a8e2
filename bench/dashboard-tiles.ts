// `npm run bench dashboard-tiles`: how long the live dashboard takes to render and to update 200 tiles in
// Chromium, and how long its three API calls take with 50 scheduled machines. Figures are ratios against a
// baseline measured in the same run (an empty dashboard; GET /api/me), so they compare across machines.
// Not a test: it prints figures and fails only if the product cannot be driven at all.
import type { Page, Route } from 'playwright-core';
import { DEMO_LOGINS } from '@takt/api';
import { freePorts, launchChromium, startProduct } from '../tests/e2e/harness';

const TILES = 200;
const ROUNDS = 5;
const API_MACHINES = 50;
const API_CALLS = 20;
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A GET /api/dashboard element with every field the schema asks for. */
function fakeMachine(i: number, now: number, active: boolean) {
  return {
    id: `bench-${i}`,
    name: `Bench machine ${String(i + 1).padStart(3, '0')}`,
    status: active ? 'ACTIVE' : 'INACTIVE',
    statusSince: now - 60_000 - i * 1000,
    jobScheduleGroupId: `run-${i}`,
    jobId: `job-${i}`,
    pausedJobName: null,
    autostartBehavior: 'disabled',
    downtimefailuredelay: 5,
    progress: 80 + (i % 40),
    expectedParts: 100,
    actualParts: 80 + (i % 40),
    setupSince: null,
    jobRunSetupTime: null,
    stale: false,
    lastHeartbeat: now - 1000,
    faultSince: null,
    faultMessage: null,
    extendedStatus: active ? 'ACTIVE' : 'READY',
    extendedStatusSince: now - 60_000,
    setupEnd: now - 3_600_000,
    downtime_reason: null,
    scheduled: true,
    groupIds: [],
    program: `O${1000 + i}`,
    partCount: 1000 + i,
    connection: 'CONNECTED',
  };
}

/** Serves a synthetic plant of `count` machines; `active` flips every machine's state. */
class FakePlant {
  count = 0;
  active = true;
  /** Client time when the last /api/dashboard answer was handed to the browser. */
  servedAt = 0;

  async install(page: Page) {
    await page.route('**/api/dashboard?**', (r) => this.dashboard(r));
    await page.route('**/api/dashboard', (r) => this.dashboard(r));
    await page.route('**/api/dashboard/utilization**', (r) =>
      r.fulfill({
        json: Array.from({ length: this.count }, (_, i) => ({
          machineId: `bench-${i}`,
          start: Date.now() - 3_600_000,
          end: Date.now(),
          utilization: (i * 7) % 100,
          status: 'success',
          oee: (i * 3) % 100,
          availability: 90,
          performance: 80,
          quality: 99,
        })),
      }),
    );
    await page.route('**/api/dashboard/parts**', (r) =>
      r.fulfill({
        json: Array.from({ length: this.count }, (_, i) => ({
          machineId: `bench-${i}`,
          scheduled: true,
          jobId: `job-${i}`,
          jobScheduleGroupId: `run-${i}`,
          inSetup: false,
          setupSince: null,
          expectedParts: 100,
          actualParts: 80 + (i % 40),
          percent: 80 + (i % 40),
          aheadBehind: (i % 40) - 20,
          productionRuntimeMs: 3_600_000,
          status: 'success',
        })),
      }),
    );
  }

  private async dashboard(route: Route) {
    const now = Date.now();
    const body = {
      machines: Array.from({ length: this.count }, (_, i) => fakeMachine(i, now, this.active)),
      groups: [],
      now,
    };
    this.servedAt = performance.now();
    await route.fulfill({ json: body });
  }
}

/** Page load to ready, and the part of it after the machine list was answered. */
async function timeRender(
  page: Page,
  plant: FakePlant,
  url: string,
  ready: () => Promise<unknown>,
): Promise<{ load: number; fromData: number }> {
  await page.goto('about:blank');
  const t0 = performance.now();
  await page.goto(url);
  await ready();
  const t1 = performance.now();
  return { load: t1 - t0, fromData: t1 - plant.servedAt };
}

async function main() {
  const portBase = await freePorts(API_MACHINES);
  const [product, browser] = await Promise.all([
    startProduct({ TAKT_DEMO_MACHINES: String(API_MACHINES), TAKT_DEMO_PORT_BASE: String(portBase) }),
    launchChromium(),
  ]);
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(`${product.url}/`);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByLabel('Password').waitFor({ state: 'detached' });

    // ---- The API, on the real product: 50 machines, each with a job running.
    const headers = { origin: product.url, 'content-type': 'application/json' };
    const tiles = (await (await page.request.get(`${product.url}/api/dashboard`)).json()) as {
      machines: Array<{ id: string; scheduled: boolean }>;
    };
    for (const m of tiles.machines.filter((x) => !x.scheduled)) {
      const jobs = (await (
        await page.request.get(`${product.url}/api/jobs?machineId=${m.id}&limit=1`)
      ).json()) as { rows: Array<{ id: string }> };
      const job = jobs.rows[0];
      if (!job) continue;
      await page.request.post(`${product.url}/api/dispatch/start`, {
        headers,
        data: { id: m.id, jobId: job.id, setup: false, setupStageId: null },
      });
    }
    const timeGet = async (path: string) => {
      const xs: number[] = [];
      for (let i = 0; i < API_CALLS; i++) {
        const t0 = performance.now();
        const res = await page.request.get(`${product.url}${path}`);
        await res.body();
        xs.push(performance.now() - t0);
        if (!res.ok()) throw new Error(`${path}: ${res.status()}`);
      }
      return median(xs);
    };
    const scheduled = (
      (await (await page.request.get(`${product.url}/api/dashboard`)).json()) as {
        machines: Array<{ scheduled: boolean }>;
      }
    ).machines.filter((m) => m.scheduled).length;
    const me = await timeGet('/api/me');
    const apiRows = [
      ['GET /api/dashboard', await timeGet('/api/dashboard')],
      ['GET /api/dashboard/utilization', await timeGet('/api/dashboard/utilization')],
      ['GET /api/dashboard/parts', await timeGet('/api/dashboard/parts')],
    ] as const;
    console.log(
      `API, ${tiles.machines.length} machines (${scheduled} scheduled), median of ${API_CALLS}; baseline GET /api/me = 1:`,
    );
    for (const [name, ms] of apiRows) console.log(`  ${name.padEnd(32)} ${(ms / me).toFixed(1)}x`);

    // ---- The browser: a synthetic plant served to the real app.
    const plant = new FakePlant();
    await plant.install(page);
    const url = `${product.url}/dashboards/live/partsgoal`;
    const empty: Array<{ load: number; fromData: number }> = [];
    const render: Array<{ load: number; fromData: number }> = [];
    const update: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      plant.count = 0;
      plant.active = true;
      empty.push(
        await timeRender(page, plant, url, () => page.getByText('No machines in this group.').waitFor()),
      );
      plant.count = TILES;
      render.push(
        await timeRender(page, plant, url, () =>
          page.waitForFunction((n) => document.querySelectorAll('article[data-status]').length === n, TILES, {
            polling: 'raf',
          }),
        ),
      );
      // Update: every machine changes state in the next 5 s poll; timed from the answer to the last tile.
      plant.active = false;
      await page.waitForFunction(
        (n) => document.querySelectorAll('article[data-status="success"]').length === 0 && n > 0,
        TILES,
        { polling: 'raf', timeout: 15_000 },
      );
      update.push(performance.now() - plant.servedAt);
    }
    const baseLoad = median(empty.map((e) => e.load));
    const baseData = median(empty.map((e) => e.fromData));
    const f = (x: number) => `${x.toFixed(2)}x`;
    console.log(`Chromium, ${TILES} tiles at 1920x1080, median of ${ROUNDS}:`);
    console.log(
      `  page load to ${TILES} tiles, against page load to an empty dashboard      ${f(median(render.map((r) => r.load)) / baseLoad)}`,
    );
    console.log(
      `  machine list answer to ${TILES} tiles, against answer to empty dashboard  ${f(median(render.map((r) => r.fromData)) / baseData)}`,
    );
    console.log(
      `  answer to all ${TILES} tiles updated, against answer to empty dashboard   ${f(median(update) / baseData)}`,
    );
  } finally {
    await browser.close();
    await product.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
