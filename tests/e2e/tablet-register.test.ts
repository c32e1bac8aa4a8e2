import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, WebSocket as PwWebSocket } from 'playwright-core';
import { DEMO_LOGINS } from '@takt/api';
import { describeTablets, productAndBrowser, SOON, Tablet, WorkcenterPage } from './floor-app';
import type { MachineRef } from './floor-app';
import { query, syncCommands } from './server-db';

// Live-operations §2 "Operator runs and tablets", §7, §9: /tablet/register over the
// tablet-auth WebSocket. The tablet connects and shows a code with its expiry on a countdown ring ticking every
// 100 ms; an admin associates the code with a machine through the API; the tablet is associated, registered
// and activated, and opens its machine 3 s later. From then on it acts only on that machine.
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;
const CODE_TTL_MS = 5 * 60_000;

interface Frame {
  event: string;
  at: number;
  [k: string]: unknown;
}

describe('tablet registration', () => {
  const running = productAndBrowser();
  let office: BrowserContext;

  beforeAll(async () => {
    office = await running.browser.newContext();
    const res = await office.request.post(`${running.product.url}/login`, {
      data: { email: admin.email, password: admin.password },
    });
    expect(res.status()).toBe(200);
  });

  const machineNamed = async (name: string): Promise<MachineRef> => {
    const res = await office.request.get(`${running.product.url}/api/dashboard`);
    const { machines } = (await res.json()) as { machines: MachineRef[] };
    const m = machines.find((x) => x.name === name);
    if (!m) throw new Error(`no machine ${name}`);
    return { id: m.id, name: m.name };
  };

  it('registers by code, activates, opens its machine 3 s later and acts only on that machine', async ({
    onTestFailed,
  }) => {
    const { product, browser } = running;
    const bound = await machineNamed('Haas VF-4');
    const other = await machineNamed('Haas VF-2 #1');

    // A new device: no session, no tablet cookie.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const tablet = Tablet.attach(context, page, product.url);
    onTestFailed(async () => console.log(await describeTablets([tablet])));
    const frames: Frame[] = [];
    const sockets: string[] = [];
    page.on('websocket', (ws: PwWebSocket) => {
      sockets.push(new URL(ws.url()).pathname);
      ws.on('framereceived', ({ payload }) => {
        try {
          frames.push({ ...(JSON.parse(String(payload)) as Frame), at: Date.now() });
        } catch {
          // not JSON: not ours
        }
      });
    });

    await page.goto(`${product.url}/tablet/register`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Register this tablet' }).count(), SOON)
      .toBe(1);

    // 1. Connected over /tablet-auth, a code with its expiry.
    const codeRegion = page.getByRole('region', { name: 'Registration code' });
    const codeText = codeRegion.getByRole('status');
    await expect.poll(async () => (await codeText.textContent())?.trim(), SOON).toMatch(/^[A-Z0-9]{4,}$/);
    const code = ((await codeText.textContent()) ?? '').trim();
    expect(sockets).toContain('/tablet-auth');
    const sent = frames.find((f) => f.event === 'send_code');
    expect(sent).toMatchObject({ code, tablet_id: expect.any(String) });
    expect(sent!.expiresIn).toBeGreaterThan(CODE_TTL_MS - 10_000);
    expect(sent!.expiresIn).toBeLessThanOrEqual(CODE_TTL_MS);
    // The ring names the time left (m:ss) and counts down.
    const ring = codeRegion.getByRole('img', { name: /^Code expires in \d:\d\d$/ });
    await expect.poll(() => ring.count(), SOON).toBe(1);
    expect(await ring.getAttribute('aria-label')).toMatch(/^Code expires in [45]:\d\d$/);
    expect(
      await page
        .getByRole('list', { name: 'Registration steps' })
        .locator('[aria-current="step"]')
        .textContent(),
    ).toBe('Receive a registration code');

    // 2. The ring ticks every 100 ms: its arc changes about ten times a second.
    const ticks = await ring.evaluate(
      (svg) =>
        new Promise<number>((resolve) => {
          let n = 0;
          const seen = new Set<string>();
          const arc = () => svg.querySelector('.ring-chart__lap')?.getAttribute('stroke-dasharray') ?? '';
          seen.add(arc());
          const observer = new MutationObserver(() => {
            const v = arc();
            if (!seen.has(v)) {
              seen.add(v);
              n++;
            }
          });
          observer.observe(svg, { subtree: true, attributes: true });
          setTimeout(() => {
            observer.disconnect();
            resolve(n);
          }, 2000);
        }),
    );
    expect(ticks).toBeGreaterThanOrEqual(14);
    expect(ticks).toBeLessThanOrEqual(24);

    // 3. An admin associates the code with a machine (the office's Tablets → Register).
    const associated = await office.request.post(`${product.url}/api/tablets/associate`, {
      data: { code, machineId: bound.id, remote_identifier: 'Cell 4 tablet' },
    });
    expect(associated.status()).toBe(200);
    expect(await associated.json()).toMatchObject({ id: sent!.tablet_id, machine_id: bound.id });

    // 4. Associated, registered (the device token), activated (the tablet cookie), then the machine 3 s later.
    const done = page
      .getByRole('status')
      .filter({ hasText: 'Activated. Opening the work center in 3 seconds…' });
    await expect.poll(() => done.count(), SOON).toBe(1);
    const activatedSeenAt = Date.now();
    expect(frames.map((f) => f.event).filter((e) => e !== 'send_code')).toEqual(['associated', 'registered']);
    expect(frames.find((f) => f.event === 'registered')).toMatchObject({
      token: expect.any(String),
      machineId: bound.id,
    });
    expect((await context.cookies()).map((c) => c.name)).toContain('takt_tablet');
    await page.waitForURL(`${product.url}/${bound.id}`, { timeout: 10_000 });
    const waited = Date.now() - activatedSeenAt;
    // The status was seen at most one poll (200 ms) after it showed.
    expect(waited).toBeGreaterThanOrEqual(2_700);
    expect(waited).toBeLessThan(6_000);
    expect(
      query(
        product,
        'SELECT state, machine_id, remote_identifier FROM tablets WHERE id = ?',
        sent!.tablet_id,
      ),
    ).toEqual([{ state: 'active', machine_id: bound.id, remote_identifier: 'Cell 4 tablet' }]);

    // 5. The workcenter of its machine, signed in by the device token alone.
    const wc = new WorkcenterPage(tablet, bound);
    await wc.waitUntilShown();
    // Not removed from good parts: the demo machine may have made none yet today (decision 0997).
    await wc.rejectPart({ count: 2, reason: 'Dimension out of tolerance', removeFromGood: false });
    await wc.waitAllSaved();
    expect(syncCommands(product, bound.id).map((c) => [c.type, c.status])).toEqual([
      ['reject_part', 'applied'],
    ]);

    // Tablet mode (live-operations §2, §6): the menu hides Dashboard and TV Mode and keeps Remote Identifier
    // and home.
    const menu = await wc.openMenu();
    expect(await menu.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
    expect(await menu.getByRole('button', { name: 'TV Mode' }).count()).toBe(0);
    expect(await menu.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    await menu.getByRole('button', { name: 'Remote Identifier' }).click();
    // The name the admin gave the tablet (remote_identifier of the activation answer and the tablet record).
    await expect
      .poll(
        () =>
          page
            .getByRole('region', { name: 'Notifications' })
            .getByText(/^Remote Identifier: /)
            .textContent(),
        SOON,
      )
      .toBe('Remote Identifier: Cell 4 tablet');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('takt.tablet') ?? 'null'))).toEqual({
      tabletId: sent!.tablet_id,
      machineId: bound.id,
      remoteIdentifier: 'Cell 4 tablet',
    });

    // A tablet bound to one machine has no machine switcher (live-operations §2), even with the company's
    // enable_tablet_machine_switching on (as in the demo): the server holds it to its machine (step 6).
    const flags = await context.request.get(`${product.url}/api/company/flags`);
    expect(await flags.json()).toMatchObject({ enable_tablet_machine_switching: true });
    await wc.waitUntilShown();
    expect(await wc.button('Start Job').count()).toBe(1);
    expect(await wc.button('Switch machine').count()).toBe(0);

    // 6. Only that machine: another machine's data and commands are refused, with the server's text.
    const read = await context.request.get(`${product.url}/api/workcenter/${other.id}`);
    expect(read.status()).toBe(403);
    expect(await read.json()).toMatchObject({
      error: { code: 'TABLET_BOUND', message: 'This tablet is bound to another machine.' },
    });
    expect((await context.request.get(`${product.url}/api/workcenter/${bound.id}`)).status()).toBe(200);
    const stray = await context.request.post(`${product.url}/api/sync`, {
      data: {
        commands: [
          {
            id: crypto.randomUUID(),
            type: 'manual_add_part',
            machineId: other.id,
            payload: { machineId: other.id, count: 1 },
            occurredAt: Date.now(),
          },
        ],
      },
    });
    expect(stray.status()).toBe(200);
    const { results } = (await stray.json()) as {
      results: Array<{ status: string; error?: { code: string } }>;
    };
    expect(results).toMatchObject([{ status: 'rejected', error: { code: 'TABLET_BOUND' } }]);
    expect(syncCommands(product, other.id).filter((c) => c.status === 'applied')).toEqual([]);
    await context.close();
  }, 120_000);
});
