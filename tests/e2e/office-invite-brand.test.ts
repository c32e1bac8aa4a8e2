import { describe, expect, it } from 'vitest';
import { aUser } from '../../services/api/src/testing/builders';
import { logIn } from './harness';
import { anOfficePlant, officeSession, ON_POSTGRES, POLL, screenshots, tableRows } from './office-harness';

// reports-admin §3 "Invitee: invitees list, role, brand_override" (decision 1117) in Chromium: a root user
// gives an invite a brand on the invite form (the rule checked as they type), the e-mail names it instead of
// Takt, and the invited user's header shows it. Screenshots at 1280×800 and 390×844 go to
// test-results/office-invite-brand/ (gitignored).

const KIM = 'kim.kowalski@shop.example';
const RULE = "A brand is at most 40 letters, digits, spaces and . , & ' ( ) -";

describe.each(ON_POSTGRES)('an invite with a brand in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-invite-brand', async (db, week) => {
    const plant = await anOfficePlant(db, week);
    const root = await aUser(db, plant.company, { role: 'admin', isRoot: true, displayName: 'Rita Root' });
    return { email: root.email, password: root.password };
  });

  it('a root user brands an invite; the e-mail and the invited user’s header say the brand', async () => {
    const { page, plant, product, db } = office;
    await logIn(page, plant, `${product.url}/app/accounts/invites`);
    await expect.poll(() => page.getByText('No open invites.').count(), POLL).toBe(1);
    expect(await page.locator('.shell__product').textContent()).toBe('Takt');
    await page.getByRole('button', { name: 'Invite users' }).click();
    const form = page.getByRole('dialog', { name: 'Invite users' });
    const send = form.getByRole('button', { name: 'Send invites' });
    await form.getByLabel('E-mail addresses').fill(KIM);
    const brand = form.getByLabel('Brand (optional)');
    await brand.fill('<b>Acme</b>');
    await expect.poll(() => form.getByText(RULE).count(), POLL).toBe(1);
    expect(await send.isDisabled()).toBe(true);
    await brand.fill('Acme Monitoring');
    await expect.poll(() => form.getByText(RULE).count(), POLL).toBe(0);
    await screenshots(page, 'office-invite-brand', 'invite-dialog');
    await send.click();
    const invites = page.getByRole('table', { name: 'Open invites' });
    await expect
      .poll(async () => (await tableRows(invites)).map((r) => [r[0], r[5]]), POLL)
      .toEqual([[KIM, 'Acme Monitoring']]);
    await screenshots(page, 'office-invite-brand', 'invites');

    const mail = await db.db
      .selectFrom('mail_outbox')
      .select(['subject', 'body'])
      .where('to_address', '=', KIM)
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('You are invited to Acme Machining on Acme Monitoring');
    expect(mail.body).toContain('Rita Root invited you to Acme Machining on Acme Monitoring (role: kiosk)');
    const link = /https?:\/\/\S+\/app\/set-password#token=[\w-]+/.exec(mail.body)?.[0] ?? '';
    expect(link).not.toBe('');

    await page.context().clearCookies();
    await page.goto(link);
    await page.getByLabel('Your name').fill('Kim Kowalski');
    await page.getByLabel('New password', { exact: true }).fill('Lathe2026');
    await page.getByLabel('Retype password').fill('Lathe2026');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('link', { name: 'Log in' }).click();
    await logIn(page, { email: KIM, password: 'Lathe2026' });
    await expect.poll(() => page.locator('.shell__product').textContent(), POLL).toBe('Acme Monitoring');
    await screenshots(page, 'office-invite-brand', 'branded-header');
  }, 120_000);
});
