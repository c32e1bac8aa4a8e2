import { describe, expect, it } from 'vitest';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { aUser } from '../../services/api/src/testing/builders';
import { logIn } from './harness';
import {
  anOfficePlant,
  moreOf,
  officeSession,
  ON_SQLITE,
  openAccountMenu,
  POLL,
  screenshots,
  tableRows,
} from './office-harness';
import type { Span } from './office-harness';

// Users, invites and password links (reports-admin §2 accounts, §5 live password rules; decision 0880) in
// Chromium on SQLite (decision 0871): an admin invites a manager; the test reads the link from the e-mail the
// product kept in its outbox (no SMTP server configured, decision 0701); the manager sets a password on the
// page the link opens, with the rules checked as they type, and logs in. The manager then resets the
// password through "Forgot password?" on the login page. Screenshots at 1280×800 and 390×844 go to
// test-results/office-users/ (gitignored).

const MAX = 'max.meyer@shop.example';

async function seed(db: Kysely<Database>, week: Span) {
  const plant = await anOfficePlant(db, week);
  const admin = await aUser(db, plant.company, { role: 'admin', displayName: 'Ada Admin' });
  return { email: admin.email, password: admin.password, manager: plant.user };
}

describe.each(ON_SQLITE)('users and invites in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-users', seed);

  /** The newest e-mailed set-password link to `to`, as the product stored it. */
  const linkTo = async (to: string): Promise<string> => {
    let link = '';
    await expect
      .poll(async () => {
        const rows = await office.db.db
          .selectFrom('mail_outbox')
          .select(['body', 'created_at'])
          .where('to_address', '=', to)
          .orderBy('created_at', 'desc')
          .execute();
        link = /https?:\/\/\S+\/app\/set-password#token=[\w-]+/.exec(rows[0]?.body ?? '')?.[0] ?? '';
        return link;
      }, POLL)
      .not.toBe('');
    return link;
  };

  it('lists the users and invites a manager; the link leads to a password page with live rules', async () => {
    const { page, plant, product } = office;
    await logIn(page, plant, `${product.url}/app/reports`);
    await (await moreOf(page)).getByRole('link', { name: 'Users' }).click();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Users');
    const users = page.getByRole('table', { name: 'Users of this company' });
    // The row header is the name, then the e-mail address under it.
    await expect
      .poll(
        async () => (await tableRows(users)).map((r) => r[0]!.replace(/user-\w+@test\.example$/, '').trim()),
        POLL,
      )
      .toEqual(['Ada Admin (you)', 'Maria Manager']);
    const [, maria] = await tableRows(users);
    expect(maria![0]).toContain(plant.manager.email);
    expect(maria!.slice(1, 3)).toEqual(['Manager', 'Active']);
    await office.settled();
    await screenshots(page, 'office-users', 'users');

    await page
      .getByRole('navigation', { name: 'Users and invites' })
      .getByRole('link', { name: 'Invites' })
      .click();
    await expect.poll(() => page.getByText('No open invites.').count(), POLL).toBe(1);
    await page.getByRole('button', { name: 'Invite users' }).click();
    const form = page.getByRole('dialog', { name: 'Invite users' });
    const send = form.getByRole('button', { name: 'Send invites' });
    // reports-admin §5: the submit button is disabled while the form is invalid; §6 kiosk by default.
    expect(await send.isDisabled()).toBe(true);
    expect(await form.getByLabel('Role').inputValue()).toBe('kiosk');
    // A new form is incomplete, not wrong: its error shows once a submit is tried (Save is disabled, so the
    // form is submitted as Enter would) or the addresses are edited.
    const missing = form.getByText('Missing required field: E-mail addresses');
    expect(await missing.count()).toBe(0);
    await form.locator('form').evaluate((f: HTMLFormElement) => f.requestSubmit());
    await expect.poll(() => missing.count(), POLL).toBe(1);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Invite users' }).click();
    expect(await send.isDisabled()).toBe(true);
    expect(await missing.count()).toBe(0);
    await form.getByLabel('E-mail addresses').fill(MAX);
    await form.getByLabel('E-mail addresses').fill('');
    await expect.poll(() => missing.count(), POLL).toBe(1);
    await form.getByLabel('E-mail addresses').fill(`  ${MAX}  \nnot an address`);
    await expect.poll(() => form.getByText('Not an e-mail address: not an address').count(), POLL).toBe(1);
    expect(await send.isDisabled()).toBe(true);
    await form.getByLabel('E-mail addresses').fill(`  ${MAX}  \n`);
    await form.getByLabel('Role').selectOption('manager');
    await screenshots(page, 'office-users', 'invite-dialog');
    await send.click();
    const invites = page.getByRole('table', { name: 'Open invites' });
    await expect
      .poll(async () => (await tableRows(invites)).map((r) => r.slice(0, 3)), POLL)
      .toEqual([[MAX, 'Manager', 'Ada Admin']]);
    await office.settled();
    await screenshots(page, 'office-users', 'invites');

    const link = await linkTo(MAX);
    expect(link.startsWith(`${product.url}/app/set-password#token=`)).toBe(true);
    await page.context().clearCookies();
    await page.goto(link);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Set your password');
    // The heading shows while the link is checked; the address once it is known.
    await expect.poll(() => page.getByText(`For ${MAX} at Acme Machining.`).count(), POLL).toBe(1);
    const submit = page.getByRole('button', { name: 'Set password' });
    const rules = page.getByRole('list', { name: 'Password rules' });
    const met = async () =>
      rules.locator('li.accounts__rule--ok').evaluateAll((items) => items.map((i) => i.textContent ?? ''));
    await page.getByLabel('Your name').fill('Max Meyer');
    await page.getByLabel('New password', { exact: true }).fill('lowercase');
    await expect.poll(met, POLL).toEqual(['✓At least 8 characters: met', '✓A lowercase letter: met']);
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('New password', { exact: true }).fill('Lathe2026');
    await page.getByLabel('Retype password').fill('Lathe2025');
    await expect.poll(async () => (await met()).length, POLL).toBe(4);
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Retype password').fill('Lathe2026');
    await expect.poll(async () => (await met()).length, POLL).toBe(5);
    await screenshots(page, 'office-users', 'set-password');
    await submit.click();
    await expect
      .poll(
        () => page.getByText(`Your password is set. Log in with ${MAX} and the new password.`).count(),
        POLL,
      )
      .toBe(1);

    await page.getByRole('link', { name: 'Log in' }).click();
    await logIn(page, { email: MAX, password: 'Lathe2026' });
    await openAccountMenu(page);
    const profileLink = page.getByRole('link', { name: 'Signed in as Max Meyer' });
    await expect.poll(() => profileLink.count(), POLL).toBe(1);
    // A manager gets no Users entry (reports-admin §6: administration is for admins), nor the More menu
    // that holds it (decision 1152).
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Users' }).count()).toBe(0);
    expect(await nav.getByRole('button', { name: 'More' }).count()).toBe(0);
    // The link worked once.
    await page.goto(link);
    await expect
      .poll(() => page.getByText('This link is no longer valid. Ask for a new one.').count(), POLL)
      .toBe(1);
  }, 90_000);

  it('shows the profile, and sets a new password through "Forgot password?"', async () => {
    const { page, product } = office;
    await page.goto(`${product.url}/app/profile`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Profile');
    await expect
      .poll(() => page.getByText('Logged in on 1 device(s), this one included.').count(), POLL)
      .toBe(1);
    await page.getByRole('checkbox', { name: 'Send me notifications' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByText('Your preferences have been updated.').count(), POLL).toBe(1);
    await office.settled();
    await screenshots(page, 'office-users', 'profile');

    await page.context().clearCookies();
    await page.goto(`${product.url}/app`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Forgot password');
    await page.getByLabel('Email').fill(MAX);
    await screenshots(page, 'office-users', 'forgot-password');
    await page.getByRole('button', { name: 'Send link' }).click();
    await expect
      .poll(
        () => page.getByRole('status').filter({ hasText: 'If an account uses that address' }).count(),
        POLL,
      )
      .toBe(1);
    await page.goto(await linkTo(MAX));
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Set a new password');
    await page.getByLabel('New password', { exact: true }).fill('Spindle99');
    await page.getByLabel('Retype password').fill('Spindle99');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('link', { name: 'Log in' }).click();
    await logIn(page, { email: MAX, password: 'Spindle99' });
    await openAccountMenu(page);
    await expect.poll(() => page.getByRole('link', { name: 'Signed in as Max Meyer' }).count(), POLL).toBe(1);
  }, 90_000);
});
