import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { SyncCommand } from '@takt/domain';
import { DEMO_LOGINS } from '@takt/api';
import { describeTablets, SOON, Tablet } from './floor-app';
import type { Locator } from 'playwright-core';
import { launchChromium, startProduct } from './harness';
import type { RunningProduct } from './harness';
import { fetchOrReset, guardRoute } from './route-guard';
import { query, syncCommands } from './server-db';

// Online, every operator action of the workcenter reaches the server once, as the fact
// the spec names, recorded at the operator's time (the command's occurredAt). The same session then walks the
// rest of the workcenter of live-operations §2 (Select Multiple, card fields, menu, TV mode, machine switcher
// and /switch-machines, /authorize/operator, log-out and start-of-shift log-in, Stop Job, an empty state), the
// web manifest and the new-version toast, so no extra browser session is needed for them.
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;

describe('the workcenter online', () => {
  let product: RunningProduct;
  let browser: Browser;

  beforeAll(async () => {
    // 20 times real speed: the lathe makes parts within seconds, so there are parts made in setup to keep.
    [product, browser] = await Promise.all([startProduct({ TAKT_DEMO_SPEED: '20' }), launchChromium()]);
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('records setup, start of production, a reject, a categorized downtime and an operator log-in at the operator’s times', async ({
    onTestFailed,
  }) => {
    const tablet = await Tablet.open(browser, product.url);
    onTestFailed(async () => console.log(await describeTablets([tablet]), product.output().slice(-3000)));
    await tablet.logIn(admin);
    const machine = await tablet.machine('Citizen L20');
    const wc = await tablet.workcenter(machine);
    const one = (type: SyncCommand['type']): SyncCommand => {
      const found = tablet.sent.filter((c) => c.type === type);
      expect(found.map((c) => c.type)).toEqual([type]);
      return found[0]!;
    };
    const idOf = (table: string, name: string) =>
      String(query<{ id: string }>(product, `SELECT id FROM ${table} WHERE name = ?`, name)[0]?.id);

    // Start Job in setup, on the first stage.
    await wc.startJob('Shaft S-450', { stage: 'Teardown' });
    await expect.poll(() => wc.button('Setup').count(), SOON).toBe(1);
    await wc.waitAllSaved();
    const start = one('start_job');
    const runs = query(product, 'SELECT * FROM job_runs WHERE machine_id = ?', machine.id);
    expect(runs).toHaveLength(1);
    const run = runs[0]!;
    expect(run).toMatchObject({
      job_id: idOf('jobs', 'Shaft S-450'),
      start_at: start.occurredAt,
      end_at: null,
      setup_end: null,
    });

    // The Setup overlay's timer runs against the job's expected setup duration.
    await wc.button('Setup').click();
    const timer = wc.dialog('Setup').getByRole('timer', { name: 'Setup time' });
    await expect.poll(() => timer.textContent(), SOON).toMatch(/^\d+:\d\d(:\d\d)?of \d+:\d\d/);
    await wc.dialog('Setup').getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => wc.dialog('Setup').count(), SOON).toBe(0);

    // Change Stage.
    await wc.changeStage('Load tools and fixtures');
    await wc.waitAllSaved();
    const stage = one('setup_stage');
    const activities = () =>
      query(
        product,
        'SELECT start_at, end_at, setup_stage_id, setup FROM labor_activities WHERE job_run_id = ? ORDER BY start_at',
        run.id,
      );
    expect(activities()).toEqual([
      {
        start_at: start.occurredAt,
        end_at: stage.occurredAt,
        setup_stage_id: idOf('setup_stages', 'Teardown'),
        setup: 1,
      },
      {
        start_at: stage.occurredAt,
        end_at: null,
        setup_stage_id: idOf('setup_stages', 'Load tools and fixtures'),
        setup: 1,
      },
    ]);

    // Start Production keeping one of the parts made in setup, with a note. Wait until the lathe made two.
    await expect
      .poll(
        async () =>
          (await tablet.api<{ netCount: number }>(`/api/setup/parts?jsgId=${run.id}&machineId=${machine.id}`))
            .netCount,
        { timeout: 30_000, interval: 500 },
      )
      .toBeGreaterThanOrEqual(2);
    await wc.startProduction({ keep: 1, notes: 'First article OK', madeAtLeast: 2 });
    await expect.poll(() => wc.button('Setup').count(), SOON).toBe(0);
    await wc.waitAllSaved();
    const production = one('start_production');
    const answer = JSON.parse(
      String(syncCommands(product, machine.id).find((c) => c.id === production.id)?.result),
    ) as { setupParts: number; keptParts: number; removedParts: number; adjustmentId: string };
    expect(answer.keptParts).toBe(1);
    expect(answer.setupParts).toBeGreaterThanOrEqual(2);
    expect(answer.removedParts).toBe(answer.setupParts - 1);
    expect(query(product, 'SELECT setup_end, setup_note FROM job_runs WHERE id = ?', run.id)).toEqual([
      { setup_end: production.occurredAt, setup_note: 'First article OK' },
    ]);
    expect(
      query(
        product,
        "SELECT id, count, adjustment_time, message, job_run_id FROM part_adjustments WHERE machine_id = ? AND kind = 'setup'",
        machine.id,
      ),
    ).toEqual([
      {
        id: answer.adjustmentId,
        count: -answer.removedParts,
        adjustment_time: production.occurredAt,
        message: 'First article OK',
        job_run_id: run.id,
      },
    ]);
    expect(activities().slice(1)).toEqual([
      {
        start_at: stage.occurredAt,
        end_at: production.occurredAt,
        setup_stage_id: idOf('setup_stages', 'Load tools and fixtures'),
        setup: 1,
      },
      { start_at: production.occurredAt, end_at: null, setup_stage_id: null, setup: 0 },
    ]);

    // Reject Part: the one part kept from setup, removed from the good parts (the default). A run never has
    // more parts rejected than made (decision 0997): the one kept is all the run is sure to have made yet.
    await wc.rejectPart({ count: 1, reason: 'Dimension out of tolerance', message: 'bore oversize' });
    await wc.waitAllSaved();
    const reject = one('reject_part');
    expect(
      query(
        product,
        "SELECT type_id, scrapcount, count, message, adjustment_time, job_run_id, reject_behavior FROM part_adjustments WHERE machine_id = ? AND kind = 'reject'",
        machine.id,
      ),
    ).toEqual([
      {
        type_id: idOf('part_adjustment_types', 'Dimension out of tolerance'),
        scrapcount: 1,
        count: 0,
        message: 'bore oversize',
        adjustment_time: reject.occurredAt,
        job_run_id: run.id,
        reject_behavior: 'scrap',
      },
    ]);

    // Categorize a downtime period the server knows.
    await wc.categorizeDowntime({ reason: 'Waiting for material', description: 'bar stock late' });
    await wc.waitAllSaved();
    const categorize = one('categorize_downtime');
    const periodStart = categorize.payload.start as number;
    const downtime = await tablet.api<{ items: Array<{ start: number }> }>(
      `/api/downtime?machineId=${machine.id}`,
    );
    expect(downtime.items.map((p) => p.start)).toContain(periodStart);
    expect(
      query(
        product,
        'SELECT annotation_type_id, start_at, message, created_at, updated_at FROM annotations WHERE machine_id = ?',
        machine.id,
      ),
    ).toEqual([
      {
        annotation_type_id: idOf('annotation_types', 'Waiting for material'),
        start_at: periodStart,
        message: 'bar stock late',
        created_at: categorize.occurredAt,
        updated_at: categorize.occurredAt,
      },
    ]);

    // Operator log-in, now.
    await wc.logInOperator('Maria Lopez');
    await expect.poll(() => wc.button('Operator: Maria Lopez').count(), SOON).toBe(1);
    await wc.waitAllSaved();
    const login = one('operator_login');
    expect(
      query(
        product,
        'SELECT operator_id, start_at, end_at FROM operator_runs WHERE machine_id = ?',
        machine.id,
      ),
    ).toEqual([{ operator_id: idOf('operators', 'Maria Lopez'), start_at: login.occurredAt, end_at: null }]);

    // The sync log holds each command once, applied, at the time the tablet recorded it.
    const log = syncCommands(product, machine.id);
    expect(log.map((c) => [c.id, c.type, c.status, c.occurred_at])).toEqual(
      [start, stage, production, reject, categorize, login].map((c) => [
        c.id,
        c.type,
        'applied',
        c.occurredAt,
      ]),
    );
    expect(await wc.pendingMarks.count()).toBe(0);
    expect(await wc.refused.count()).toBe(0);

    // Select Multiple (§2, §4): each period gets a checkbox, a categorized one cannot be selected, and
    // Categorize Multiple waits for at least one (§5). Choosing several is covered by machines.test.ts.
    await wc.card.getByRole('button', { name: /^Downtime/ }).click();
    const list = wc.dialog('Categorize Downtime');
    await list.getByRole('checkbox', { name: 'Show Short Downtimes' }).check();
    await list.getByRole('button', { name: 'Select Multiple' }).click();
    const categorized = list
      .getByRole('listitem')
      .filter({ hasText: 'Waiting for material' })
      .getByRole('checkbox');
    await expect.poll(() => categorized.count(), SOON).toBe(1);
    expect(await categorized.isDisabled()).toBe(true);
    expect(await list.getByRole('button', { name: 'Categorize Multiple' }).isDisabled()).toBe(true);
    await list.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => list.count(), SOON).toBe(0);

    // The card (live-operations §2): performance ring with its words, the Utilization and Parts Goal bars,
    // cycle times, OEE with its three factors, and the total-downtime button.
    const ring = wc.card.getByRole('region', { name: 'Performance' });
    await expect.poll(() => ring.count(), SOON).toBe(1);
    expect(await ring.textContent()).toMatch(/At Goal|\d+ Parts? (Ahead|Behind)|No goal yet/);
    expect(await wc.card.getByRole('meter', { name: 'Utilization' }).count()).toBe(1);
    expect(await wc.card.getByRole('meter', { name: 'Parts Goal' }).count()).toBe(1);
    const terms = async (section: Locator) =>
      (await section.locator('dt').allTextContents()).map((x) => x.trim());
    expect(await terms(wc.card.getByRole('region', { name: 'Cycle times' }))).toEqual([
      'Current',
      'Expected',
      'Last',
      'Average',
      'Last few',
    ]);
    expect(await terms(wc.card.getByRole('region', { name: 'OEE', exact: true }))).toEqual([
      'OEE',
      'Availability',
      'Performance',
      'Quality',
    ]);
    expect(await wc.card.getByRole('button', { name: /^Downtime\s*\d/ }).count()).toBe(1);

    // The menu: Dashboard, TV Mode, Remote Identifier, home.
    const menu = await wc.openMenu();
    expect(await menu.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe(
      '/dashboards/live/utilization',
    );
    expect(await menu.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect(await menu.getByRole('button', { name: 'Remote Identifier' }).count()).toBe(1);
    // TV mode is view only: no toolbar, no total-downtime button to press; the way out is a link.
    await menu.getByRole('button', { name: 'TV Mode' }).click();
    await expect.poll(() => new URL(tablet.page.url()).search, SOON).toBe('?tv=1');
    await expect.poll(() => wc.toolbar.count(), SOON).toBe(0);
    expect(await tablet.page.getByRole('button', { name: 'Reject Part' }).count()).toBe(0);
    expect(await wc.card.getByRole('button', { name: /^Downtime/ }).count()).toBe(0);
    expect(await tablet.page.evaluate(() => document.documentElement.classList.contains('tv'))).toBe(true);
    // The way out is a skip link, shown when focused.
    await tablet.page.getByRole('link', { name: 'Exit TV mode' }).focus();
    await tablet.page.keyboard.press('Enter');
    await expect.poll(() => wc.button('Reject Part').count(), SOON).toBe(1);

    // Machine switcher: the group filter is kept in local storage; a machine swaps the id in the URL.
    const turning = idOf('machine_groups', 'Turning');
    await wc.button('Switch machine').click();
    const switcher = wc.dialog('Switch machine');
    await switcher.getByLabel('Machine group').selectOption(turning);
    expect(await tablet.page.evaluate(() => localStorage.getItem('workcenter.machineGroup'))).toBe(turning);
    await expect.poll(() => switcher.getByRole('link').count(), SOON).toBe(6);
    await switcher.getByRole('link', { name: 'Okuma LB3000' }).click();
    const lb3000 = await tablet.machine('Okuma LB3000');
    await expect.poll(() => new URL(tablet.page.url()).pathname, SOON).toBe(`/${lb3000.id}`);
    // /switch-machines: the same switch as a page, same group, back to the machine it names.
    await tablet.page.goto(`${product.url}/switch-machines?machineId=${lb3000.id}`);
    const page = tablet.page.getByRole('main', { name: 'Switch machine' });
    await expect.poll(() => page.getByRole('link', { name: 'Citizen L20' }).count(), SOON).toBe(1);
    expect(await page.getByLabel('Machine group').inputValue()).toBe(turning);
    await page.getByRole('link', { name: 'Citizen L20' }).click();
    await expect.poll(() => new URL(tablet.page.url()).pathname, SOON).toBe(`/${machine.id}`);
    await wc.waitUntilShown();

    // /authorize/operator: the operator login of the last machine as a page; Log Out goes back to it.
    await tablet.page.goto(`${product.url}/authorize/operator`);
    const authorize = wc.dialog('Operator Login');
    await expect.poll(() => authorize.getByText('Logged in: Maria Lopez').count(), SOON).toBe(1);
    await authorize.getByRole('button', { name: 'Log Out' }).click();
    await expect.poll(() => new URL(tablet.page.url()).pathname, SOON).toBe(`/${machine.id}`);
    await expect.poll(() => wc.button('Operator Login').count(), SOON).toBe(1);
    await wc.waitAllSaved();
    const logout = one('operator_logout');
    // Log in again at the start of the shift: pinned to the previous event.
    await wc.button('Operator Login').click();
    const login2 = wc.dialog('Operator Login');
    await login2.getByRole('radio', { name: 'Maria Lopez', exact: true }).check();
    await login2.getByRole('button', { name: 'Log In at Start of Shift' }).click();
    await expect.poll(() => wc.button('Operator: Maria Lopez').count(), SOON).toBe(1);
    await wc.waitAllSaved();
    const pinned = tablet.sent.filter((c) => c.type === 'operator_login').at(-1)!;
    expect(pinned.payload).toMatchObject({ pinToPreviousEvent: true });
    const operatorRuns = query<{ start_at: number; end_at: number | null }>(
      product,
      'SELECT start_at, end_at FROM operator_runs WHERE machine_id = ? ORDER BY start_at',
      machine.id,
    );
    expect(operatorRuns[0]).toEqual({ start_at: login.occurredAt, end_at: logout.occurredAt });
    expect(operatorRuns.at(-1)!.end_at).toBeNull();
    expect(operatorRuns.at(-1)!.start_at).toBeLessThanOrEqual(pinned.occurredAt);

    // Stop Job asks "Are you sure?" and then stops the run.
    await wc.stopJob();
    await expect.poll(() => wc.button('Start Job').count(), SOON).toBe(1);
    await wc.waitAllSaved();
    const stop = one('stop_job');
    expect(query(product, 'SELECT end_at FROM job_runs WHERE id = ?', run.id)).toEqual([
      { end_at: stop.occurredAt },
    ]);
    // Start Job's empty state for a search without match, verbatim (§2).
    await wc.button('Start Job').click();
    const startJob = wc.dialog('Start Job');
    await startJob.getByRole('searchbox', { name: 'Search operations' }).fill('no such operation zz');
    await expect
      .poll(() => startJob.getByText('No Operations that match your search.', { exact: true }).count(), SOON)
      .toBe(1);
    await startJob.getByRole('button', { name: 'Close' }).click();

    // Installable: the web manifest names its icons, and each is served.
    const manifest = await tablet.api<{ display: string; icons: Array<{ src: string; sizes: string }> }>(
      '/manifest.webmanifest',
    );
    expect(manifest.display).toBe('standalone');
    expect(manifest.icons.map((i) => i.sizes)).toEqual(['192x192', '512x512', '512x512']);
    for (const icon of manifest.icons) {
      const res = await tablet.context.request.get(`${product.url}${icon.src}`);
      expect([res.status(), res.headers()['content-type']]).toEqual([200, 'image/png']);
    }

    // A new MM-API-Version on any answer: the new-version toast counts "Reloading in ..." from 30 s.
    const nextVersion = await guardRoute(tablet.page, '**/api/dashboard*', async (route) => {
      const res = await fetchOrReset(route);
      if (res)
        await route.fulfill({ response: res, headers: { ...res.headers(), 'mm-api-version': 'e2e-next' } });
    });
    await nextVersion.until(
      expect
        .poll(
          () =>
            tablet.page
              .getByRole('region', { name: 'Notifications' })
              .getByText(/^A new version is available\. Reloading in (30|29|28)\.\.\.$/)
              .count(),
          SOON,
        )
        .toBe(1),
    );
    await tablet.close();
  }, 180_000);
});
