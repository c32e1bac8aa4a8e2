import { describe, expect, it } from 'vitest';
import type { AdminMachine, InternalMachinePage } from '@takt/domain';
import { latestBillingDate } from '@takt/domain';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { aUser } from '../../services/api/src/testing/builders';
import { logIn } from './harness';
import { anOfficePlant, officeSession, ON_POSTGRES, POLL } from './office-harness';
import type { Span } from './office-harness';

// reports-admin §6 "root sees extra machine options", §3 Machine "billingDate, integratedAt, …, version=2, ping
// monitor (null, 1, 0)", §5 "Machine billing date from 2014-06-01 to 1 year ahead" (decisions 1111, 1112), in
// Chromium: a root user's machine form has the Takt staff panel (an admin's has none: the machines panels test),
// refuses a billing date outside the range as you type, saves, and the internal machine list shows the dates.
// Screenshots at 1280×800 and 390×844 go to test-results/office-admin-machines-root/ (gitignored).

async function seedPlant(db: Kysely<Database>, week: Span) {
  const plant = await anOfficePlant(db, week);
  const root = await aUser(db, plant.company, { role: 'admin', isRoot: true, displayName: 'Sam Staff' });
  // The lathe sent data at the start of the week: its integration time until root sets one.
  await db
    .insertInto('observations')
    .values({
      company_id: plant.company.id,
      machine_id: plant.lathe,
      ts: week.start,
      key: 'avail',
      value: 'x',
    })
    .execute();
  return { email: root.email, password: root.password, company: plant.company, lathe: plant.lathe };
}

describe.each(ON_POSTGRES)('root’s machine options in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-admin-machines-root', seedPlant);

  it('shows root the Takt staff panel, checks the billing date, saves, and lists the dates', async () => {
    const { page, product } = office;
    await page.goto(`${product.url}/app/admin/machines`);
    await logIn(page, office.plant);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Machines');
    await page.getByRole('button', { name: 'Edit Lathe' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Lathe' });
    const staff = dialog.getByRole('group', { name: 'Takt staff' });
    await expect.poll(() => staff.count(), POLL).toBe(1);
    expect(await staff.getByText('Only Takt staff (root users) see and change these.').count()).toBe(1);
    expect(await staff.getByLabel('Version').inputValue()).toBe('2');
    // No integration time set: the first data stands in, and the hint says so.
    expect(await staff.getByLabel('Integrated at').inputValue()).toBe('');
    expect(await staff.getByText(/^Empty: the machine’s first data, /).count()).toBe(1);

    const save = dialog.getByRole('button', { name: 'Save' });
    const billing = staff.getByLabel('Billing date');
    await billing.fill('2014-05-31');
    const refused = `Machine billing date must be from 2014-06-01 to 1 year ahead (${latestBillingDate(Date.now())})`;
    await expect.poll(() => staff.getByText(refused).count(), POLL).toBe(1);
    expect(await save.isDisabled()).toBe(true);
    await billing.fill('2025-01-15');
    await expect.poll(() => staff.getByText(refused).count(), POLL).toBe(0);
    await staff.getByLabel('Integrated at').fill('2025-01-10T08:30');
    await staff.getByLabel('Ping monitor').selectOption({ label: 'On' });
    await staff.scrollIntoViewIfNeeded();
    await office.screenshots('takt-staff-panel', true);
    await save.click();
    await expect.poll(() => dialog.count(), POLL).toBe(0);

    const stored = (await (await page.request.get(`${product.url}/api/machines`)).json()) as AdminMachine[];
    expect(stored.find((m) => m.name === 'Lathe')).toMatchObject({
      billingDate: '2025-01-15',
      // The company is in America/Chicago: 08:30 there is 14:30 UTC.
      integratedAt: Date.UTC(2025, 0, 10, 14, 30),
      integratedAtSet: true,
      pingMonitor: 1,
      version: 2,
    });

    // The internal machine list shows both.
    await page.goto(`${product.url}/app/internal/machines`);
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Lathe' }) });
    await expect.poll(() => row.count(), POLL).toBe(1);
    expect(await row.getByText('Billed from 2025-01-15', { exact: true }).count()).toBe(1);
    expect(await row.getByText('Integrated Jan 10, 2025', { exact: true }).count()).toBe(1);
    // The list still fits the screen, the Edit buttons in view (decision 1081).
    const fit = await page.getByRole('table', { name: 'Machines of every company' }).evaluate((t) => ({
      overflow: t.parentElement!.scrollWidth - t.parentElement!.clientWidth,
      right: Math.max(...[...t.querySelectorAll('tbody button')].map((b) => b.getBoundingClientRect().right)),
    }));
    expect(fit.overflow).toBe(0);
    expect(fit.right).toBeLessThanOrEqual(1280);
    const listed = (await (
      await page.request.get(`${product.url}/api/internal/machines?filter=Lathe`)
    ).json()) as InternalMachinePage;
    expect(listed.items.find((m) => m.id === office.plant.lathe)).toMatchObject({
      billingDate: '2025-01-15',
      integratedAt: Date.UTC(2025, 0, 10, 14, 30),
    });
    await office.screenshots('internal-machine-list', true);
  }, 180_000);
});
