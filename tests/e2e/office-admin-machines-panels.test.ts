import { describe, expect, it } from 'vitest';
import type { AdminMachine } from '@takt/domain';
import type { Database } from '@takt/db';
import { companyScope } from '@takt/db';
import type { Kysely } from 'kysely';
import { createAdapter } from '../../services/api/src/repositories/adapters';
import { replaceMachineSource } from '../../services/api/src/repositories/machines-admin';
import { aUser } from '../../services/api/src/testing/builders';
import { logIn } from './harness';
import { anOfficePlant, officeSession, ON_POSTGRES, POLL } from './office-harness';
import type { Span } from './office-harness';

// The machine form's adapter reset with its 3 s status poll (reports-admin §4 "Adapter reset sets adapter to
// none then polls mapping. Status text: Checking status, Waiting for workcenter, Gathering info, Problem
// configuring machine", §7, §8) and its Software and Utilization panels (decision 0892), in Chromium on SQLite
// and PostgreSQL. Ingest is off: the test writes what ingest would store (the source's last line and the
// keys). Screenshots at 1280×800 and 390×844 go to test-results/office-admin-machines-panels/ (gitignored).

const field = (name: string) => ({ name, dataItemType: 'X', componentName: 'path', componentType: 'Path' });

async function seedPlant(db: Kysely<Database>, week: Span, now: number) {
  const plant = await anOfficePlant(db, week);
  const admin = await aUser(db, plant.company, { role: 'admin', displayName: 'Ada Admin' });
  const scope = companyScope(db, plant.company.id);
  const haas = await createAdapter(
    scope,
    { name: 'Haas NGC', fields: [field('execution'), field('part_count')] },
    1,
  );
  await db.updateTable('machines').set({ adapter_id: haas }).where('id', '=', plant.lathe).execute();
  await replaceMachineSource(scope, plant.lathe, { kind: 'shdr', host: '127.0.0.1', port: 7878 }, now);
  return { email: admin.email, password: admin.password, company: plant.company, lathe: plant.lathe, haas };
}

describe.each(ON_POSTGRES)('machine form panels in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-admin-machines-panels', seedPlant);
  const toast = (text: string) => office.page.getByText(text, { exact: true });

  async function editLathe() {
    const { page } = office;
    // Each test opens the screen itself (logged in by an earlier one, or not: tests are independent).
    await page.goto(`${office.product.url}/app/admin/machines`);
    await expect.poll(() => page.getByLabel('Email').or(office.heading()).count(), POLL).toBeGreaterThan(0);
    if (await page.getByLabel('Email').count()) await logIn(page, office.plant);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Machines');
    await page.getByRole('button', { name: 'Edit Lathe' }).click();
    return page.getByRole('dialog', { name: 'Edit Lathe' });
  }

  it('resets the adapter, shows the status it polls, and keeps the adapter it maps', async () => {
    const { db, plant } = office;
    const dialog = await editLathe();
    const status = dialog.getByRole('group', { name: 'Hardware' }).getByRole('status');
    await expect.poll(() => status.textContent(), POLL).toBe('Adapter status: Adapter Haas NGC in use');

    await dialog.getByRole('button', { name: 'Reset adapter' }).click();
    expect(await dialog.getByText(/is set to none/).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Reset', exact: true }).click();
    await expect.poll(() => status.textContent(), POLL).toBe('Adapter status: Waiting for workcenter');
    expect(await dialog.getByLabel('Adapter').inputValue()).toBe('');
    await office.screenshots('adapter-waiting');

    // The machine sends something no adapter knows: gathering.
    const sends = async (keys: string[]) => {
      const ts = Date.now();
      await db.db
        .updateTable('machine_sources')
        .set({ last_line_at: ts })
        .where('machine_id', '=', plant.lathe)
        .execute();
      await db.db
        .insertInto('observations')
        .values(
          keys.map((key) => ({ company_id: plant.company.id, machine_id: plant.lathe, ts, key, value: 'x' })),
        )
        .execute();
    };
    await sends(['avail']);
    await expect.poll(() => status.textContent(), POLL).toBe('Adapter status: Gathering info');
    // Then the Haas keys: the next poll (every 3 s) maps it and the form shows it.
    await sends(['execution', 'part_count']);
    await expect.poll(() => status.textContent(), POLL).toBe('Adapter status: Adapter Haas NGC in use');
    await expect.poll(() => dialog.getByLabel('Adapter').inputValue(), POLL).toBe(plant.haas);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  }, 120_000);

  it('saves the Software and Utilization panels, refusing a failure percent above the warning one', async () => {
    const { page, product } = office;
    const dialog = await editLathe();
    const save = dialog.getByRole('button', { name: 'Save' });
    await dialog.getByLabel('Dispatch key').fill('O1234');
    await dialog.getByLabel('Benchmarking').selectOption({ label: 'Opt Out' });
    // Root's extra options are not an admin's (reports-admin §6, decision 1112): office-admin-machines-root.test.ts.
    expect(await dialog.getByRole('group', { name: 'Takt staff' }).count()).toBe(0);
    expect(await dialog.getByLabel('Ping monitor').count()).toBe(0);
    await dialog.getByLabel('Warning below (%)').fill('60');
    await dialog.getByLabel('Failure below (%)').fill('70');
    expect(
      await dialog.getByText('Utilization failure percent must not be above the warning percent').count(),
    ).toBe(1);
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel('Failure below (%)').fill('40');
    expect(await save.isDisabled()).toBe(false);
    await office.screenshots('software-utilization', true);
    await save.click();
    await expect.poll(() => dialog.count(), POLL).toBe(0);
    await expect.poll(() => toast('Lathe saved.').count(), POLL).toBe(1);
    const stored = (await (await page.request.get(`${product.url}/api/machines`)).json()) as AdminMachine[];
    const lathe = stored.find((m) => m.name === 'Lathe');
    expect(lathe).toMatchObject({
      dispatchKey: 'O1234',
      excludeFromBenchmarking: 1,
      utilizationWarningPercent: 60,
      utilizationFailurePercent: 40,
    });
    expect(lathe).not.toHaveProperty('pingMonitor');
  }, 120_000);
});
