import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser } from 'playwright-core';
import { DEMO_LOGINS, DEMO_PLANT } from '@takt/api';
import { describeTablets, SOON, Tablet } from './floor-app';
import type { QueuedCommand, WorkcenterPage } from './floor-app';
import { launchChromium, startProduct } from './harness';
import type { RunningProduct } from './harness';
import { query, syncCommands } from './server-db';

// Decision 0008: two tablets categorize the same downtime offline; the categorization that
// happened later (occurredAt) wins whatever the arrival order, and the losing tablet shows the operator why.
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;
const MILLS = ['Haas VF-4', ...DEMO_PLANT[0].machines.filter((m) => m !== 'Haas VF-4')];
const CATEGORIZED_ELSEWHERE =
  'This downtime was categorized on another tablet after this change; that reason was kept.';

describe('two tablets categorize the same downtime offline', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  /**
   * Tablet 1 categorizes first, tablet 2 a moment later, both offline, on the oldest period of the list (real
   * time: the machine's first downtime, which no longer moves). Then they reconnect in `order`.
   */
  async function categorizeOnBoth(order: 'later first' | 'earlier first') {
    // Real speed: the list of periods stays the same while both tablets work.
    const product = await startProduct();
    onTestFinished(() => product.stop());
    const tablets = await Promise.all([Tablet.open(browser, product.url), Tablet.open(browser, product.url)]);
    onTestFinished(() => Promise.all(tablets.map((t) => t.close())).then(() => {}));
    const [t1, t2] = tablets;
    const pages: WorkcenterPage[] = [];
    try {
      for (const t of tablets) await t.logIn(admin);
      // A milling machine with a downtime period (Haas VF-4 first, as before).
      const machine = await t1.machineWithDowntime(MILLS);
      for (const t of tablets) pages.push(await t.workcenter(machine));
      const [wc1, wc2] = pages as [WorkcenterPage, WorkcenterPage];
      // After one online visit (ARCHITECTURE.md "Offline sync contract"): the app shell is cached.
      for (const wc of pages) await wc.waitForServiceWorker();

      for (const t of tablets) await t.setOffline(true);
      await wc1.categorizeDowntime({ reason: 'Waiting for material', description: 'tablet 1' });
      await wc2.categorizeDowntime({ reason: 'No operator', description: 'tablet 2' });
      const [[earlier], [later]] = (await Promise.all([t1.outbox(), t2.outbox()])) as [
        [QueuedCommand],
        [QueuedCommand],
      ];
      expect(later.payload.start).toBe(earlier.payload.start);
      expect(later.occurredAt).toBeGreaterThan(earlier.occurredAt);

      const [firstBack, lastBack] = order === 'later first' ? [wc2, wc1] : [wc1, wc2];
      await firstBack.tablet.setOffline(false);
      await firstBack.waitAllSaved();
      await lastBack.tablet.setOffline(false);
      await lastBack.waitAllSaved();
      return { product, machine, wc1, wc2, earlier, later };
    } catch (e) {
      console.log(await describeTablets(tablets), product.output().slice(-2000));
      throw e;
    }
  }

  /** What the server kept for the period: one annotation, the later tablet's reason, dated at its occurredAt. */
  function expectLaterKept(product: RunningProduct, machineId: string, later: QueuedCommand) {
    expect(
      query(
        product,
        'SELECT a.start_at, t.name, a.message, a.updated_at FROM annotations a JOIN annotation_types t ON t.id = a.annotation_type_id WHERE a.machine_id = ?',
        machineId,
      ),
    ).toEqual([
      {
        start_at: later.payload.start,
        name: 'No operator',
        message: 'tablet 2',
        updated_at: later.occurredAt,
      },
    ]);
  }

  it('keeps the later reason when the earlier categorization arrives last, and tells its tablet', async () => {
    const { product, machine, wc1, wc2, earlier, later } = await categorizeOnBoth('later first');
    expectLaterKept(product, machine.id, later);
    const log = syncCommands(product, machine.id);
    expect(log.map((c) => [c.id, c.status])).toEqual([
      [earlier.id, 'rejected'],
      [later.id, 'applied'],
    ]);
    expect(JSON.parse(String(log[0]!.result))).toMatchObject({ code: 'CATEGORIZED_ELSEWHERE' });

    // Tablet 1 shows its refused change with the server's message, and the kept reason in its list.
    await expect.poll(() => wc1.refused.count(), SOON).toBe(1);
    await expect.poll(() => wc1.refused.getByText(CATEGORIZED_ELSEWHERE).count(), SOON).toBe(1);
    await expect.poll(async () => (await wc1.downtimeRows()).at(-1)?.text, SOON).toContain('No operator');
    expect(await wc2.refused.count()).toBe(0);
    // The workcenter errors modal lists it with the §8 heading and the server's text; dismissed, it goes and
    // nothing else was changed by it.
    await wc1.refused.getByRole('button', { name: 'Show errors' }).click();
    const errors = wc1.dialog('Workcenter errors');
    await expect.poll(() => errors.getByText('Downtime reason could not be saved.').count(), SOON).toBe(1);
    await expect.poll(() => errors.getByText(CATEGORIZED_ELSEWHERE).count(), SOON).toBe(1);
    await errors.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => errors.count(), SOON).toBe(0);
    await expect.poll(() => wc1.refused.count(), SOON).toBe(0);
    expectLaterKept(product, machine.id, later);
  }, 90_000);

  it('lets the later categorization replace the earlier one when it arrives last', async () => {
    const { product, machine, wc1, wc2, earlier, later } = await categorizeOnBoth('earlier first');
    expectLaterKept(product, machine.id, later);
    expect(syncCommands(product, machine.id).map((c) => [c.id, c.status])).toEqual([
      [earlier.id, 'applied'],
      [later.id, 'applied'],
    ]);
    expect(await wc1.refused.count()).toBe(0);
    expect(await wc2.refused.count()).toBe(0);
  }, 90_000);
});
