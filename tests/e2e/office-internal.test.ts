import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { getCompany } from '../../services/api/src/repositories/company';
import type { Company } from '../../services/api/src/repositories/company';
import { aCompany, aMachine, aUser } from '../../services/api/src/testing/builders';
import { launchChromium, logIn, startProduct } from './harness';
import type { RunningProduct } from './harness';
import { POLL, screenshots } from './office-harness';

// The internal (root) screens end to end (reports-admin §2 "Internal screens"): a root user of the staff
// company creates a company, then that company's gateway in the gateway modal and takes its token (shown once),
// chooses the new company on the adapter screen and imports an adapter into it from the Okuma files (decision
// 0946); the company's admin adds a machine with that adapter, the root user binds it to the gateway; the edge
// pushes a batch with the token, and the machine's state shows on the company's live dashboard. The All
// machines table fits a 1280 px screen, Edit buttons included.
// One product (ingest on, no demo) on SQLite, one page. Screenshots at 1280×800 and 390×844 go to
// test-results/office-internal/ (gitignored).

const DATA = new URL('../../../shared/data/mtconnect/', import.meta.url);
const mtconnect = (file: string) => readFileSync(new URL(file, DATA), 'utf8');
const devicesXml = mtconnect('cppagent_demo_Devices.xml');
const okumaLines = mtconnect('cppagent_demo_okuma.shdr.txt').split('\n');
/** The first lines of the Okuma log: enough for the import to see every key it sends at start. */
const okumaSample = okumaLines.slice(0, 400).join('\n');

/**
 * What the edge pushes: the Okuma's opening snapshot and the line where its program starts (pexecution ACTIVE),
 * as the gateway would send them now (the log is from 2022; the dashboard shows the present).
 */
function okumaBatch(machineRef: string, now: number) {
  const snapshot = okumaLines.find((l) => l.includes('|pexecution|READY'))!;
  const active = okumaLines.find((l) => l.includes('|pexecution|ACTIVE'))!;
  const restamp = (line: string, at: number) =>
    `${new Date(at).toISOString()}${line.slice(line.indexOf('|'))}`;
  return [
    { seq: 1, machineRef, line: restamp(snapshot, now - 60_000) },
    { seq: 2, machineRef, line: restamp(active, now - 30_000) },
  ];
}

const COMPANY = 'Bolt Works';
const MACHINE = 'Okuma Lathe';
const GATEWAY = 'Bolt Edge 1';
const SHOTS = 'office-internal';

