import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { aUser } from '../../services/api/src/testing/builders';
import { aTablet } from '../../services/api/src/testing/tablet-builders';
import { logIn } from './harness';
import { anOfficePlant, officeSession, ON_POSTGRES, POLL, tableRows } from './office-harness';
import type { Span } from './office-harness';

// The Tablets admin screen (live-operations §2 "Tablet management", §8 tablet texts; reports-admin §4 tablet
// actions, §8 "Tablet refresh", "Purge") in Chromium on PostgreSQL (decision 0871). A tablet, played here by a
// WebSocket client of /tablet-auth, shows a code; the admin registers it with that code and the tablet gets
// its token; refresh and restart reach it once it listens, refresh all names the tablets it could not reach,
// and revoke then purge clear a tablet away. Screenshots at 1280×800 and 390×844 go to
// test-results/office-admin-tablets/ (gitignored).

async function seedPlant(db: Kysely<Database>, week: Span, now: number) {
  const plant = await anOfficePlant(db, week);
  const admin = await aUser(db, plant.company, { role: 'admin', displayName: 'Ada Admin' });
  // A kiosk at the press that is registered but not listening now (its page is closed).
  const press = await aTablet(db, plant.company, plant.press, now, 'SN-PRESS');
  await db
    .updateTable('tablets')
    .set({ remote_identifier: 'Press kiosk' })
    .where('id', '=', press.id)
    .execute();
  return { email: admin.email, password: admin.password, company: plant.company, pressTabletId: press.id };
}

/** A tablet's socket on /tablet-auth, collecting what the server says. */
async function tabletSocket(url: string, cookie?: string) {
  const ws = new WebSocket(
    `${url.replace(/^http/, 'ws')}/tablet-auth`,
    cookie ? { headers: { cookie } } : {},
  );
  const messages: Array<Record<string, unknown>> = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data)) as Record<string, unknown>));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = async (event: string) => {
    await expect.poll(() => messages.find((m) => m.event === event), POLL).toBeDefined();
    return messages.find((m) => m.event === event)!;
  };
  return { ws, messages, next, send: (m: unknown) => ws.send(JSON.stringify(m)) };
}

