import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { companyScope } from '@takt/db';
import { freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { toLocalInput } from '../../apps/office/src/machine-tools/export-form';
import { createAdapter } from '../../services/api/src/repositories/adapters';
import { createShdrSource } from '../../services/api/src/repositories/machine-sources';
import { createMachine } from '../../services/api/src/repositories/machines';
import { aCompany, aUser } from '../../services/api/src/testing/builders';
import { launchChromium, logIn, startProduct } from './harness';
import type { RunningProduct } from './harness';
import { CLOCK, ON_POSTGRES, POLL, screenshots } from './office-harness';

// The machine diagnostics, conditions and event-export pages of the office app (reports-admin §2, §4, §5,
// §7, §8, §9; decision 0810) in Chromium, on PostgreSQL (decision 0871). The product runs with ingest on and one
// machine, "Mill 1", fed by an SHDR adapter this test plays: what the test's adapter sends reaches the pages
// through ingest and the live channel, as on a plant floor. Screenshots at desk and phone widths go to
// test-results/office-machine-tools/ (gitignored).

const MIN = 60_000;

/** An SHDR adapter on a free port: answers PING with PONG (so the link has a heartbeat) and sends lines. */
async function anAdapter() {
  const clients = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    clients.add(socket);
    socket.on('data', (d) => {
      if (d.toString().includes('* PING')) socket.write('* PONG 10000\n');
    });
    socket.on('close', () => clients.delete(socket));
    socket.on('error', () => clients.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    connected: () => clients.size > 0,
    /** One SHDR line `ts|key|value|…` stamped now. */
    send(...pairs: Array<[string, string]>) {
      const line = `${new Date().toISOString()}|${pairs.map(([k, v]) => `${k}|${v}`).join('|')}\n`;
      for (const c of clients) c.write(line);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of clients) c.destroy();
        server.close(() => resolve());
      }),
  };
}

