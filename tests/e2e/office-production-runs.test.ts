import { describe, expect, it } from 'vitest';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { aUser } from '../../services/api/src/testing/builders';
import { aJobPlant } from './job-plant';
import { officeSession, ON_POSTGRES, POLL, tableRows } from './office-harness';

// Production runs (reports-admin §2 /reports/production-runs?start&end&jsg and
// /app/production/production-runs/{id}/edit, §3 Job schedule group, §4 start-in-setup; decision 0850) in
// Chromium on PostgreSQL (decision 0871): the list of last week's runs, filtered by machine, and an edit of Flange's
// run from the job report's "Go to Production Run" that changes the job report. Screenshots at desk and phone
// widths go to test-results/office-production-runs/ (gitignored).

// The plant: job-plant.ts. Flange runs on the Lathe Tuesday 06:00–08:00 without setup, expected 10 min:
// expected parts 120 / 10 = 12, good 6, 50.0 % of the goal; with an expected cycle of 5 min, 120 / 5 = 24
// expected and 25.0 %. Bracket runs on the Mill on Wednesday.

interface Plant {
  email: string;
  password: string;
  flange: string;
}

async function seedPlant(db: Kysely<Database>, range: { start: number; end: number }, now: number) {
  const { company, flange } = await aJobPlant(db, range, now);
  // Saving a run is for administrators.
  const admin = await aUser(db, company, { role: 'admin', displayName: 'Ada Admin' });
  return { email: admin.email, password: admin.password, flange } satisfies Plant;
}

describe.each(ON_POSTGRES)('production runs in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-production-runs', seedPlant);

  it("lists last week's runs by start with their standards, filtered by machine", async () => {
    const { page } = office;
    await office.openFromReports(/^Production Runs/);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/reports/production-runs');
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Production Runs');
    await office.applyLastWeek();
    await office.settled();
    const table = page.getByRole('table', { name: 'Production runs of the range' });
    // Machine, job, setup, the standards (start and end are local times, checked by the API tests) and the
    // parts each run made, total and good, as its job report counts them (decision 1020).
    const pick = (rows: string[][]) => rows.map((r) => [r[0], r[1], ...r.slice(4)]);
    await expect
      .poll(async () => pick(await tableRows(table)), POLL)
      .toEqual([
        ['Lathe', 'Flange', 'None', '600', '480', '1', '1', '6', '6', 'Edit'],
        ['Mill', 'Bracket', 'None', '600', '600', '1', '1', '6', '6', 'Edit'],
      ]);
    await office.screenshots('production-runs');

    await page.getByLabel('Machine', { exact: true }).selectOption({ label: 'Mill' });
    await expect.poll(() => new URL(page.url()).searchParams.get('machine_id')).not.toBeNull();
    await office.settled();
    await expect.poll(async () => (await tableRows(table)).map((r) => r[1]), POLL).toEqual(['Bracket']);
    await page.getByRole('link', { name: 'Edit Bracket on Mill' }).click();
    await expect
      .poll(() => office.heading().textContent(), POLL)
      .toBe('Edit Production Run: Bracket on Mill');

    // Back: the list around the run, pointing at it with jsg (reports-admin §2).
    await page.getByRole('link', { name: /Back to Production Runs/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('jsg')).not.toBeNull();
    await office.settled();
    const current = table.locator('tr[aria-current="true"] td');
    await expect.poll(() => current.nth(1).textContent(), POLL).toBe('Bracket');
  }, 120_000);

  it('edits Flange from the job report\'s "Go to Production Run" and the job report changes', async () => {
    const { page, plant } = office;
    const q = new URLSearchParams({
      job_id: plant.flange,
      start: String(office.week.start),
      end: String(office.week.end),
    });
    await page.goto(`${office.product.url}/dashboard/jobreport?${q.toString()}`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Job Report: Flange');
    await office.settled();
    const runs = office.section('Runs').getByRole('table');
    // Percent of goal, good and expected parts.
    const figures = async () => (await tableRows(runs)).map((r) => r.slice(3, 6));
    await expect.poll(figures, POLL).toEqual([['50.0%', '6', '12']]);
    await runs.getByRole('link', { name: 'Go to Production Run' }).click();
    await expect
      .poll(() => new URL(page.url()).pathname)
      .toMatch(/^\/app\/production\/production-runs\/.+\/edit$/);
    await expect
      .poll(() => office.heading().textContent(), POLL)
      .toBe('Edit Production Run: Flange on Lathe');

    // Validation as you type (reports-admin §5: submit disabled while invalid).
    const save = page.getByRole('button', { name: 'Save' });
    const start = page.getByLabel('Start', { exact: true });
    const started = await start.inputValue();
    await page.getByLabel('End', { exact: true }).fill(started.replace(/T\d\d:/, 'T05:'));
    await expect.poll(() => page.getByText('End must be after start').count(), POLL).toBe(1);
    await expect.poll(() => save.isDisabled(), POLL).toBe(true);
    await page.getByLabel('End', { exact: true }).fill(started.replace(/T\d\d:/, 'T08:'));
    await expect.poll(() => save.isDisabled(), POLL).toBe(false);

    // §4: planned setup still in setup, then back to none; a 5-minute expected cycle.
    await page.getByRole('radio', { name: 'Planned', exact: true }).check();
    await expect.poll(() => page.getByRole('radio', { name: 'Still in setup' }).isChecked(), POLL).toBe(true);
    await page.getByRole('radio', { name: 'None', exact: true }).check();
    await expect.poll(() => page.getByRole('radio', { name: 'Still in setup' }).count(), POLL).toBe(0);
    await page.getByLabel('Expected cycle time (s)').fill('300');
    await office.screenshots('production-run-edit');
    await save.click();
    await expect.poll(() => page.getByText(/The production run was saved/).count(), POLL).toBe(1);
    await expect.poll(() => page.getByLabel('Expected cycle time (s)').inputValue(), POLL).toBe('300');

    await page.goBack();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Job Report: Flange');
    await page.reload();
    await office.settled();
    await expect.poll(figures, POLL).toEqual([['25.0%', '6', '24']]);
  }, 120_000);
});
