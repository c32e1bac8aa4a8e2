import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_LOGINS } from '@takt/api';
import { describeTablets, productAndBrowser, SOON, Tablet } from './floor-app';
import type { WorkcenterPage } from './floor-app';
import { execute } from './server-db';

// live-operations §3 "Company flags used here" (GET /api/company/flags) drive the floor: §2 Start Job "one
// button per setup stage when stages are enabled", §5 Reject "Remove from good parts … hidden when
// hide_remove_rejected_parts_checkbox is set" (and then the count sent is 0). There is no admin route for these
// flags, so the test changes them where the server keeps them, as an administrator's database change would.
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;

/** The flags as this tablet last stored them (its Dexie copy of GET /api/company/flags). */
function storedFlags(page: Page): Promise<Record<string, unknown> | null> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('takt-floor');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    try {
      return await new Promise<Record<string, unknown> | null>((resolve, reject) => {
        const r = db.transaction('kv', 'readonly').objectStore('kv').get('companyFlags');
        r.onsuccess = () =>
          resolve((r.result as { value?: Record<string, unknown> } | undefined)?.value ?? null);
        r.onerror = () => reject(r.error);
      });
    } finally {
      db.close();
    }
  });
}

/** What Start Job offers for a job with a setup time: the stage buttons, or the one "Start Job in Setup". */
async function setupChoices(wc: WorkcenterPage, job: string): Promise<{ stages: string[]; single: number }> {
  await wc.button('Start Job').click();
  const d = wc.dialog('Start Job');
  await d.getByRole('searchbox', { name: 'Search operations' }).fill(job);
  const row = d.getByRole('list', { name: 'Operations' }).getByRole('button', { name: job, exact: true });
  await row.click();
  await expect.poll(() => row.getAttribute('aria-pressed'), SOON).toBe('true');
  const group = d.getByRole('group', { name: 'Start Job in Setup' });
  const stages = (await group.count()) ? await group.getByRole('button').allTextContents() : [];
  const single = await d.getByRole('button', { name: 'Start Job in Setup', exact: true }).count();
  await wc.page.keyboard.press('Escape');
  await expect.poll(() => d.count(), SOON).toBe(0);
  return { stages, single };
}

async function removeFromGoodShown(wc: WorkcenterPage): Promise<number> {
  await wc.button('Reject Part').click();
  const d = wc.dialog('Reject Part');
  await d.getByRole('radio', { name: 'Dimension out of tolerance', exact: true }).check();
  const n = await d.getByRole('checkbox', { name: 'Remove from good parts' }).count();
  await wc.page.keyboard.press('Escape');
  await expect.poll(() => d.count(), SOON).toBe(0);
  return n;
}

describe('company flags on the floor', () => {
  const running = productAndBrowser();

  it('follows enable_setup_stages and hide_remove_rejected_parts_checkbox as the server changes them', async ({
    onTestFailed,
  }) => {
    const { product, browser } = running;
    const tablet = await Tablet.open(browser, product.url);
    onTestFailed(async () => console.log(await describeTablets([tablet]), product.output().slice(-3000)));
    await tablet.logIn(admin);
    const machine = await tablet.machine('Haas VF-2 #1');

    // The demo company: setup stages on, the checkbox shown.
    expect(await tablet.api('/api/company/flags')).toMatchObject({
      enable_setup_stages: true,
      hide_remove_rejected_parts_checkbox: false,
    });
    const wc = await tablet.workcenter(machine);
    await expect.poll(async () => (await storedFlags(tablet.page))?.enable_setup_stages, SOON).toBe(true);
    expect(await setupChoices(wc, 'Bracket 7075-A')).toEqual({
      stages: ['Teardown', 'Load tools and fixtures', 'Program prove-out', 'First article inspection'],
      single: 0,
    });
    expect(await removeFromGoodShown(wc)).toBe(1);

    // The company turns stages off and hides the checkbox; the floor follows after a reload.
    expect(
      execute(
        product,
        'UPDATE companies SET enable_setup_stages = 0, hide_remove_rejected_parts_checkbox = 1 WHERE is_demo = 1',
      ),
    ).toBe(1);
    await wc.reload();
    await expect
      .poll(async () => (await storedFlags(tablet.page))?.hide_remove_rejected_parts_checkbox, SOON)
      .toBe(true);
    expect(await setupChoices(wc, 'Bracket 7075-A')).toEqual({ stages: [], single: 1 });
    expect(await removeFromGoodShown(wc)).toBe(0);

    // §5: with the checkbox hidden the reject is removed from the good parts: the count sent is 0.
    await wc.rejectPart({ count: 2, reason: 'Dimension out of tolerance' });
    await wc.waitAllSaved();
    const reject = tablet.sent.find((c) => c.type === 'reject_part');
    expect(reject?.payload).toMatchObject({ scrapcount: 2, count: 0 });

    // Stored on the tablet, the flags hold offline: a reload without network keeps them.
    await wc.waitForServiceWorker();
    await tablet.setOffline(true);
    await wc.reload();
    expect(await removeFromGoodShown(wc)).toBe(0);
    await tablet.setOffline(false);
    await tablet.close();
  }, 180_000);
});
