import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Database } from '@takt/db';
import { dashboardResponseSchema } from '@takt/domain';
import { companyScope } from '@takt/db';
import type { Kysely } from 'kysely';
import { demoAdapterFields } from '@takt/ingest';
import { createAdapter } from '../../services/api/src/repositories/adapters';
import { aUser } from '../../services/api/src/testing/builders';
import { anOfficePlant, officeSession, ON_SQLITE, POLL } from './office-harness';
import type { Span } from './office-harness';

// The test screen for simulated execution (live-operations §2 "Test screen for simulated execution"; decision 1100)
// in Chromium on SQLite, with the product's own ingest worker: an admin opens Simulate from the machines admin for
// the Press (an adapter mapping the demo plant's keys, no source), sets it Active, adds parts, raises and clears a
// fault, and the Press's row on the Machines page follows (Active, the fault's message, Idle) from data that went through the
// ingest path; a machine with a real source is refused in the screen's words. Screenshots at 1280×800 and 390×844
// go to test-results/office-simulate/ (gitignored).

async function seedPlant(db: Kysely<Database>, week: Span) {
  const plant = await anOfficePlant(db, week);
  const admin = await aUser(db, plant.company, { role: 'admin', displayName: 'Ada Admin' });
  const adapterId = await createAdapter(
    companyScope(db, plant.company.id),
    { name: 'MTConnect lathe', fields: demoAdapterFields() },
    1,
  );
  await plant.scope
    .updateTable('machines')
    .set({ adapter_id: adapterId })
    .where('id', '=', plant.press)
    .execute();
  // The Mill has a real adapter: it may not be simulated.
  await plant.scope
    .insertInto('machine_sources', {
      id: crypto.randomUUID(),
      machine_id: plant.mill,
      kind: 'shdr',
      host: '10.0.0.21',
      port: 7878,
      enabled: 1,
      stat_lines: 0,
      stat_observations: 0,
      stat_rejected: 0,
      last_line_at: null,
      created_at: 1,
      gateway_id: null,
      machine_ref: null,
      base_url: null,
      agent_device: null,
      poll_interval_ms: null,
      agent_instance_id: null,
      agent_next_sequence: null,
    })
    .execute();
  return { email: admin.email, password: admin.password, press: plant.press, mill: plant.mill };
}

/** The Press's tile status (GET /api/dashboard, METRICS.md §1 state). */
async function pressStatus(page: Page, url: string): Promise<string> {
  const res = await page.request.get(`${url}/api/dashboard`);
  const tiles = dashboardResponseSchema.parse(await res.json());
  return tiles.machines.find((m) => m.name === 'Press')?.status ?? '';
}

describe.each(ON_SQLITE)('simulated execution in Chromium on %s', (dialect) => {
  // The product's own ingest worker derives what the screen sends.
  const office = officeSession(dialect, 'office-simulate', seedPlant, { TAKT_INGEST: '1' });
  const send = (name: string) => office.page.getByRole('button', { name, exact: true });
  const fact = (label: string) =>
    office.page.locator('.simulate__now div').filter({ has: office.page.getByText(label, { exact: true }) });

  it('drives the Press from the screen and its row on the Machines page follows', async () => {
    const { page, product } = office;
    await office.openFromReports(/^Administration$/);
    await page.getByRole('link', { name: /^Machines / }).click();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Machines');
    await expect.poll(() => page.getByRole('link', { name: 'Simulate Press' }).count(), POLL).toBe(1);
    await office.screenshots('machines-admin');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('link', { name: 'Simulate Press' }).click();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Simulate Press');
    expect(new URL(page.url()).pathname).toBe(`/app/admin/machines/${office.plant.press}/simulate`);
    await expect.poll(() => page.getByText(/^Not simulated:/).count(), POLL).toBe(1);

    await send('Active (in cycle)').click();
    await expect.poll(() => fact('Execution').locator('dd').textContent(), POLL).toBe('Active (in cycle)');
    await expect
      .poll(() => page.getByText('The simulator is this machine’s data source.').count(), POLL)
      .toBe(1);

    // The Machines page reads it from what the ingest worker derived.
    const beside = await office.browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'en-US',
    });
    await beside.addCookies(await page.context().cookies());
    const machines = await beside.newPage();
    await machines.goto(`${product.url}/app/machines`);
    const pressRow = machines
      .getByRole('row')
      .filter({ has: machines.getByRole('rowheader', { name: 'Press' }) });
    await expect.poll(() => pressRow.textContent(), POLL).toContain('Active');

    await send('+1 part').click();
    await page.getByLabel('Parts to add').fill('4');
    await send('Add 4 parts').click();
    await expect.poll(() => fact('Part count').locator('dd').textContent(), POLL).toBe('5');
    await send('Ready').click();
    await page.getByLabel('Fault message').fill('Spindle overload');
    await page.getByLabel('Code (optional)').fill('E42');
    await send('Raise fault').click();
    await expect.poll(() => fact('Fault').locator('dd').textContent(), POLL).toBe('Spindle overload');
    // A faulted machine's status reads its fault's message.
    await expect.poll(() => pressRow.textContent(), POLL).toContain('Spindle overload');
    await expect.poll(() => pressStatus(page, product.url), POLL).toBe('FAULT');
    await office.screenshots('simulate', true);

    await send('Clear fault').click();
    await expect.poll(() => pressRow.textContent(), POLL).toContain('Idle');
    await beside.close();

    // Bounds checked as you type, in the API's words.
    await page.getByLabel('Parts to add').fill('1001');
    await expect.poll(() => page.getByText('Enter a whole number from 1 to 1000').count(), POLL).toBe(1);
    expect(await send('Add n parts').isDisabled()).toBe(true);

    // Ending: confirmed, the machine stops and the simulator is no longer its source.
    await send('End simulation').click();
    const dialog = page.getByRole('dialog', { name: 'End simulation' });
    expect(await dialog.getByText('Are you sure?').count()).toBe(1);
    await dialog.getByRole('button', { name: 'End simulation' }).click();
    await expect.poll(() => page.getByText('The simulation has ended.').count(), POLL).toBe(1);
    await expect.poll(() => page.getByText(/^Not simulated:/).count(), POLL).toBe(1);
    await expect.poll(() => pressStatus(page, product.url), POLL).toBe('UNAVAILABLE');
  }, 180_000);

  it('refuses a machine with a real source in the screen’s words', async () => {
    const { page, product } = office;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${product.url}/app/admin/machines/${office.plant.mill}/simulate`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Simulate Mill');
    const refusal = page.getByRole('alert').filter({ hasText: 'This machine cannot be simulated' });
    await expect.poll(() => refusal.textContent(), POLL).toContain('an SHDR adapter at 10.0.0.21:7878');
    expect(await send('Active (in cycle)').isDisabled()).toBe(true);
    await office.screenshots('simulate-refused');
  }, 120_000);
});
