import { describe, expect, it } from 'vitest';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { aUser } from '../../services/api/src/testing/builders';
import { anOfficePlant, officeSession, openAccountMenu, POLL } from './office-harness';
import type { Span } from './office-harness';

// E-mail in the office app (reports-admin §2 "E-mail notification preferences: toggle downtime, utilization,
// benchmarking e-mails; send a test e-mail", machines admin "Notifications" panel, §3 Machine notification, §8
// "E-mail" texts; decisions 0900, 0904) in Chromium on SQLite. The product runs without SMTP, so the test
// e-mail is kept in the outbox and answered as sent. Screenshots at 1280×800 and 390×844 go to
// test-results/office-email/ (gitignored).

async function seedPlant(db: Kysely<Database>, week: Span) {
  const plant = await anOfficePlant(db, week);
  const admin = await aUser(db, plant.company, {
    role: 'admin',
    displayName: 'Ada Admin',
    email: `ada-${crypto.randomUUID().slice(0, 6)}@plant.example`,
  });
  return { email: admin.email, password: admin.password };
}

describe('e-mail screens in Chromium on sqlite', () => {
  const office = officeSession('sqlite', 'office-email', seedPlant);

  it("adds a downtime notification in a machine's Notifications panel", async () => {
    const { page } = office;
    await office.openFromReports(/^Administration$/);
    await page.getByRole('link', { name: /^Machines / }).click();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Machines');
    await page.getByRole('button', { name: 'Edit Lathe' }).click();
    const dialog = page.getByRole('dialog', { name: /Lathe/ });
    const panel = dialog.getByRole('group', { name: 'Notifications' }).first();
    await expect.poll(() => dialog.getByText('No one is notified about this machine.').count(), POLL).toBe(1);
    await dialog.getByRole('button', { name: 'Add notification' }).click();
    // reports-admin §3: delayMinutes defaults to 10.
    expect(await dialog.getByLabel('Delay (minutes)').inputValue()).toBe('10');
    const save = dialog.getByRole('button', { name: 'Save notification' });
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel('Account').selectOption({ label: `Ada Admin (${office.plant.email})` });
    await dialog.getByLabel('Level').selectOption({ label: 'Failure' });
    await dialog.getByLabel('Delay (minutes)').fill('15');
    expect(await save.isDisabled()).toBe(false);
    await dialog.getByRole('button', { name: 'Save notification' }).scrollIntoViewIfNeeded();
    await office.screenshots('notification-editor');
    await save.click();
    await expect.poll(() => dialog.getByText('Notifications saved.').count(), POLL).toBe(1);
    expect(await dialog.getByText('Downtime · Failure · after 15 min').count()).toBe(1);
    await panel.scrollIntoViewIfNeeded();
    await office.screenshots('notifications-panel', true);
    expect(await panel.count()).toBe(1);
  });

  it('toggles the e-mail preferences and sends a test e-mail with the §8 texts', async () => {
    const { page } = office;
    await page.getByRole('button', { name: 'Cancel' }).first().click();
    await openAccountMenu(page);
    await page.getByRole('link', { name: 'E-mail', exact: true }).click();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('E-mail notifications');
    const utilization = page.getByRole('switch', { name: /Utilization e-mails/ });
    await expect.poll(() => utilization.isChecked(), POLL).toBe(true);
    await utilization.uncheck();
    await expect
      .poll(
        () => page.getByRole('status').filter({ hasText: 'Your preferences have been updated.' }).count(),
        POLL,
      )
      .toBe(1);
    await page.reload();
    await expect
      .poll(() => page.getByRole('switch', { name: /Utilization e-mails/ }).isChecked(), POLL)
      .toBe(false);
    expect(await page.getByRole('switch', { name: /Downtime e-mails/ }).isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Send test e-mail' }).click();
    await expect
      .poll(
        () =>
          page
            .getByRole('status')
            .filter({ hasText: 'Sent. You should get it within the next 10 minutes.' })
            .count(),
        POLL,
      )
      .toBe(1);
    await office.screenshots('email-preferences', true);
  });
});