describe('internal screens in Chromium', () => {
  let db: TestDb;
  let product: RunningProduct;
  let browser: Browser;
  let page: Page;
  let staff: Company;
  let root: { email: string; password: string };

  beforeAll(async () => {
    db = await freshDb('sqlite');
    staff = await aCompany(db.db, { name: 'Takt Internal' });
    root = await aUser(db.db, staff, { isRoot: true, displayName: 'Rhea Root' });
    [product, browser] = await Promise.all([
      startProduct({ DATABASE_URL: db.url, TAKT_DEMO: '0' }),
      launchChromium(),
    ]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.url });
    page = await context.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await db?.cleanup();
  });

  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await page.request.fetch(`${product.url}${path}`, {
      method,
      ...(body === undefined ? {} : { data: body }),
    });
    expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  };
  const dialog = (name: string | RegExp) => page.getByRole('dialog', { name });
  const gatewayTable = () => page.getByRole('table', { name: 'Gateways' });

  async function switchUser(who: { email: string; password: string }, path: string) {
    await page.context().clearCookies();
    await page.goto(`${product.url}${path}`);
    await logIn(page, who);
    await expect.poll(() => page.getByLabel('Email').count(), POLL).toBe(0);
  }

  it('creates a company and its gateway, imports an adapter, and a pushed batch shows on the dashboard', async () => {
    // 1. The company (the internal company screen).
    await switchUser(root, '/app/internal/companies');
    const companyId = await createCompany();

    // 2. Its gateway in the gateway modal; the token is shown once.
    await page.goto(`${product.url}/app/internal/gateways`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), POLL).toBe('Gateways');
    await page.getByRole('button', { name: 'New gateway' }).click();
    const create = dialog('New gateway');
    await create.getByLabel('Name').fill(GATEWAY);
    await create.getByLabel('Company').selectOption({ label: COMPANY });
    await create.getByLabel('Serial Number').fill('SN-BOLT-1');
    await create.getByLabel('Edge Ref').fill('bolt-edge-1');
    // reports-admin §5: 0.1 to 100 in steps of 0.1; Create stays disabled while it is wrong.
    await create.getByLabel('Ingest multiplier').fill('0.05');
    await expect.poll(() => create.getByText('Ingest multiplier must be at least 0.1').count(), POLL).toBe(1);
    expect(await create.getByRole('button', { name: 'Create gateway' }).isDisabled()).toBe(true);
    await create.getByLabel('Ingest multiplier').fill('1.5');
    await create.getByRole('radio', { name: 'Dry Run' }).check();
    await create.getByRole('button', { name: 'Create gateway' }).click();

    const tokenDialog = dialog(`Token for ${GATEWAY}`);
    await expect.poll(() => tokenDialog.count(), POLL).toBe(1);
    expect(await tokenDialog.textContent()).toContain('won’t be shown again');
    const token = await tokenDialog.getByLabel('Gateway token').inputValue();
    expect(token).toMatch(/^tgw_/);
    await tokenDialog.getByRole('button', { name: 'Copy token' }).click();
    await expect.poll(() => tokenDialog.getByText('Copied').count(), POLL).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await screenshots(page, SHOTS, 'gateway-token');
    await tokenDialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => tokenDialog.count(), POLL).toBe(0);

    const row = gatewayTable().getByRole('row', { name: new RegExp(GATEWAY) });
    await expect.poll(() => row.count(), POLL).toBe(1);
    // The list never shows the token again, only its masked hint in the modal.
    expect(await page.content()).not.toContain(token);
    const gatewayId = new URL(page.url()).searchParams.get('selected');
    expect(gatewayId).not.toBeNull();

    // 3. The adapter, from the Okuma files, into the new company: adapters belong to a company, and the
    // staff root user chooses it on the adapter screen (decision 0946).
    const adapterId = await importAdapter(companyId);

    // 4. The company's admin adds the machine with that adapter; the root user binds it to the gateway.
    const company = (await getCompany(db.db, companyId))!;
    const admin = await aUser(db.db, company, { role: 'admin', displayName: 'Ada Admin' });
    await switchUser(admin, '/app/admin');
    const theirs = await api<Array<{ id: string }>>('GET', '/api/adapters');
    expect(theirs.map((a) => a.id)).toEqual([adapterId]);
    const machine = await api<{ id: string }>('POST', '/api/machines', {
      name: MACHINE,
      workcenterType: 'machine',
      downtimeFailureDelay: 10,
      autostartBehavior: 'disabled',
      adapterId,
      source: null,
    });
    await switchUser(root, '/app/internal');
    await api('POST', `/api/gateways/${gatewayId}/machines`, { machineId: machine.id, machineRef: 'okuma' });

    // 5. The edge pushes a batch with its token.
    const push = await fetch(`${product.url}/api/gateway-push`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ gatewayId, records: okumaBatch('okuma', Date.now()), bufferedRecords: 1500 }),
    });
    expect(push.status).toBe(200);
    expect(await push.json()).toMatchObject({ ack: 2, stored: 2, unknownMachines: [] });

    // The list shows it: one machine, buffer above 1000 in danger (reports-admin §9).
    // Edge health turns Normal once ingest has the machine's link (reports-admin §4).
    await expect
      .poll(async () => {
        await page.goto(`${product.url}/app/internal/gateways?sort=name`);
        await row.waitFor();
        return row.getByRole('rowheader').textContent();
      }, POLL)
      .toContain('Normal');
    // Machines, after Company, Serial Number, ID and Edge Ref.
    expect(await row.getByRole('cell').nth(4).textContent()).toBe('1');
    const buffer = row.locator('.gateways__danger');
    await expect.poll(() => buffer.count(), POLL).toBe(1);
    expect(await buffer.textContent()).toContain('1,500');
    await screenshots(page, SHOTS, 'gateways');
    // Sort and filters live in the URL (decision 0925): a header sorts, a second click turns it round.
    const bufferHeader = gatewayTable().getByRole('button', { name: 'Buffer Size' });
    await bufferHeader.click();
    await bufferHeader.click();
    await expect.poll(() => new URL(page.url()).search, POLL).toBe('?sort=bufferSize&direction=desc');
    // The URL changes first; the header follows on the next render.
    await expect
      .poll(
        () =>
          gatewayTable()
            .getByRole('columnheader', { name: /Buffer Size/ })
            .getAttribute('aria-sort'),
        POLL,
      )
      .toBe('descending');
    // The edge has pushed with its token, so it is no longer an "Unactivated Edge".
    // The box follows the URL, so it is clicked and the URL read (check() wants the state at once).
    await page.getByRole('checkbox', { name: 'Unactivated Edges' }).click();
    await expect.poll(() => page.getByText('No gateways match these filters.').count(), POLL).toBe(1);
    expect(new URL(page.url()).searchParams.get('unactivated')).toBe('true');
    await page.getByRole('checkbox', { name: 'Unactivated Edges' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('unactivated'), POLL).toBeNull();
    await expect.poll(() => row.count(), POLL).toBe(1);

    // The modal: settings as saved, the §4 controls of an active gateway, pusher update gated on 3.0.0.
    await page.getByRole('button', { name: `Open ${GATEWAY}` }).click();
    const edit = dialog(`Gateway ${GATEWAY}`);
    await expect.poll(() => edit.getByLabel('Name').count(), POLL).toBe(1);
    expect(await edit.getByLabel('Ingest multiplier').inputValue()).toBe('1.5');
    expect(await edit.getByRole('radio', { name: 'Dry Run' }).isChecked()).toBe(true);
    for (const action of ['Reset', 'Disable', 'Deregister'])
      expect(await edit.getByRole('button', { name: action, exact: true }).isEnabled()).toBe(true);
    expect(await edit.getByRole('button', { name: 'Enable', exact: true }).count()).toBe(0);
    expect(await edit.getByRole('button', { name: 'Update pusher' }).isDisabled()).toBe(true);
    expect(await edit.getByText('Pusher update needs pusher version 3.0.0 or later.').count()).toBe(1);
    expect(await edit.getByText(MACHINE).count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('gateway')).toBe(gatewayId);
    await screenshots(page, SHOTS, 'gateway-modal');
    // Reset (the edge was replaced): "Are you sure?", then a new token, shown once; the old one stops working.
    await edit.getByRole('button', { name: 'Reset', exact: true }).click();
    const confirm = dialog(`Reset ${GATEWAY}?`);
    expect(await confirm.textContent()).toContain('Are you sure?');
    await confirm.getByRole('button', { name: 'Reset', exact: true }).click();
    const newToken = dialog(`Token for ${GATEWAY}`);
    await expect.poll(() => newToken.count(), POLL).toBe(1);
    const fresh = await newToken.getByLabel('Gateway token').inputValue();
    expect(fresh).toMatch(/^tgw_/);
    expect(fresh).not.toBe(token);
    await newToken.getByRole('button', { name: 'Done' }).click();
    const stale = await fetch(`${product.url}/api/gateway-push`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ gatewayId, records: okumaBatch('okuma', Date.now()) }),
    });
    expect(stale.status).toBe(401);
    await expect.poll(() => edit.getByText(`Token tgw_...${fresh.slice(-6)}`).count(), POLL).toBe(1);
    // Select (decision 0927): the dialog closes and the list marks the gateway, in the URL too.
    await edit.getByRole('button', { name: 'Select' }).click();
    await expect.poll(() => row.getByText('Selected', { exact: true }).count(), POLL).toBe(1);
    expect(new URL(page.url()).searchParams.get('selected')).toBe(gatewayId);
    expect(new URL(page.url()).searchParams.get('gateway')).toBeNull();

    await allMachines();

    // 6. The company's live dashboard shows the machine in cycle.
    await switchUser(admin, '/dashboards/live/utilization');
    const tile = page.getByRole('article', { name: MACHINE, exact: true });
    await expect.poll(() => tile.getAttribute('data-status'), POLL).toBe('success');
    // Six screens in one test: 38 s alone and 43 s to over 60 s beside the timed stage on session 12's slower machine.
  }, 120_000);

  /** The internal company screen creates the company; its id is read back from the gateway modal's list. */
  async function createCompany(): Promise<string> {
    await page.goto(`${product.url}/app/internal/companies`);
    await page.getByRole('button', { name: 'New company' }).click();
    const form = dialog('New company');
    await form.getByLabel('Name').fill(COMPANY);
    await form.getByLabel('Product tier').selectOption({ label: 'Full' });
    await form.getByLabel('Time zone').selectOption('America/Chicago');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.count(), POLL).toBe(0);
    await expect.poll(() => page.getByRole('rowheader', { name: COMPANY }).count(), POLL).toBe(1);
    const companies = await api<Array<{ id: string; name: string }>>('GET', '/api/gateways/companies');
    return companies.find((c) => c.name === COMPANY)!.id;
  }

  /**
   * The adapter import (reports-admin §2) into the company chosen on the adapter screen (decision 0946): the
   * Okuma's Devices.xml and the first lines of its log match none of its adapters yet, so Create; the new
   * adapter opens, its id and the company's in the URL, which opens it again as a bookmark would.
   */
  async function importAdapter(companyId: string): Promise<string> {
    await page.goto(`${product.url}/app/internal/adapters`);
    // The root user's own company is the default; the list of companies comes from the company admin.
    const choice = page.getByRole('main').getByLabel('Company');
    await expect.poll(() => choice.getByRole('option', { name: COMPANY }).count(), POLL).toBe(1);
    expect(await choice.locator('option:checked').textContent()).toBe('Takt Internal');
    await choice.selectOption({ label: COMPANY });
    await expect.poll(() => new URL(page.url()).searchParams.get('companyId'), POLL).toBe(companyId);
    await expect.poll(() => page.getByText('No adapters yet.', { exact: false }).count(), POLL).toBe(1);
    await screenshots(page, SHOTS, 'adapters-company');
    await page.getByRole('button', { name: 'Import adapter' }).click();
    const form = dialog('Import adapter');
    expect(await form.getByLabel('Company').inputValue()).toBe(companyId);
    await screenshots(page, SHOTS, 'adapter-import');
    await form.getByLabel('Devices.xml').fill(devicesXml);
    await form.getByLabel('SHDR sample').fill(okumaSample);
    await form.getByRole('button', { name: 'Find matches' }).click();
    await expect.poll(() => form.getByRole('heading', { name: 'No adapter matches' }).count(), POLL).toBe(1);
    await form.getByLabel('Name of the new adapter').fill('Okuma OSP');
    await form.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('adapterId'), POLL).not.toBeNull();
    const adapterId = new URL(page.url()).searchParams.get('adapterId')!;
    expect(new URL(page.url()).searchParams.get('companyId')).toBe(companyId);
    const adapter = await api<{ name: string; fields: Array<{ name: string; dataItemType: string }> }>(
      'GET',
      `/api/adapters/${adapterId}?companyId=${companyId}`,
    );
    expect(adapter.name).toBe('Okuma OSP');
    expect(adapter.fields.find((f) => f.name === 'pexecution')?.dataItemType).toBe('EXECUTION');
    // Made in the chosen company, not in the root user's own.
    expect(await api('GET', '/api/adapters')).toEqual([]);
    await page.goto(page.url());
    const heading = page.getByRole('heading', { name: 'Adapter Okuma OSP' });
    await expect.poll(() => heading.count(), POLL).toBe(1);
    expect(await page.getByRole('main').getByLabel('Company').inputValue()).toBe(companyId);
    return adapterId;
  }

  /**
   * The All machines table at 1280 px (reports-admin §2 "Internal machine list"): long names, makes, models and
   * payers wrap, so every row's Edit button shows without scrolling the table. Make, model and payer are set
   * through the Edit dialog.
   */
  async function allMachines() {
    for (const n of [1, 2])
      await aMachine(db.db, staff, { name: `Okuma LB3000 EX II demonstration lathe ${n}` });
    await page.goto(`${product.url}/app/internal/machines?orderBy=name`);
    await page.getByRole('button', { name: `Edit make, model and payer of ${MACHINE}` }).click();
    const edit = dialog(`${MACHINE} (${COMPANY})`);
    await edit.getByLabel('Make').fill('Okuma Corporation');
    await edit.getByLabel('Model').fill('LB3000 EX II');
    await edit.getByLabel('Payer').fill('Acme Distribution Partners LLC');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => edit.count(), POLL).toBe(0);
    const table = page.getByRole('table', { name: 'Machines of every company' });
    await expect.poll(() => table.getByText('Acme Distribution Partners LLC').count(), POLL).toBe(1);
    const fit = await table.evaluate((t) => {
      const wrap = t.parentElement!;
      const edits = [...t.querySelectorAll('tbody button')].map((b) => b.getBoundingClientRect().right);
      return {
        overflow: wrap.scrollWidth - wrap.clientWidth,
        right: Math.max(...edits),
        edits: edits.length,
      };
    });
    expect(fit).toEqual({ overflow: 0, right: expect.any(Number), edits: 3 });
    expect(fit.right).toBeLessThanOrEqual(1280);
    await screenshots(page, SHOTS, 'all-machines');
  }
});