describe.each(ON_POSTGRES)('tablets admin in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-admin-tablets', seedPlant);
  const toast = (text: string) => office.page.getByText(text, { exact: true });
  const table = () => office.page.getByRole('table', { name: 'Registered tablets' });
  const sockets: WebSocket[] = [];
  afterEach(() => sockets.splice(0).forEach((s) => s.terminate()));

  async function openTablets() {
    const { page } = office;
    // Each test opens the screen itself (logged in by an earlier one, or not: tests are independent).
    await page.goto(`${office.product.url}/app/admin`);
    await expect.poll(() => page.getByLabel('Email').or(office.heading()).count(), POLL).toBeGreaterThan(0);
    if (await page.getByLabel('Email').count()) await logIn(page, office.plant);
    await page.getByRole('link', { name: /^Tablets / }).click();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Tablets');
    await office.settled();
  }

  it('registers a tablet by its code, then refreshes and restarts it; refresh all names the unreached', async () => {
    const { page, product } = office;
    // The tablet opens its registration page and shows a code.
    const pending = await tabletSocket(product.url);
    sockets.push(pending.ws);
    pending.send({ event: 'get_code', serial_number: 'SN-LATHE' });
    const { code } = await pending.next('send_code');

    await openTablets();
    await expect.poll(async () => (await tableRows(table())).map((r) => r[0]), POLL).toEqual(['Press kiosk']);
    await page.getByRole('button', { name: 'Register tablet' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register a tablet' });
    const register = dialog.getByRole('button', { name: 'Register' });
    expect(await register.isDisabled()).toBe(true);
    await dialog.getByLabel('Code').fill(' ');
    expect(await dialog.getByText('Missing required field: Code').count()).toBe(1);
    // Read off the tablet by hand: lower case and a dash are forgiven.
    const typed = String(code).toLowerCase();
    await dialog.getByLabel('Code').fill(`${typed.slice(0, 3)}-${typed.slice(3)}`);
    await dialog.getByLabel('Remote Identifier').fill('Lathe front');
    await dialog.getByLabel('Machine').selectOption({ label: 'Lathe' });
    await office.screenshots('register');
    await register.click();
    await expect.poll(() => dialog.count(), POLL).toBe(0);
    await expect.poll(() => toast('Lathe front registered.').count(), POLL).toBe(1);

    // The tablet hears it is registered, activates with its token and listens for the admin's pushes.
    const { token } = await pending.next('registered');
    const act = await fetch(`${product.url}/tablet/activate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${String(token)}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(act.status).toBe(200);
    const cookie = act.headers.get('set-cookie')!.split(';')[0]!;
    const live = await tabletSocket(product.url, cookie);
    sockets.push(live.ws);
    live.send({ event: 'join' });
    await live.next('join');

    await page.reload();
    await office.settled();
    await expect
      .poll(async () => (await tableRows(table())).find((r) => r[0] === 'Lathe front')?.slice(0, 6), POLL)
      .toEqual([
        'Lathe front',
        'SN-LATHE',
        'Lathe',
        'Workcenter (operator tablet)',
        expect.not.stringMatching(/^Never$/),
        'Active',
      ]);

    await page.getByRole('button', { name: 'Refresh Lathe front' }).click();
    await live.next('refresh');
    await expect.poll(() => toast('Lathe front is reloading.').count(), POLL).toBe(1);
    await page.getByRole('button', { name: 'Restart Lathe front' }).click();
    await live.next('restart');
    await expect.poll(() => toast('Lathe front is restarting.').count(), POLL).toBe(1);

    // live-operations §8: the press kiosk is not listening.
    await page.getByRole('button', { name: 'Refresh Press kiosk' }).click();
    await expect.poll(() => toast('Unable to refresh tablet Press kiosk').count(), POLL).toBe(1);
    await page.getByRole('button', { name: 'Refresh all' }).click();
    const failed = page.getByRole('dialog', { name: 'Unable to refresh one or more tablets' });
    await expect.poll(() => failed.count(), POLL).toBe(1);
    const ids = await failed.getByRole('listitem').allTextContents();
    expect(ids).toEqual([`${office.plant.pressTabletId} Press kiosk`]);
    await office.screenshots('refresh-all-failed');
    await failed.getByRole('button', { name: 'Close' }).last().click();
    await expect.poll(() => failed.count(), POLL).toBe(0);
    await office.screenshots('list', true);
  }, 120_000);

  it('revokes a tablet after confirming, then purges the revoked ones', async () => {
    const { page } = office;
    const now = Date.now();
    const old = await aTablet(office.db.db, office.plant.company, null, now, 'SN-OLD');
    const paint = await aTablet(office.db.db, office.plant.company, null, now, 'SN-PAINT');
    await office.db.db
      .updateTable('tablets')
      .set({ remote_identifier: 'Paint kiosk' })
      .where('id', '=', paint.id)
      .execute();
    await office.db.db.updateTable('tablets').set({ state: 'revoked' }).where('id', '=', old.id).execute();

    await openTablets();
    await page.getByRole('button', { name: 'Revoke Paint kiosk' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke Paint kiosk' });
    expect(await confirm.getByText(/loses access at once/).count()).toBe(1);
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => toast('Paint kiosk revoked.').count(), POLL).toBe(1);
    await expect
      .poll(async () => (await tableRows(table())).find((r) => r[0] === 'Paint kiosk')?.[5], POLL)
      .toBe('Revoked');
    // A revoked tablet's token no longer works.
    expect((await fetch(`${office.product.url}/api/me`, { headers: { cookie: paint.cookie } })).status).toBe(
      401,
    );
    await office.screenshots('revoked');

    await page.getByRole('button', { name: 'Purge', exact: true }).click();
    const purge = page.getByRole('dialog', { name: 'Purge revoked tablets' });
    await purge.getByRole('button', { name: 'Purge' }).click();
    // reports-admin §8 "success '{count} tablets deleted'".
    await expect.poll(() => toast('2 tablets deleted').count(), POLL).toBe(1);
    await expect
      .poll(
        async () =>
          (await tableRows(table())).map((r) => r[1]).filter((s) => s === 'SN-OLD' || s === 'SN-PAINT'),
        POLL,
      )
      .toEqual([]);
    expect(await page.getByRole('button', { name: 'Purge', exact: true }).isDisabled()).toBe(true);
  }, 120_000);
});
