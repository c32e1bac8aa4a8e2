import { describe, expect, it } from 'vitest';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { aJobPlant } from './job-plant';
import { officeSession, ON_POSTGRES, POLL, tableRows } from './office-harness';

// The Jobs report (reports-admin §2 "Jobs report (all machines)": /reports/operationreport, by default the
// last 30 days) and the job report (/dashboard/jobreport?job_id&start&end, §3 "Job report"; the all-time link
// omits start and end) over the warehouse job calls (decision 0813), in Chromium on PostgreSQL (decision 0871).
// Screenshots at desk and phone widths go to test-results/office-jobs/ (gitignored).

// The plant: job-plant.ts (Flange on the Lathe, Bracket on the Mill, last week).

interface Plant {
  email: string;
  password: string;
  flange: string;
}

async function seedPlant(db: Kysely<Database>, range: { start: number; end: number }, now: number) {
  const { user, flange } = await aJobPlant(db, range, now);
  return { email: user.email, password: user.password, flange } satisfies Plant;
}

/** Flange's figures after its name and times: goal, good, expected, rejected, OEE, A, P, Q, setup. */
const FLANGE = ['50.0%', '6', '12', '0', '40.0%', '50.0%', '80.0%', '100.0%', '0.0 h'];
const FLANGE_TILES = ['50.0%', '6', '0', '40.0%', '50.0%', '80.0%', '100.0%', '0.0 h'];

describe.each(ON_POSTGRES)('the Jobs report and the job report in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-jobs', seedPlant);

  it('lists the jobs of the last 30 days as cards, searchable by name, with the CSV', async () => {
    const { page } = office;
    await office.openFromReports(/^Jobs Report/);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/reports/operationreport');
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Jobs Report');
    await office.settled();
    const jobs = office.section('Jobs');
    const flange = jobs.getByRole('article', { name: 'Flange' });
    const bracket = jobs.getByRole('article', { name: 'Bracket' });
    await expect
      .poll(() => flange.locator('dd').allTextContents(), POLL)
      .toEqual(['50.0%', '6 / 12', '40.0%']);
    await expect.poll(() => flange.textContent(), POLL).toContain('Far behind goal');
    await expect
      .poll(() => bracket.locator('dd').allTextContents(), POLL)
      .toEqual(['100.0%', '6 / 6', '92.3%']);
    await expect.poll(() => bracket.textContent(), POLL).toContain('On goal');
    await office.screenshots('jobs-report');

    // The CSV: one row per job (decision 0813), the same figures.
    const csv = await office.downloadCsv(
      jobs.getByRole('link', { name: 'Download CSV' }),
      /^\/api\/reports\/warehouse\/jobs\?.*format=csv&token=/,
    );
    expect(csv[0]?.slice(0, 8)).toEqual([
      'Job',
      'Start',
      'End',
      'Parts Goal (%)',
      'Expected Parts',
      'Good Parts',
      'Rejected Parts',
      'OEE (%)',
    ]);
    expect(csv.find((r) => r[0] === 'Flange')?.slice(3, 8)).toEqual(['50.0', '12', '6', '0', '40.0']);

    // The search keeps the jobs whose name holds it, whatever the case.
    await jobs.getByRole('searchbox', { name: 'Search jobs' }).fill('fLAN');
    await expect.poll(() => jobs.getByRole('article').count(), POLL).toBe(1);
    await expect.poll(() => flange.count(), POLL).toBe(1);
    await jobs.getByRole('searchbox', { name: 'Search jobs' }).fill('');
    await expect.poll(() => jobs.getByRole('article').count(), POLL).toBe(2);
  }, 120_000);

  it("opens Flange's job report for the range and for all time with the same figures", async () => {
    const { page, plant } = office;
    const flange = office.section('Jobs').getByRole('article', { name: 'Flange' });
    const q = new URL(page.url()).searchParams;
    await flange.getByRole('link', { name: 'Job report for this range' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/jobreport');
    const asked = new URL(page.url()).searchParams;
    expect(asked.get('job_id')).toBe(plant.flange);
    if (q.get('start')) expect(asked.get('start')).toBe(q.get('start'));
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Job Report: Flange');
    await office.settled();
    const tiles = page.getByRole('region', { name: 'The job’s figures for the range' });
    await expect.poll(() => tiles.locator('.tile__value').allTextContents(), POLL).toEqual(FLANGE_TILES);
    const byMachine = office.section('By machine').getByRole('table');
    await expect
      .poll(async () => (await tableRows(byMachine)).map((r) => [r[0], ...r.slice(3)]), POLL)
      .toEqual([['Lathe', ...FLANGE]]);
    // Each run ends with its action, the machine-job report of its machine.
    const runs = office.section('Runs').getByRole('table');
    await expect
      .poll(async () => (await tableRows(runs)).map((r) => [r[0], ...r.slice(3)]), POLL)
      .toEqual([['Lathe', ...FLANGE, 'Job on Lathe Go to Production Run']]);
    const csv = await office.downloadCsv(
      office.section('By machine').getByRole('link', { name: 'Download CSV' }),
      /^\/api\/reports\/warehouse\/jobs\/aggregatedbymachine\?job_id=.*format=csv&token=/,
    );
    expect(csv.map((r) => [r[0], r[5]])).toEqual([
      ['Machine', 'Good Parts'],
      ['Lathe', '6'],
      ['Total', '6'],
    ]);
    await office.screenshots('job-report', true);

    // All time: the link omits start and end; the report covers 2014-04-01 to today, the same one run.
    await page.goBack();
    await office.settled();
    await flange.getByRole('link', { name: 'Job report for all time' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe(`?job_id=${plant.flange}`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Job Report: Flange');
    await office.settled();
    await expect.poll(() => tiles.locator('.tile__value').allTextContents(), POLL).toEqual(FLANGE_TILES);
    await expect
      .poll(() => page.getByRole('button', { name: /^Date range:/ }).textContent(), POLL)
      .toContain('2014');
  }, 120_000);
});
