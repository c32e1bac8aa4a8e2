import { describe, expect, it } from 'vitest';
import type { Database } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import type { Kysely } from 'kysely';
import { MIN, someStates } from '../../services/api/src/testing/downtime-builders';
import { aShift } from '../../services/api/src/testing/live-builders';
import { aJobWithRun, recomputeMachines, someCycles } from '../../services/api/src/testing/report-plant';
import { anOfficePlant, officeSession, POLL, tableRows } from './office-harness';

// The Jobs report (reports-admin §2 "Jobs report (all machines)": /reports/operationreport, by default the
// last 30 days) and the job report (/dashboard/jobreport?job_id&start&end, §3 "Job report"; the all-time link
// omits start and end) over the warehouse job calls (decision 0813), in Chromium on SQLite and PostgreSQL.
// Screenshots at desk and phone widths go to test-results/office-jobs/ (gitignored).

// The plant, America/Chicago, a Day shift 06:00–14:00, last week (weekday 0 = Monday), both within the
// default 30 days (the runs are in the shift, so all their time is shift time for the OEE factors):
// - Flange (expected 10 min, ideal 8 min, one part a cycle) on the Lathe, run Tuesday 06:00–08:00 without
//   setup; the Lathe is in cycle 06:00–07:00 with six cycles of 10 min, idle otherwise.
//   Run time 60 min of 120 planned: availability 50.0 %; performance 6 × 8 / 60 = 80.0 %; quality 6 / 6 =
//   100.0 %; OEE 40.0 %. Expected parts 120 / 10 = 12, good 6: 50.0 % of the parts goal, below the failure
//   cut-off (75 %): "Far behind goal". No setup: 0.0 h.
// - Bracket (expected = ideal = 10 min) on the Mill, run Wednesday 06:00–07:05 (a cycle ending at the run's
//   end would not count: runs are [start, end)), in cycle 06:00–07:00 with six cycles of 10 min: expected
//   ⌊65 / 10⌋ = 6, good 6, 100.0 % of the goal: "On goal"; availability 60 / 65, performance and quality
//   100 %: OEE 92.3 %.

interface Plant {
  email: string;
  password: string;
  flange: string;
}

async function seedPlant(db: Kysely<Database>, range: { start: number; end: number }, now: number) {
  const { company, user, lathe, mill, press, at, scope } = await anOfficePlant(db, range);
  await aShift(db, company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 840 });
  await someStates(db, company, lathe, [
    [range.start, at(1, 6), 'INACTIVE'],
    [at(1, 6), at(1, 7), 'ACTIVE'],
    [at(1, 7), range.end, 'INACTIVE'],
  ]);
  await someStates(db, company, mill, [
    [range.start, at(2, 6), 'INACTIVE'],
    [at(2, 6), at(2, 7), 'ACTIVE'],
    [at(2, 7), range.end, 'INACTIVE'],
  ]);
  await someStates(db, company, press, [[range.start, range.end, 'INACTIVE']]);
  const flange = await aJobWithRun(scope, {
    machineId: lathe,
    name: 'Flange',
    expected: 10 * MIN,
    ideal: 8 * MIN,
    jobCreatedAt: range.start,
    start: at(1, 6),
    end: at(1, 8),
  });
  await aJobWithRun(scope, {
    machineId: mill,
    name: 'Bracket',
    expected: 10 * MIN,
    ideal: 10 * MIN,
    jobCreatedAt: range.start,
    start: at(2, 6),
    end: at(2, 7, 5),
  });
  const sixCycles = (day: number) =>
    [0, 1, 2, 3, 4, 5].map((k) => ({ start: at(day, 6, k * 10), end: at(day, 6, (k + 1) * 10) }));
  await someCycles(scope, lathe, sixCycles(1));
  await someCycles(scope, mill, sixCycles(2));
  await recomputeMachines(db, company, [lathe, mill, press], { from: range.start, to: range.end, now });
  return { email: user.email, password: user.password, flange } satisfies Plant;
}

/** Flange's figures after its name and times: goal, good, expected, rejected, OEE, A, P, Q, setup. */
const FLANGE = ['50.0%', '6', '12', '0', '40.0%', '50.0%', '80.0%', '100.0%', '0.0 h'];
const FLANGE_TILES = ['50.0%', '6', '0', '40.0%', '50.0%', '80.0%', '100.0%', '0.0 h'];

describe.each(DIALECTS)('the Jobs report and the job report in Chromium on %s', (dialect) => {
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
    if (dialect === 'sqlite') await office.screenshots('jobs-report');

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
      .toEqual([['Lathe', ...FLANGE, 'Job on Lathe']]);
    const csv = await office.downloadCsv(
      office.section('By machine').getByRole('link', { name: 'Download CSV' }),
      /^\/api\/reports\/warehouse\/jobs\/aggregatedbymachine\?job_id=.*format=csv&token=/,
    );
    expect(csv.map((r) => [r[0], r[5]])).toEqual([
      ['Machine', 'Good Parts'],
      ['Lathe', '6'],
      ['Total', '6'],
    ]);
    if (dialect === 'sqlite') await office.screenshots('job-report', true);

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
