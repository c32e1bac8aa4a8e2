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
  POLL,
  screenshots,
  tableRows,
} from './office-harness';
import type { Span } from './office-harness';

// The API keys screen (reports-admin §2 "API keys: list, create, edit, delete, with scopes; access token shown
// once at creation"; decision 0840) in Chromium on SQLite (decision 0871): an admin creates a key that reads
// reports, copies its token from the one dialog that shows it, and the token then reads the company's
// dashboard and reports over `Authorization: Bearer` but may not start a job; the key is edited, then deleted
// after a confirmation, and stops working. A manager gets no entry. Screenshots at 1280×800 and 390×844 go to
// test-results/office-accounts/ (gitignored).

async function seed(db: Kysely<Database>, week: Span) {
  const plant = await anOfficePlant(db, week);
  const admin = await aUser(db, plant.company, { role: 'admin', displayName: 'Ada Admin' });
  return { email: admin.email, password: admin.password, manager: plant.user };
}

describe.each(ON_SQLITE)('API keys in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-accounts', seed);
  let token = '';

  const call = (method: string, path: string, key: string, body?: unknown) =>
    fetch(`${office.product.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('creates a key that reads reports and shows its token once', async () => {
    const { page, plant, product } = office;
    await logIn(page, plant, `${product.url}/app/reports`);
    await (await moreOf(page)).getByRole('link', { name: 'API keys' }).click();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('API keys');
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'No API keys yet.' }).count(), POLL)
      .toBe(1);

    await page.getByRole('button', { name: 'Create API key' }).click();
    const form = page.getByRole('dialog', { name: 'New API key' });
    const create = form.getByRole('button', { name: 'Create' });
    // reports-admin §5: the submit button is disabled while the form is invalid.
    expect(await create.isDisabled()).toBe(true);
    expect(await form.getByRole('checkbox', { name: /Read reports/ }).isChecked()).toBe(true);
    await form.getByLabel('Name').fill('ERP export');
    await form.getByRole('checkbox', { name: /Read reports/ }).uncheck();
    await expect.poll(() => form.getByText('Choose at least one scope.').count(), POLL).toBe(1);
    expect(await create.isDisabled()).toBe(true);
    await form.getByRole('checkbox', { name: /Read reports/ }).check();
    await screenshots(page, 'office-accounts', 'create-dialog');
    await create.click();

    const shown = page.getByRole('dialog', { name: 'API key created' });
    const field = shown.getByLabel('Access token');
    await expect.poll(() => field.inputValue(), POLL).toMatch(/^tak_[\w-]{43}$/);
    token = await field.inputValue();
    expect(await shown.getByText(/shown only once/).count()).toBe(1);
    await shown.getByRole('button', { name: 'Copy' }).click();
    // Copied to the clipboard, or (without clipboard access) selected with a hint to copy by hand.
    await expect
      .poll(
        async () =>
          (await shown.getByRole('button', { name: 'Copied' }).count()) +
          (await shown.getByText('Select the token and copy it by hand.').count()),
        POLL,
      )
      .toBe(1);
    await screenshots(page, 'office-accounts', 'token-once');
    await shown.getByRole('button', { name: 'Done' }).click();

    const table = page.getByRole('table', { name: 'API keys of this company' });
    await expect.poll(async () => (await tableRows(table)).length, POLL).toBe(1);
    const [row] = await tableRows(table);
    expect(row!.slice(0, 3)).toEqual(['ERP export', `${token.slice(0, 8)}…`, 'Read reports']);
    expect(row![4]).toBe('Never');
    // Expires: a year from today by default (decision 0990), a date and time.
    expect(row![5]).toMatch(/\d/);
    // The token is nowhere on the page any more.
    expect(await page.content()).not.toContain(token);
  });

  it('the token reads the dashboard and reports of its company only, and may not start a job', async () => {
    const { page, product } = office;
    const dashboard = await call('GET', '/api/dashboard', token);
    expect(dashboard.status).toBe(200);
    const { machines } = (await dashboard.json()) as { machines: Array<{ name: string }> };
    expect(machines.map((m) => m.name)).toEqual(['Lathe', 'Mill', 'Press']);
    const { start, end } = office.week;
    expect((await call('GET', `/api/reports/downtime?start=${start}&end=${end}`, token)).status).toBe(200);
    expect((await call('POST', '/api/dispatch/start', token, {})).status).toBe(403);
    expect((await call('GET', '/api/apikeys', token)).status).toBe(403);
    const description = await fetch(`${product.url}/api/openapi.json`);
    expect(((await description.json()) as { openapi: string }).openapi).toBe('3.1.0');

    await page.reload();
    const table = page.getByRole('table', { name: 'API keys of this company' });
    // Last used is now a date and time, not "Never".
    await expect.poll(async () => (await tableRows(table))[0]?.[4] ?? '', POLL).toMatch(/\d/);
    await office.settled();
    await screenshots(page, 'office-accounts', 'list');
  });

  it('edits the scopes, then deletes the key after a confirmation; the token stops working', async () => {
    const { page } = office;
    await page.getByRole('button', { name: 'Edit ERP export' }).click();
    const form = page.getByRole('dialog', { name: 'Edit API key' });
    await form.getByRole('checkbox', { name: /Live operations/ }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    const table = page.getByRole('table', { name: 'API keys of this company' });
    await expect.poll(async () => (await tableRows(table))[0]?.[2], POLL).toBe('Read reportsLive operations');
    expect((await call('POST', '/api/dispatch/start', token, {})).status).toBe(400);

    await page.getByRole('button', { name: 'Delete ERP export' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete API key' });
    // The short question in bold, what happens under it in normal text.
    expect(await confirm.getByText('Are you sure?', { exact: true }).count()).toBe(1);
    expect(await confirm.getByText('Delete ERP export?', { exact: true }).count()).toBe(1);
    await screenshots(page, 'office-accounts', 'delete-confirm');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByText('No API keys yet.').count(), POLL).toBe(1);
    expect((await call('GET', '/api/dashboard', token)).status).toBe(401);
  });

  it('gives a manager no API keys entry, and the page says it is for administrators', async () => {
    const { page, plant, product } = office;
    await page.context().clearCookies();
    await logIn(page, plant.manager, `${product.url}/app/accounts/api-keys`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('API keys');
    expect(await page.getByText('Only administrators can manage API keys.').count()).toBe(1);
    // Nor the More menu that holds it for admins (decision 1152).
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    expect(await nav.getByRole('button', { name: 'More' }).count()).toBe(0);
  });
});
