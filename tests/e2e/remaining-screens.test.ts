import { describe, expect, it } from 'vitest';
import { DEMO_LOGINS } from '@takt/api';
import { describeTablets, productAndBrowser, SOON, Tablet } from './floor-app';
import { screenshots } from './office-harness';
import { manualParts } from './server-db';

// Issue 29 point 7 in Chromium on the demo plant: the operator host part count (/machine/{id}/home/partCount,
// decision 1099), the older utilization dashboard (/dashboard/utilizationdeprecated, decision 1098) and the
// /machines/{id}/cycles alias. Screenshots at 1280×800 and 390×844 go to test-results/remaining-screens/.
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;

describe('remaining screens and routes', () => {
  const running = productAndBrowser();

  it('counts a batch of parts on a manual work center and refuses a bad count', async ({ onTestFailed }) => {
    const { product, browser } = running;
    const tablet = await Tablet.open(browser, product.url);
    onTestFailed(async () => console.log(await describeTablets([tablet]), product.output().slice(-3000)));
    await tablet.logIn(admin);
    const bench = await tablet.machine('Assembly Bench 1');
    const page = tablet.page;
    // A job of one part per kit runs on the bench: the batch counts on its run.
    const name = `Kit K-1 ${Date.now()}`;
    const created = await tablet.context.request.post(`${product.url}/api/jobs`, {
      data: { name, setuptime: null },
    });
    expect(created.status()).toBe(201);
    const job = (await created.json()) as { id: string };
    const associated = await tablet.context.request.post(`${product.url}/api/jobmachines`, {
      data: { job_id: job.id, job_machine: { machine_id: bench.id, partBehavior: 'one' } },
    });
    expect(associated.status()).toBe(201);
    const wc = await tablet.workcenter(bench);
    await wc.startJob(name, 'production');
    await wc.waitAllSaved();
    await wc.waitForServiceWorker();

    await page.goto(`${product.url}/machine/${bench.id}/home/partCount`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Count parts: Assembly Bench 1' }).count(), SOON)
      .toBe(1);
    const input = page.getByLabel('Parts to add');
    await expect.poll(() => input.count(), SOON).toBe(1);

    await input.fill('0');
    await page.getByRole('button', { name: 'Add Parts' }).click();
    expect(await page.getByRole('alert').innerText()).toContain('Count must be at least 1');

    await input.fill('24');
    await page.getByRole('button', { name: 'Add Parts' }).click();
    await expect.poll(() => manualParts(product, bench.id), SOON).toEqual([24]);
    expect(await page.getByRole('alert').count()).toBe(0);
    // The server's good parts come back with the batch in them.
    await expect.poll(() => page.locator('.part-count__value').innerText(), SOON).toBe('24');
    await screenshots(page, 'remaining-screens', 'part-count');

    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => manualParts(product, bench.id), SOON).toEqual([]);

    // The screen is the floor app's, so its service worker opens it with the network gone (decision 1099).
    await tablet.setOffline(true);
    const offline = await page.reload();
    expect(offline?.fromServiceWorker()).toBe(true);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Count parts: Assembly Bench 1' }).count(), SOON)
      .toBe(1);
    await tablet.setOffline(false);

    // A machine (not a manual station) gets the server's words and no button.
    const mill = await tablet.machine('Haas VF-4');
    await page.goto(`${product.url}/machine/${mill.id}/home/partCount`);
    await expect
      .poll(() => page.getByText('Parts can be added by hand only on manual work centers.').count(), SOON)
      .toBe(1);
    expect(await page.getByRole('button', { name: 'Add Parts' }).count()).toBe(0);
    await tablet.close();
  }, 180_000);

  it('opens the older utilization dashboard in percent and hours, and the cycles alias', async ({
    onTestFailed,
  }) => {
    const { product, browser } = running;
    const tablet = await Tablet.open(browser, product.url);
    onTestFailed(async () => console.log(await describeTablets([tablet]), product.output().slice(-3000)));
    await tablet.logIn(admin);
    const mill = await tablet.machine('Haas VF-4');
    const page = tablet.page;

    await page.goto(`${product.url}/dashboard/utilizationdeprecated`);
    const grid = page.getByRole('region', { name: 'In-Cycle by machine and interval' });
    await expect.poll(() => grid.count(), SOON).toBe(1);
    expect(await page.getByRole('heading', { name: 'Utilization Dashboard for All Machines' }).count()).toBe(
      1,
    );
    const millRow = grid.getByRole('row').filter({ hasText: 'Haas VF-4' });
    await expect.poll(() => millRow.count(), SOON).toBe(1);
    expect(await grid.getByRole('row').filter({ hasText: 'All Machines' }).count()).toBe(1);
    // Percent by default: every figure of the machine's row is a percentage or '-'.
    const cells = async () => (await millRow.getByRole('cell').allInnerTexts()).map((s) => s.trim());
    expect((await cells()).every((c) => c === '-' || /^\d+%$/.test(c))).toBe(true);
    // The demo's machines ran today: All Machines has a total, in percent, then in hours.
    const total = async () =>
      (
        await grid.getByRole('row').filter({ hasText: 'All Machines' }).getByRole('cell').last().innerText()
      ).trim();
    await expect.poll(total, SOON).toMatch(/^\d+%$/);
    await screenshots(page, 'remaining-screens', 'utilization-deprecated');

    await page.getByLabel('Show').selectOption('hour');
    await expect.poll(() => new URL(page.url()).searchParams.get('unit'), SOON).toBe('hour');
    await expect
      .poll(async () => (await cells()).every((c) => c === '-' || /^\d+\.\d h$/.test(c)), SOON)
      .toBe(true);
    expect(await total()).toMatch(/^\d+\.\d h$/);

    // A machine's name opens the newer report for that machine.
    await millRow.getByRole('link', { name: 'Haas VF-4' }).click();
    await expect.poll(() => new URL(page.url()).pathname, SOON).toBe('/dashboard/utilization');
    expect(new URL(page.url()).searchParams.get('machine')).toBe(mill.id);

    // /machines/{id}/cycles is the machine's Cycles report.
    await page.goto(`${product.url}/machines/${mill.id}/cycles`);
    await expect
      .poll(() => page.getByRole('heading', { name: /Haas VF-4/ }).count(), SOON)
      .toBeGreaterThan(0);
    expect(await page.getByRole('heading', { name: 'Not found' }).count()).toBe(0);
    await tablet.close();
  }, 180_000);
});
