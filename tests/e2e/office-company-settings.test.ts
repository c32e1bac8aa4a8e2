import { describe, expect, it } from 'vitest';
import { DEMO_LOGINS } from '@takt/api';
import { logIn } from './harness';
import { describeTablets, productAndBrowser, SOON, Tablet } from './floor-app';
import { screenshots } from './office-harness';

// Issue 29 point 3 (decision 1087): an admin changes company settings on the office Settings screen and the
// tablet follows. live-operations §2: the "operator name button (when operator tracking is on)". The OEE
// percents are checked on the screen as the API checks them. Screenshots at 1280×800 and 390×844 go to
// test-results/office-company-settings/ (gitignored).
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;

describe('company settings from the office to the tablet', () => {
  const running = productAndBrowser();

  it('turning operator tracking off takes the operator button off the tablet', async ({ onTestFailed }) => {
    const { product, browser } = running;
    const tablet = await Tablet.open(browser, product.url);
    onTestFailed(async () => console.log(await describeTablets([tablet]), product.output().slice(-3000)));
    await tablet.logIn(admin);
    const machine = await tablet.machine('Haas VF-2 #1');
    const wc = await tablet.workcenter(machine);
    const operatorButton = wc.toolbar.getByRole('button', { name: /^(Operator Login|Operator: )/ });
    await expect.poll(() => operatorButton.count(), SOON).toBe(1);

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await logIn(page, admin, `${product.url}/app/reports`);
    await expect.poll(() => page.getByLabel('Password').count(), SOON).toBe(0);
    await page.goto(`${product.url}/app/admin/settings`);
    const floor = page.getByRole('region', { name: 'Floor and tablets' });
    const tracking = floor.getByRole('checkbox', { name: 'Operator tracking' });
    await expect.poll(() => tracking.isChecked(), SOON).toBe(true);
    for (const group of ['Downtime', 'Goals and colours', 'Jobs', 'Company'])
      expect(await page.getByRole('region', { name: group }).count()).toBe(1);
    await screenshots(page, 'office-company-settings', 'settings', true);

    // The screen makes the API's checks: an OEE failure percent above its warning percent cannot be saved.
    const goals = page.getByRole('region', { name: 'Goals and colours' });
    const oeeFailure = goals.getByLabel('OEE failure percent');
    const saveGoals = goals.getByRole('button', { name: 'Save' });
    await oeeFailure.fill('95');
    await expect
      .poll(() => goals.getByText('The failure percent must not be above the warning percent.').count(), SOON)
      .toBe(1);
    expect(await saveGoals.isDisabled()).toBe(true);
    await screenshots(page, 'office-company-settings', 'settings-invalid');
    await oeeFailure.fill('60');
    await saveGoals.click();
    await expect.poll(() => page.getByText('Settings saved.').count(), SOON).toBeGreaterThan(0);

    await tracking.uncheck();
    await floor.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(
        async () =>
          (await tablet.api<{ operator_tracking: boolean }>('/api/company/flags')).operator_tracking,
        SOON,
      )
      .toBe(false);

    // The tablet reads the flags again when the workcenter reloads: no operator button, the rest stays.
    await wc.reload();
    await expect.poll(() => operatorButton.count(), SOON).toBe(0);
    expect(await wc.button('Reject Part').count()).toBe(1);
    // Nor is operator login offered as a page (/authorize/operator of the last machine).
    await tablet.page.goto(`${product.url}/authorize/operator`);
    await expect
      .poll(() => tablet.page.getByText('Operator tracking is off for this company.').count(), SOON)
      .toBe(1);

    // What the office saved is what it shows after a reload.
    await page.reload();
    await expect.poll(() => tracking.isChecked(), SOON).toBe(false);
    expect(await oeeFailure.inputValue()).toBe('60');
    await context.close();
    await tablet.close();
  }, 180_000);
});
