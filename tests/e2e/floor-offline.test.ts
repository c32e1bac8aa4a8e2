import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DEMO_LOGINS } from '@takt/api';
import { describeTablets, SOON, Tablet } from './floor-app';
import { launchChromium, startProduct } from './harness';
import type { RunningProduct } from './harness';
import { factCounts, query, syncCommands } from './server-db';

// With the network gone the operator keeps working; a reload still opens the app (service
// worker) with the queued actions; back online, the server records each action once, at the time it was done.
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;

describe('the workcenter offline', () => {
  let product: RunningProduct;
  let browser: Browser;

  beforeAll(async () => {
    [product, browser] = await Promise.all([startProduct({ TAKT_DEMO_SPEED: '10' }), launchChromium()]);
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('keeps a reject, a categorized downtime and a job start over an offline reload and records them at their own times', async ({
    onTestFailed,
  }) => {
    const tablet = await Tablet.open(browser, product.url);
    onTestFailed(async () => console.log(await describeTablets([tablet])));
    await tablet.logIn(admin);
    const machine = await tablet.machine('Mazak QT-250');
    await tablet.waitForDowntime(machine);
    const wc = await tablet.workcenter(machine);
    await wc.waitForServiceWorker();
    await expect.poll(() => wc.card.getByRole('button', { name: /^Downtime/ }).count(), SOON).toBe(1);

    await tablet.setOffline(true);
    await expect.poll(() => wc.syncText(), SOON).toMatch(/^Offline · 0 pending/);

    // Not removed from good parts: the demo machine may have made none yet today (decision 0997).
    await wc.rejectPart({ count: 3, reason: 'Dimension out of tolerance', removeFromGood: false });
    await wc.categorizeDowntime({ reason: 'Machine breakdown', description: 'coolant pump' });
    await wc.startJob('Pin P-6 (2 per cycle)', 'production');
    await expect.poll(() => wc.syncText(), SOON).toMatch(/^Offline · 3 pending/);
    // Each action shows at once, marked as not yet confirmed: the job and the rejected parts on the card.
    await expect.poll(() => wc.card.getByText('Pin P-6 (2 per cycle)').count(), SOON).toBe(1);
    await expect.poll(() => wc.pendingMarks.count(), SOON).toBe(2);

    const queued = await tablet.outbox();
    expect(queued.map((c) => c.type)).toEqual(['reject_part', 'categorize_downtime', 'start_job']);
    expect(syncCommands(product, machine.id)).toEqual([]);

    // A reload with the network still gone: the service worker serves the app, Dexie the data and the outbox.
    expect(await wc.reload()).toEqual({ fromServiceWorker: true });
    await expect.poll(() => wc.syncText(), SOON).toMatch(/^Offline · 3 pending/);
    await expect.poll(() => wc.card.getByText('Pin P-6 (2 per cycle)').count(), SOON).toBe(1);
    await expect.poll(() => wc.pendingMarks.count(), SOON).toBe(2);
    expect((await wc.downtimeRows()).filter((r) => r.pending)).toEqual([
      { text: expect.stringContaining('Machine breakdown'), pending: true },
    ]);
    expect((await tablet.outbox()).map((c) => [c.id, c.occurredAt])).toEqual(
      queued.map((c) => [c.id, c.occurredAt]),
    );

    // A cold start of "/" with the network still gone: the service worker serves the shell and the app opens
    // the last machine with its queued actions.
    await tablet.page.goto(`${product.url}/`);
    await expect.poll(() => new URL(tablet.page.url()).pathname, SOON).toBe(`/${machine.id}`);
    await expect.poll(() => wc.card.getByText('Pin P-6 (2 per cycle)').count(), SOON).toBe(1);
    await expect.poll(() => wc.syncText(), SOON).toMatch(/^Offline · 3 pending/);

    const reconnectedAt = Date.now();
    await tablet.setOffline(false);
    await wc.waitAllSaved();
    await expect.poll(() => wc.pendingMarks.count(), SOON).toBe(0);
    expect(
      (await wc.downtimeRows()).filter((r) => r.pending || r.text.includes('Machine breakdown')),
    ).toEqual([{ text: expect.stringContaining('Machine breakdown'), pending: false }]);
    expect(await wc.refused.count()).toBe(0);

    // The server holds exactly these three commands, once each, at the times the operator acted.
    const log = syncCommands(product, machine.id);
    expect(log.map((c) => [c.id, c.type, c.status, c.occurred_at])).toEqual(
      queued.map((c) => [c.id, c.type, 'applied', c.occurredAt]),
    );
    for (const c of log) {
      expect(c.occurred_at).toBeLessThan(reconnectedAt);
      expect(c.received_at).toBeGreaterThanOrEqual(reconnectedAt);
    }
    expect(factCounts(product, machine.id)).toMatchObject({
      jobRuns: 1,
      annotations: 1,
      partAdjustments: 1,
      operatorRuns: 0,
      syncCommands: 3,
    });
    const [reject, categorize, start] = queued as [
      (typeof queued)[0],
      (typeof queued)[0],
      (typeof queued)[0],
    ];
    expect(
      query(
        product,
        'SELECT kind, scrapcount, adjustment_time FROM part_adjustments WHERE machine_id = ?',
        machine.id,
      ),
    ).toEqual([{ kind: 'reject', scrapcount: 3, adjustment_time: reject.occurredAt }]);
    expect(
      query(
        product,
        'SELECT a.start_at, a.message, a.created_at, a.updated_at, t.name FROM annotations a JOIN annotation_types t ON t.id = a.annotation_type_id WHERE a.machine_id = ?',
        machine.id,
      ),
    ).toEqual([
      {
        start_at: categorize.payload.start,
        message: 'coolant pump',
        created_at: categorize.occurredAt,
        updated_at: categorize.occurredAt,
        name: 'Machine breakdown',
      },
    ]);
    expect(
      query(
        product,
        'SELECT j.name, r.start_at, r.setup_end, r.end_at FROM job_runs r JOIN jobs j ON j.id = r.job_id WHERE r.machine_id = ?',
        machine.id,
      ),
    ).toEqual([
      {
        name: 'Pin P-6 (2 per cycle)',
        start_at: start.occurredAt,
        setup_end: start.occurredAt,
        end_at: null,
      },
    ]);
    await tablet.close();
  }, 90_000);
});