describe.each(ON_POSTGRES)(
  'the machine diagnostics, conditions and export pages in Chromium on %s',
  (dialect) => {
    let db: TestDb;
    let product: RunningProduct;
    let browser: Browser;
    let page: Page;
    let adapter: Awaited<ReturnType<typeof anAdapter>>;
    let machineId = '';
    let login = { email: '', password: '' };
    /** What the live channel sent the page, as text (to tell a live update from a reload). */
    const frames: string[] = [];
    const shoot = (name: string) => screenshots(page, 'office-machine-tools', name);

    beforeAll(async () => {
      db = await freshDb(dialect);
      adapter = await anAdapter();
      const now = Date.now();
      const company = await aCompany(db.db, {
        name: 'Acme Machining',
        timezone: CLOCK.timezone,
        productTier: 'full',
      });
      const user = await aUser(db.db, company, { role: 'manager', displayName: 'Maria Manager' });
      login = { email: user.email, password: user.password };
      const scope = companyScope(db.db, company.id);
      const field = (name: string, dataItemType: string) => ({
        name,
        dataItemType,
        componentName: 'path',
        componentType: 'Path',
      });
      const adapterId = await createAdapter(
        scope,
        {
          name: 'Haas NGC',
          fields: [
            field('exec', 'EXECUTION'),
            field('mode', 'CONTROLLER_MODE'),
            field('pc', 'PART_COUNT'),
            field('Sload', 'LOAD'),
            field('Srpm', 'SPINDLE_SPEED'),
          ],
        },
        now,
      );
      machineId = await createMachine(scope, { name: 'Mill 1', adapterId, sortOrder: 1 }, now);
      await createShdrSource(scope, { machineId, host: '127.0.0.1', port: adapter.port }, now);
      // The last hour as the machine reported it: the spindle load every 10 minutes, and a coolant
      // temperature no adapter field maps.
      const rows: Array<[number, string, string]> = [
        [now - 50 * MIN, 'exec', 'ACTIVE'],
        [now - 50 * MIN, 'mode', 'AUTOMATIC'],
        [now - 50 * MIN, 'pc', '118'],
        [now - 50 * MIN, 'Srpm', '1200'],
        [now - 40 * MIN, 'Xcoolant', '21.5'],
        ...[35.5, 48, 52.25, 44, 41.5].map((v, i): [number, string, string] => [
          now - (50 - i * 10) * MIN,
          'Sload',
          String(v),
        ]),
      ];
      await db.db
        .insertInto('observations')
        .values(
          rows.map(([ts, key, value]) => ({ company_id: company.id, machine_id: machineId, ts, key, value })),
        )
        .execute();
      [product, browser] = await Promise.all([
        startProduct({ DATABASE_URL: db.url, TAKT_DEMO: '0', TAKT_INGEST: '1' }),
        launchChromium(),
      ]);
      page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
      page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await product?.stop();
      await adapter?.close();
      await db?.cleanup();
    });

    const heading = () => page.getByRole('heading', { level: 1 });
    const section = (name: string) => page.getByRole('region', { name, exact: true });
    /** The Latest values row of `key` as its cells read on screen (innerText: the phone-only type is hidden). */
    const valueOf = (key: string) =>
      section('Latest values')
        .locator('tbody tr')
        .evaluateAll(
          (rows, k) =>
            rows
              .filter((r) => r.getAttribute('data-key') === k)
              .map((r) =>
                [...r.querySelectorAll('th, td')].map((c) => (c as HTMLElement).innerText.trim()),
              )[0],
          key,
        );

    it('opens Diagnostics from the Machines page: latest values, the link, unmapped items, live updates', async () => {
      await page.goto(`${product.url}/app/machines`);
      await logIn(page, login);
      const links = page.getByRole('list', { name: 'Pages for Mill 1' });
      await expect
        .poll(() => links.getByRole('link').allTextContents(), POLL)
        .toEqual(['Diagnostics', 'Conditions', 'Event export']);
      await shoot('machines');
      await links.getByRole('link', { name: 'Diagnostics' }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/machine/${machineId}/diagnostics`);
      await expect.poll(() => heading().textContent(), POLL).toBe('Diagnostics for Mill 1');

      // The latest value per field (reports-admin §2), the seeded history's last.
      await expect
        .poll(() => valueOf('Sload'), POLL)
        .toEqual(['Sload', 'LOAD', '41.5', expect.stringMatching(/ago\)$/)]);
      expect((await valueOf('Srpm'))?.slice(0, 3)).toEqual(['Srpm', 'SPINDLE_SPEED', '1,200']);
      expect((await valueOf('Xcoolant'))?.slice(0, 3)).toEqual(['Xcoolant', 'Not mapped', '21.5']);
      const unmapped = section('Unmapped items').getByRole('listitem');
      expect(await unmapped.allTextContents()).toEqual(['Xcoolant']);

      // The adapter answers PING: the link is up (live-operations §4), and the channel is joined.
      await expect.poll(() => adapter.connected(), POLL).toBe(true);
      const link = section('Data connection').locator('.tile').first();
      await expect.poll(() => link.locator('.status-badge').textContent(), POLL).toBe('Connected');
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Live:' }).count(), POLL).toBe(1);

      // An observation arrives: the row changes without a reload, through the channel; a key no field maps
      // joins the unmapped items.
      adapter.send(['Sload', '77.25'], ['Ztool_temp', '35']);
      await expect
        .poll(async () => (await valueOf('Sload'))?.[2], { timeout: 15_000, interval: 200 })
        .toBe('77.25');
      expect(frames.some((f) => f.includes('"channel_update"') && f.includes('77.25'))).toBe(true);
      expect((await valueOf('Sload'))?.[3]).toMatch(/just now|s ago/);
      await expect.poll(() => unmapped.allTextContents(), POLL).toEqual(['Xcoolant', 'Ztool_temp']);
      await shoot('diagnostics');
    }, 90_000);

    it('charts a scalar field live on Conditions, and switches fields', async () => {
      await page
        .getByRole('navigation', { name: 'Pages for Mill 1' })
        .getByRole('link', { name: 'Conditions' })
        .click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/machine/${machineId}/conditions`);
      await expect.poll(() => heading().textContent(), POLL).toBe('Conditions for Mill 1');
      // Scalar fields only: mapped numbers first, no counters or words.
      const select = page.getByLabel('Field');
      await expect
        .poll(() => select.locator('option').allTextContents(), POLL)
        .toEqual(['Sload (LOAD)', 'Srpm (SPINDLE_SPEED)', 'Xcoolant', 'Ztool_temp']);
      const latest = page.locator('[data-stat="latest"]');
      await expect.poll(() => latest.textContent(), POLL).toBe('77.25');
      expect(await page.locator('[data-stat="max"]').textContent()).toBe('77.25');
      expect(await page.locator('[data-stat="min"]').textContent()).toBe('35.5');

      // The chart draws the line in the first chart colour.
      const drawn = () =>
        page.locator('figure canvas').evaluate((c: HTMLCanvasElement) => {
          const ctx = c.getContext('2d');
          if (!ctx) return 0;
          const { data } = ctx.getImageData(0, 0, c.width, c.height);
          let n = 0;
          // --chart-1 #1f5fbf
          for (let i = 0; i < data.length; i += 4)
            if (
              Math.abs(data[i]! - 0x1f) < 30 &&
              Math.abs(data[i + 1]! - 0x5f) < 30 &&
              Math.abs(data[i + 2]! - 0xbf) < 30
            )
              n++;
          return n;
        });
      await expect.poll(drawn, POLL).toBeGreaterThan(100);

      // A new value arrives live.
      adapter.send(['Sload', '90']);
      await expect.poll(() => latest.textContent(), { timeout: 15_000, interval: 200 }).toBe('90');
      expect(await page.locator('[data-stat="max"]').textContent()).toBe('90');
      await shoot('conditions');

      await select.selectOption('Srpm');
      await expect.poll(() => new URL(page.url()).searchParams.get('key')).toBe('Srpm');
      await expect
        .poll(() => page.getByRole('heading', { level: 2 }).first().textContent(), POLL)
        .toBe('Srpm (SPINDLE_SPEED), last hour');
      await expect.poll(() => latest.textContent(), POLL).toBe('1,200');
    }, 90_000);

    it('checks the export form with the spec texts, then queues the export', async () => {
      await page
        .getByRole('navigation', { name: 'Pages for Mill 1' })
        .getByRole('link', { name: 'Event export' })
        .click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/machine/${machineId}/export`);
      await expect.poll(() => heading().textContent(), POLL).toBe('Export event data for Mill 1');
      const start = page.getByLabel('Start');
      const end = page.getByLabel('End');
      const queue = page.getByRole('button', { name: 'Queue export' });
      const now = Date.now();
      const local = (ms: number) => toLocalInput(ms, CLOCK.timezone);

      // reports-admin §5: start before end.
      await start.fill(local(now - 60 * MIN));
      await end.fill(local(now - 120 * MIN));
      await expect
        .poll(() => page.getByRole('alert').allTextContents(), POLL)
        .toEqual(['Start Date must be before End Date']);
      expect(await queue.isDisabled()).toBe(true);
      await shoot('export-invalid');
      // Minimum two years back.
      await start.fill(local(now - 3 * 365 * 24 * 60 * MIN));
      await end.fill(local(now));
      await expect
        .poll(() => page.getByRole('alert').allTextContents(), POLL)
        .toEqual(['Start Date cannot be more than 2 years ago']);

      // A valid range, one field.
      await start.fill(local(now - 24 * 60 * MIN));
      await expect.poll(() => page.getByRole('alert').count(), POLL).toBe(0);
      await page.getByRole('checkbox', { name: 'Sload' }).check();
      await queue.click();
      // reports-admin §8: the success text; the answer itself is not shown (§7).
      const done = page.getByRole('status').filter({ hasText: 'within an hour' });
      await expect
        .poll(() => done.locator('p').first().textContent(), POLL)
        .toBe("We'll send that to you within an hour.");
      expect(await done.textContent()).toContain(login.email);
      const queued = await db.db
        .selectFrom('event_exports')
        .selectAll()
        .where('machine_id', '=', machineId)
        .execute();
      expect(queued).toHaveLength(1);
      expect(JSON.parse(queued[0]!.filter_keys)).toEqual(['Sload']);
      expect(Number(queued[0]!.end_at) - Number(queued[0]!.start_at)).toBeGreaterThan(23 * 60 * MIN);
      await shoot('export-queued');
    }, 90_000);
  },
);
