import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Route } from 'playwright-core';
import type { SyncCommand, SyncOutcome } from '@takt/domain';
import { DEMO_LOGINS } from '@takt/api';
import { describeTablets, recordToasts, SOON, Tablet, toastLog } from './floor-app';
import { launchChromium, startProduct } from './harness';
import type { RunningProduct } from './harness';
import { fetchOrReset, guardRoute, resetAfterFailedFetch } from './route-guard';
import { factCounts, loggedCount, query, syncCommands } from './server-db';

// The server dies (SIGKILL) in the middle of a sync and comes back on the same database:
// every queued action is recorded exactly once (ARCHITECTURE.md: keyed by id, a repeat returns the first result).
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;
const ENV = { TAKT_DEMO_SPEED: '10' };

describe('a server killed in the middle of a sync', () => {
  let product: RunningProduct;
  let browser: Browser;

  beforeAll(async () => {
    [product, browser] = await Promise.all([startProduct(ENV), launchChromium()]);
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  /** SIGKILL, then the product again on the same files and ports. */
  const OFFLINE_TEXT = 'Network offline. Please check your Internet connection.';

  /** Kills the server; `whileDown` runs before it starts again (what the tablet must see meanwhile). */
  async function crashAndRestart(whileDown?: () => Promise<void>): Promise<void> {
    await product.kill();
    await whileDown?.();
    product = await startProduct(ENV, { reuse: product });
  }

  it('loses nothing and doubles nothing', async ({ onTestFailed }) => {
    const tablet = await Tablet.open(browser, product.url);
    onTestFailed(async () => console.log(await describeTablets([tablet]), product.output().slice(-2000)));
    await tablet.logIn(admin);
    const machine = await tablet.machine('Haas VF-2 #2');
    await tablet.waitForDowntime(machine);
    const wc = await tablet.workcenter(machine);
    // After one online visit (ARCHITECTURE.md "Offline sync contract"): the app shell is cached.
    await wc.waitForServiceWorker();
    // The live channel goes down with the server: the offline toast's texts are checked at the end. Recorded after
    // the wait above, which reloads a page the worker's claim missed (a reload ends the recording).
    await recordToasts(tablet.page);

    // Offline, queue work that syncs in two batches: the stage change waits for the job run the start
    // creates, so it and what follows go in a second batch once the first is answered.
    await tablet.setOffline(true);
    await expect.poll(() => wc.syncText(), SOON).toMatch(/^Offline · 0 pending/);
    await wc.startJob('Bracket 7075-A', { stage: 'Teardown' });
    // Not removed from good parts: the run has made none yet (decision 0997).
    for (const count of [1, 2, 3])
      await wc.rejectPart({ count, reason: 'Surface finish', removeFromGood: false });
    await wc.categorizeDowntime({ reason: 'Tool change' });
    await wc.logInOperator('James Carter');
    await wc.changeStage('Program prove-out');
    for (const count of [4, 5])
      await wc.rejectPart({ count, reason: 'Surface finish', removeFromGood: false });
    const queued = await tablet.outbox();
    expect(queued).toHaveLength(9);

    // Sync 1: the server applies the whole batch and dies before its answer leaves, so the tablet must send
    // it again. Sync 3 (the second batch): the server dies as soon as it has committed a first command of it.
    // A route.fetch that fails before the planned kill is no batch: the tablet is handed the reset and sends the
    // same batch again (route-guard.ts).
    const batches: string[][] = [];
    const atKill: number[] = [];
    const sync = await guardRoute(tablet.page, '**/api/sync', async (route: Route) => {
      const ids = (route.request().postDataJSON() as { commands: SyncCommand[] }).commands.map((c) => c.id);
      if (batches.length === 0) {
        if (!(await fetchOrReset(route))) return;
        batches.push(ids);
        atKill.push(loggedCount(product, ids));
        // The server stays down until the live channel's reconnect has failed (the toast checked at the end):
        // a restart quicker than the channel's retry would leave nothing to see.
        await crashAndRestart(() =>
          expect
            .poll(
              async () =>
                (await toastLog(tablet.page)).some(
                  (x) => x.text.includes(OFFLINE_TEXT) && x.text.includes('Failed to reconnect'),
                ),
              { timeout: 45_000, interval: 200 },
            )
            .toBe(true),
        );
        await route.abort('connectionreset');
      } else if (batches.length === 2) {
        const fetched: { settled: boolean; failed?: { err: unknown } } = { settled: false };
        const fetching = route.fetch().then(
          () => (fetched.settled = true),
          (err: unknown) => ((fetched.failed = { err }), (fetched.settled = true)),
        );
        while (!fetched.settled && loggedCount(product, ids) === 0)
          await new Promise((r) => setTimeout(r, 2));
        if (fetched.failed && loggedCount(product, ids) === 0) {
          await resetAfterFailedFetch(route, fetched.failed.err);
          return;
        }
        batches.push(ids);
        await crashAndRestart();
        atKill.push(loggedCount(product, ids));
        await fetching;
        await route.abort('connectionreset');
      } else {
        batches.push(ids);
        await route.continue();
      }
    });
    await tablet.setOffline(false);
    // Two kills and restarts, the channel's failed reconnect and the tablet's backoffs: 44 s at load 16 on 2 cores.
    await sync.until(wc.waitAllSaved(90_000));

    // The first batch was applied in full before the crash; the resend was answered "duplicate" for each.
    const [first, second, third] = batches;
    expect(first).toEqual(queued.slice(0, 6).map((c) => c.id));
    expect(atKill[0]).toBe(6);
    expect(second).toEqual(first);
    const answers = new Map<string, SyncOutcome[]>();
    for (const a of tablet.answers) answers.set(a.id, [...(answers.get(a.id) ?? []), a]);
    for (const id of first!) expect(answers.get(id)?.map((a) => a.status)).toEqual(['duplicate']);
    expect(third).toEqual(queued.slice(6).map((c) => c.id));
    console.log(`second batch: ${atKill[1]} of 3 commands committed when the server was killed`);

    // Exactly the nine commands, once each, applied at the operator's times; and the facts once each.
    const log = syncCommands(product, machine.id);
    expect(log.map((c) => [c.id, c.type, c.status, c.occurred_at])).toEqual(
      queued.map((c) => [c.id, c.type, 'applied', c.occurredAt]),
    );
    expect(new Set(log.map((c) => c.id)).size).toBe(9);
    expect(factCounts(product, machine.id)).toEqual({
      jobRuns: 1,
      laborActivities: 2,
      annotations: 1,
      partAdjustments: 5,
      operatorRuns: 1,
      syncCommands: 9,
    });
    const rejects = queued.filter((c) => c.type === 'reject_part');
    expect(
      query(
        product,
        "SELECT scrapcount, adjustment_time FROM part_adjustments WHERE machine_id = ? AND kind = 'reject' ORDER BY adjustment_time",
        machine.id,
      ),
    ).toEqual(rejects.map((c, i) => ({ scrapcount: i + 1, adjustment_time: c.occurredAt })));
    expect(await wc.refused.count()).toBe(0);
    expect(await wc.pendingMarks.count()).toBe(0);
    expect(sync.errors).toEqual([]);

    // live-operations §4, §8: with the server gone the live channel's reconnect failed, so the offline toast
    // showed its text and "Failed to reconnect"; once the channel was back it read "Reconnected!" and closed 2 s
    // later.
    const offlineText = OFFLINE_TEXT;
    await expect
      .poll(async () => (await toastLog(tablet.page)).at(-1)?.text.includes(offlineText), {
        timeout: 45_000,
        interval: 200,
      })
      .toBe(false);
    const toasts = await toastLog(tablet.page);
    const shown = toasts.filter((x) => x.text.includes(offlineText));
    expect(shown.some((x) => x.text.includes('Failed to reconnect'))).toBe(true);
    const back = toasts.findLastIndex((x) => x.text.includes(offlineText) && x.text.includes('Reconnected!'));
    expect(back).toBeGreaterThan(-1);
    const closedAt = toasts.slice(back + 1).find((x) => !x.text.includes(offlineText))?.at;
    expect(closedAt).toBeDefined();
    const heldMs = closedAt! - toasts[back]!.at;
    expect(heldMs).toBeGreaterThanOrEqual(1_800);
    expect(heldMs).toBeLessThan(3_500);
    await tablet.close();
  }, 180_000);
});
