import { describe, expect, it } from 'vitest';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { anOfficePlant, officeSession, ON_SQLITE, POLL, tableRows } from './office-harness';

// Jobs and their standards (issue 29 point 1, decision 1084) in Chromium on SQLite: a manager (a planner, not
// an admin) creates a job with its expected cycle time typed as hours, minutes and seconds (the company's
// cycleinputoption is time per cycle), sees its parts per hour (3,600,000 / cycle time, one decimal), assigns
// it to the Lathe with its own standards and a planned setup, removes it from the Lathe again (with a
// confirmation), and retires it. Screenshots at desk and phone widths go to test-results/office-jobs-planning/
// (gitignored).

async function seedPlant(db: Kysely<Database>, week: { start: number; end: number }) {
  const { user } = await anOfficePlant(db, week);
  return { email: user.email, password: user.password };
}

describe.each(ON_SQLITE)('jobs and standards in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-jobs-planning', seedPlant);

  it('creates a job with standards in h/m/s, assigns it to the Lathe with parts per hour, removes it there, and retires it', async () => {
    const { page } = office;
    await page.goto(`${office.product.url}/app/reports`);
    await page.getByLabel('Email').fill(office.plant.email);
    await page.getByLabel('Password').fill(office.plant.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('navigation').getByRole('link', { name: 'Jobs', exact: true }).click();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Jobs');
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'No jobs match.' }).count(), POLL)
      .toBe(1);

    // New Job: 1 min 30.5 s per cycle → 3,600,000 / 90,500 = 39.8 parts per hour, shown as it is typed.
    await page.getByRole('button', { name: 'New Job' }).click();
    const dialog = page.getByRole('dialog', { name: 'New job' });
    await dialog.getByLabel('Name').fill('Shaft S-900');
    await dialog.getByLabel('ERP job id').fill('WO-900');
    const expected = dialog.getByRole('group', { name: /^Expected cycle time/ });
    await expected.getByLabel('Minutes').fill('1');
    await expected.getByLabel('Seconds').fill('30.5');
    await expect.poll(() => expected.getByRole('status').textContent(), POLL).toBe('39.8 parts per hour');
    // Seconds stop at 60 (live-operations §5): Save is disabled and the rule is said.
    await expected.getByLabel('Seconds').fill('61');
    await expect
      .poll(() => expected.getByText('Seconds must be between 0 and 60 (step 0.001)').count(), POLL)
      .toBe(1);
    await expect.poll(() => dialog.getByRole('button', { name: 'Save' }).isDisabled(), POLL).toBe(true);
    await expected.getByLabel('Seconds').fill('30.5');
    await dialog.getByLabel('Setup time (minutes)').fill('45');
    await dialog.getByRole('button', { name: 'Save' }).click();

    // The job's own page; assign it to the Lathe: 2 parts per cycle of 2 min → 60.0 parts per hour.
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Shaft S-900');
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'not assigned' }).count(), POLL)
      .toBe(1);
    await page.getByRole('button', { name: 'Assign to Machine' }).click();
    const assign = page.getByRole('dialog', { name: 'Assign Shaft S-900 to a machine' });
    await assign.getByLabel('Machine', { exact: true }).selectOption({ label: 'Lathe' });
    await assign.getByLabel('Part behavior').selectOption({ label: 'Many parts per cycle' });
    await assign.getByLabel('Actual Parts').fill('0');
    await expect.poll(() => assign.getByText('Actual Parts must be at least 1').count(), POLL).toBe(1);
    await assign.getByLabel('Actual Parts').fill('2');
    const standard = assign.getByRole('group', { name: /^Expected cycle time/ });
    await standard.getByLabel('Minutes').fill('2');
    await standard.getByLabel('Seconds').fill('0');
    await expect.poll(() => standard.getByRole('status').textContent(), POLL).toBe('60.0 parts per hour');
    await assign.getByLabel('Start in setup').selectOption({ label: 'Planned' });
    await assign.getByLabel('Setup time (minutes)').fill('30');
    await office.screenshots('assign');
    await assign.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => assign.count(), POLL).toBe(0);

    const machines = page.getByRole('table', { name: 'Machines this job is assigned to' });
    await expect
      .poll(() => tableRows(machines), POLL)
      .toEqual([
        ['Lathe', '2:00', '1:00', '60.0', 'Many parts per cycle', 'Planned, 30 min', 'Never', 'EditRemove'],
      ]);
    await office.screenshots('job');

    // Remove it from the Lathe (JobMachine delete, decision 1106): a confirmation first, then the job is
    // assigned to no machine; Cancel keeps it.
    await page.getByRole('button', { name: 'Remove Shaft S-900 from Lathe' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Shaft S-900 from Lathe' });
    await expect.poll(() => confirm.getByText('Its past runs and their figures stay.').count(), POLL).toBe(1);
    await office.screenshots('remove');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => tableRows(machines).then((r) => r.length), POLL).toBe(1);
    await page.getByRole('button', { name: 'Remove Shaft S-900 from Lathe' }).click();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'not assigned' }).count(), POLL)
      .toBe(1);

    // The list shows the job with its parts per hour; retire it and it moves to the retired jobs.
    await page.getByRole('link', { name: 'Back to Jobs' }).click();
    const list = page.getByRole('table', { name: 'Jobs' });
    await expect
      .poll(() => tableRows(list), POLL)
      .toEqual([['Shaft S-900', 'WO-900', '1:30.5', '39.8', '0', 'Active', 'EditRetire']]);
    await office.screenshots('jobs');
    await page.getByRole('button', { name: 'Retire Shaft S-900' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'No jobs match.' }).count(), POLL)
      .toBe(1);
    await page.getByLabel('Show').selectOption({ label: 'Retired' });
    await expect
      .poll(async () => (await tableRows(list)).map((r) => [r[0], r[5]]), POLL)
      .toEqual([['Shaft S-900', 'Retired']]);
  }, 180_000);
});
