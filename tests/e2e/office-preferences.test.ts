import { describe, expect, it } from 'vitest';
import { anOperator } from '../../services/api/src/testing/live-builders';
import { logIn } from './harness';
import {
  anOfficePlant,
  officeSession,
  ON_SQLITE,
  openAccountMenu,
  POLL,
  screenshots,
} from './office-harness';

// Issue 29 point 9 (decisions 1115, 1116): reports-admin §9 "Stored preferences per company: last OEE or
// utilization horizon and selected shifts" follow the user to another browser (the server keeps them), and
// §6's anonymize option shows the reports with stand-in names. Screenshots at 1280×800 and 390×844 go to
// test-results/office-preferences/ (gitignored).

describe.each(ON_SQLITE)('report preferences and anonymize in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-preferences', async (db, week) => {
    const plant = await anOfficePlant(db, week);
    await anOperator(db, plant.company, { name: 'Olga Operator' });
    return { ...plant, email: plant.user.email, password: plant.user.password };
  });

  it('a horizon chosen in one browser is the horizon in a fresh one', async () => {
    const { page, product, browser, plant } = office;
    await office.openFromReports(/^Utilization/);
    await expect.poll(() => page.url(), POLL).toContain('/dashboard/utilization');
    const horizon = page.getByLabel('Horizon');
    await expect.poll(() => horizon.inputValue(), POLL).toBe('day');
    await page.getByRole('button', { name: /^Date range:/ }).click();
    await horizon.selectOption('week');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('interval'), POLL).toBe('week');
    // The server has it (the page does not wait for the save).
    await expect
      .poll(async () => {
        const res = await page.request.get(`${product.url}/api/me/preferences`);
        return ((await res.json()) as { utilizationHorizon: string | null }).utilizationHorizon;
      }, POLL)
      .toBe('week');

    // Another browser: no storage, no cookie; the same user opens the report without a range in the URL.
    // (Its page caches the server's answer once loaded, so the empty storage is checked before it opens.)
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    expect((await context.storageState()).origins).toEqual([]);
    const other = await context.newPage();
    await logIn(other, plant, `${product.url}/dashboard/utilization`);
    await expect.poll(() => other.getByLabel('Horizon').inputValue(), POLL).toBe('week');
    await context.close();
  }, 120_000);

  it('anonymize replaces the machine and company names on the screens and in a report CSV', async () => {
    const { page, product } = office;
    const REAL = /\b(Lathe|Mill|Press|Acme Machining)\b/;
    const csvPath = `/api/reports/utilization?start=${office.week.start}&end=${office.week.end}&format=csv`;
    const csv = async () => (await page.request.get(`${product.url}${csvPath}`)).text();
    await page.goto(`${product.url}/app/machines`);
    const main = page.locator('#content');
    await expect.poll(() => main.textContent(), POLL).toContain('Lathe');
    expect(await page.locator('.shell__company').textContent()).toBe('Acme Machining');
    expect(await csv()).toMatch(REAL);

    // The switch is in the user's menu in the header (decision 1152).
    await openAccountMenu(page);
    const toggle = page.getByRole('checkbox', { name: 'Anonymize' });
    await expect.poll(() => toggle.count(), POLL).toBe(1);
    // A click, not check(): the page reloads with the menu closed, where check() would wait to see the box.
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    // The page reloads and reads the answers again.
    await expect.poll(() => page.locator('.shell__company').textContent(), POLL).toBe('Company');
    await expect.poll(() => main.textContent(), POLL).toContain('Machine 3');
    expect(await page.locator('body').textContent()).not.toMatch(REAL);
    await openAccountMenu(page);
    expect(await page.getByRole('checkbox', { name: 'Anonymize' }).isChecked()).toBe(true);
    await page.keyboard.press('Escape');
    await screenshots(page, 'office-preferences', 'anonymized-machines');

    // A report and its CSV say the same.
    await page.goto(`${product.url}/dashboard/utilization`);
    await office.applyLastWeek();
    await office.settled();
    expect(await page.locator('.shell').textContent()).not.toMatch(/\b(Lathe|Mill|Acme Machining)\b/);
    const file = await csv();
    expect(file).toContain('Machine 1');
    expect(file).not.toMatch(REAL);
    await screenshots(page, 'office-preferences', 'anonymized-utilization');

    // Off again: the real names.
    await page.goto(`${product.url}/app/machines`);
    await openAccountMenu(page);
    expect(await page.getByRole('checkbox', { name: 'Anonymize' }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: 'Anonymize' }).click();
    await expect.poll(() => page.locator('.shell__company').textContent(), POLL).toBe('Acme Machining');
    await expect.poll(() => main.textContent(), POLL).toContain('Lathe');
  }, 120_000);
});
