import { describe, expect, it } from 'vitest';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import {
  aDowntimeReason,
  anAnnotation,
  aRejectReason,
  MIN,
  someStates,
} from '../../services/api/src/testing/downtime-builders';
import { aShift } from '../../services/api/src/testing/live-builders';
import {
  aJobWithRun,
  aRejectRow,
  recomputeMachines,
  someCycles,
} from '../../services/api/src/testing/report-plant';
import { anOfficePlant, officeSession, ON_SQLITE, POLL, tableRows } from './office-harness';

// The job detail of the job report (reports-admin §2 Jobs report: "detail with quality, downtime and OEE by
// machine and by shift", a per-run table with actions) and the machine-job report
// (/reports/machineoperationreport?machine_id&job_id[&start&end]: rejects by reason, downtime by reason, OEE
// by machine and by shift, CSV; without a start, the job's own range rounded to 15 minutes), decision 0820, in
// Chromium on SQLite (decision 0871). Screenshots go to test-results/office-machine-jobs/ (gitignored).

// The plant, America/Chicago, a Day shift 06:00–14:00, last week (weekday 1 = Tuesday):
// Flange (expected 10 min, ideal 8 min, one part a cycle) on the Lathe, run Tuesday 06:07–08:31 (144 min, all
// shift time) without setup. The Lathe is in cycle 06:07–07:07 with six cycles of 10 min (ending 06:17 …
// 07:07), Break (planned) 07:07–07:37, idle without a reason 07:37–08:31 (54 min); one Burr reject at 07:30.
//   T_pdt = 30, T_ppt = 114, T_run = 60; ideal 48; total 6, rejected 1, good 5.
//   A = 60/114 = 52.6 %; P = 48/60 = 80.0 %; Q = 5/6 = 83.3 %; OEE = 240/684 = 35.1 %.
//   Expected ⌊(144 − 30) / 10⌋ = 11: 5/11 = 45.5 % of the goal. In cycle 1.0 h, downtime 84.00 min.
//   Downtime by reason: Uncategorized 54.00 min (64.3 %), Break 30.00 min planned (35.7 %) = 84.
//   Rejects by reason: Burr 1 (100.0 %). OEE by shift: Day, the job's figures (all its time is Day time).
// Its own range rounded out to 15 minutes: Tuesday 06:00–08:45.

interface Plant {
  email: string;
  password: string;
  flange: string;
  lathe: string;
  jobRange: { start: number; end: number };
}

async function seedPlant(db: Kysely<Database>, range: { start: number; end: number }, now: number) {
  const { company, user, lathe, mill, press, at, scope } = await anOfficePlant(db, range);
  await aShift(db, company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 840 });
  await someStates(db, company, lathe, [
    [range.start, at(1, 6, 7), 'INACTIVE'],
    [at(1, 6, 7), at(1, 7, 7), 'ACTIVE'],
    [at(1, 7, 7), range.end, 'INACTIVE'],
  ]);
  for (const m of [mill, press]) await someStates(db, company, m, [[range.start, range.end, 'INACTIVE']]);
  const brk = await aDowntimeReason(db, company, { name: 'Break', plannedBehavior: 'planned' });
  await anAnnotation(db, company, {
    machineId: lathe,
    start: at(1, 7, 7),
    end: at(1, 7, 37),
    typeId: brk.id,
  });
  const flange = await aJobWithRun(scope, {
    machineId: lathe,
    name: 'Flange',
    expected: 10 * MIN,
    ideal: 8 * MIN,
    jobCreatedAt: range.start,
    start: at(1, 6, 7),
    end: at(1, 8, 31),
  });
  await someCycles(
    scope,
    lathe,
    [0, 1, 2, 3, 4, 5].map((k) => ({ start: at(1, 6, 7 + k * 10), end: at(1, 6, 7 + (k + 1) * 10) })),
  );
  const burr = await aRejectReason(db, company, { name: 'Burr' });
  await scope
    .insertInto('part_adjustments', aRejectRow(lathe, at(1, 7, 30), { typeId: burr.id, scrapcount: 1 }))
    .execute();
  // Thirty more jobs, Part 01 … Part 30, a run of 10 minutes each on the Press on Wednesday: with Flange, 31
  // jobs, two pages of the Jobs report (24 a page).
  for (let i = 1; i <= 30; i++)
    await aJobWithRun(scope, {
      machineId: press,
      name: `Part ${String(i).padStart(2, '0')}`,
      expected: 10 * MIN,
      ideal: 10 * MIN,
      jobCreatedAt: range.start,
      start: at(2, 6, i),
      end: at(2, 6, i + 10),
    });
  await recomputeMachines(db, company, [lathe, mill, press], { from: range.start, to: range.end, now });
  return {
    email: user.email,
    password: user.password,
    flange,
    lathe,
    jobRange: { start: at(1, 6), end: at(1, 8, 45) },
  } satisfies Plant;
}

/** Flange's figures after its name and times: goal, good, expected, rejected, OEE, A, P, Q, setup. */
const FLANGE = ['45.5%', '5', '11', '1', '35.1%', '52.6%', '80.0%', '83.3%', '0.0 h'];

describe.each(ON_SQLITE)('the job detail and the machine-job report in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-machine-jobs', seedPlant);

  /** The three detail tables: rejects by reason, downtime by reason, OEE by shift. */
  async function expectDetail() {
    const table = (name: string) => office.section(name).getByRole('table');
    await expect
      .poll(() => tableRows(table('Quality: rejects by reason')), POLL)
      .toEqual([['Burr', '1', '100.0%']]);
    await expect
      .poll(() => tableRows(table('Downtime by reason')), POLL)
      .toEqual([
        ['Uncategorized', '54.00', '64.3%', '0.00', '54.00'],
        ['Break', '30.00', '35.7%', '30.00', '0.00'],
      ]);
    await expect
      .poll(() => tableRows(table('OEE by shift')), POLL)
      .toEqual([['Day', '35.1%', '52.6%', '80.0%', '83.3%']]);
  }

  it('shows the job detail on the job report and opens a run’s machine-job report', async () => {
    const { page, plant } = office;
    await office.openFromReports(/^Jobs Report/);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Jobs Report');
    await page.goto(`${office.product.url}/dashboard/jobreport?job_id=${plant.flange}`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Job Report: Flange');
    await office.settled();
    await expect
      .poll(async () =>
        (await tableRows(office.section('By machine').getByRole('table'))).map((r) => r.slice(3)),
      )
      .toEqual([FLANGE]);
    await expectDetail();
    const runs = office.section('Runs').getByRole('table');
    await expect
      .poll(async () => (await tableRows(runs)).map((r) => [r[0], ...r.slice(3)]), POLL)
      .toEqual([['Lathe', ...FLANGE, 'Job on Lathe Go to Production Run']]);
    await office.screenshots('job-report-detail', true);

    // The run's action: the machine-job report of its machine over the same range (the user's start).
    await runs.getByRole('link', { name: 'Job on Lathe' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/reports/machineoperationreport');
    const q = new URL(page.url()).searchParams;
    expect([q.get('machine_id'), q.get('job_id')]).toEqual([plant.lathe, plant.flange]);
    expect(q.get('start')).not.toBeNull();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Job Report: Flange on Lathe');
    await office.settled();
    await expectDetail();
  }, 120_000);

  it('opens the machine-job report without a start on the job’s range rounded to 15 minutes, with its CSV', async () => {
    const { page, plant } = office;
    await page.goto(
      `${office.product.url}/reports/machineoperationreport?machine_id=${plant.lathe}&job_id=${plant.flange}`,
    );
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Job Report: Flange on Lathe');
    await office.settled();
    // The range on screen is the job's own, rounded out: the links carry it.
    const back = page.getByRole('link', { name: 'Return to the Job Report' });
    await expect
      .poll(async () => {
        const href = new URL((await back.getAttribute('href')) ?? '', office.product.url).searchParams;
        return [Number(href.get('start')), Number(href.get('end'))];
      }, POLL)
      .toEqual([plant.jobRange.start, plant.jobRange.end]);
    const jobs = new URL(
      (await page.getByRole('link', { name: 'Return to the Jobs Report' }).getAttribute('href')) ?? '',
      office.product.url,
    );
    expect(jobs.pathname).toBe('/reports/operationreport');
    expect(jobs.searchParams.get('job_id')).toBe(plant.flange);
    await expect
      .poll(async () =>
        (await tableRows(office.section('By machine').getByRole('table'))).map((r) => r.slice(3)),
      )
      .toEqual([FLANGE]);
    await expectDetail();
    // One run, no action to itself.
    await expect
      .poll(
        async () => (await tableRows(office.section('Runs').getByRole('table'))).map((r) => r.length),
        POLL,
      )
      .toEqual([12]);

    // The CSV: the machine's row and the Total, the same figures (§9 rounding).
    const csv = await office.downloadCsv(
      office.section('By machine').getByRole('link', { name: 'Download CSV' }),
      /^\/api\/reports\/warehouse\/jobs\/aggregatedbymachine\?job_id=.*&machine_id=.*format=csv&token=/,
    );
    expect(csv.map((r) => [r[0], ...r.slice(3)])).toEqual([
      [
        'Machine',
        'Parts Goal (%)',
        'Expected Parts',
        'Good Parts',
        'Rejected Parts',
        'OEE (%)',
        'Availability (%)',
        'Performance (%)',
        'Quality (%)',
        'Setup (h)',
        'In-Cycle (h)',
        'Downtime (min)',
      ],
      ['Lathe', '45.5', '11', '5', '1', '35.1', '52.6', '80.0', '83.3', '0.0', '1.0', '84.00'],
      ['Total', '45.5', '11', '5', '1', '35.1', '52.6', '80.0', '83.3', '0.0', '1.0', '84.00'],
    ]);
    await office.screenshots('machine-job-report', true);
  }, 120_000);

  it('pages the Jobs report as the user scrolls to its end, and aggregates by machine', async () => {
    const { page } = office;
    const offsets: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/reports/warehouse/jobs' && url.searchParams.has('limit'))
        offsets.push(url.searchParams.get('offset') ?? '');
    });
    // On a phone the 24 cards of the first page are far longer than a screen: nothing more loads until the
    // user scrolls near the end (distance 1: within one screen height).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${office.product.url}/reports/operationreport`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Jobs Report');
    await office.settled();
    const jobs = office.section('Jobs');
    await expect.poll(() => jobs.getByRole('article').count(), POLL).toBe(24);
    await expect.poll(() => jobs.getByRole('status').first().textContent(), POLL).toBe('24 of 31 jobs');
    expect(offsets).toEqual(['0']);
    await page.mouse.wheel(0, 20_000);
    await expect.poll(() => jobs.getByRole('article').count(), POLL).toBe(31);
    expect(offsets).toEqual(['0', '24']);
    await expect.poll(() => jobs.getByRole('status').first().textContent(), POLL).toBe('31 of 31 jobs');
    await expect.poll(() => jobs.getByRole('button', { name: 'Load more jobs' }).count(), POLL).toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Aggregate By Machine: a card per job and machine, named so, opening the machine-job report; the CSV too.
    await page.getByLabel('Aggregate By').selectOption('machine');
    await expect.poll(() => new URL(page.url()).searchParams.get('aggregate_by')).toBe('machine');
    await office.settled();
    const flange = jobs.getByRole('article', { name: 'Flange · Lathe' });
    await expect
      .poll(() => flange.locator('dd').allTextContents(), POLL)
      .toEqual(['45.5%', '5 / 11', '35.1%']);
    expect(
      await flange.getByRole('link', { name: 'Job report for this range' }).getAttribute('href'),
    ).toMatch(/^\/reports\/machineoperationreport\?machine_id=.*&job_id=.*&start=\d+&end=\d+$/);
    await office.screenshots('jobs-by-machine');
    const csv = await office.downloadCsv(
      jobs.getByRole('link', { name: 'Download CSV' }),
      /^\/api\/reports\/warehouse\/jobs\?.*aggregate_by=machine&format=csv&token=/,
    );
    expect(csv[0]?.slice(0, 3)).toEqual(['Job', 'Machine', 'Start']);
    expect(csv).toHaveLength(32);
    // Job, Machine, Start, End, then Flange on the Lathe's goal, expected, good, rejected and OEE.
    const row = csv.find((r) => r[0] === 'Flange');
    expect([...(row?.slice(0, 2) ?? []), ...(row?.slice(4, 9) ?? [])]).toEqual([
      'Flange',
      'Lathe',
      '45.5',
      '11',
      '5',
      '1',
      '35.1',
    ]);
  }, 120_000);

  it('lists the jobs run on one machine, with quick links of a week at most, opening the machine-job report', async () => {
    const { page, plant } = office;
    await page.goto(`${office.product.url}/reports/machineoperationreport?machine_id=${plant.lathe}`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Jobs Report for Lathe');
    await office.settled();
    const jobs = office.section('Jobs');
    await expect.poll(() => jobs.getByRole('status').first().textContent(), POLL).toBe('1 of 1 jobs');
    const flange = jobs.getByRole('article', { name: 'Flange · Lathe' });
    await expect
      .poll(() => flange.locator('dd').allTextContents(), POLL)
      .toEqual(['45.5%', '5 / 11', '35.1%']);
    // reports-admin §2: machine reports' quick links are a week or less (no All Time, no Last 2 weeks).
    await page.getByRole('button', { name: /^Date range:/ }).click();
    const menu = page.getByRole('dialog', { name: 'Date range' });
    await expect
      .poll(() => menu.getByRole('button', { name: 'Last week', exact: true }).count(), POLL)
      .toBe(1);
    expect(await menu.getByRole('button', { name: 'All Time', exact: true }).count()).toBe(0);
    expect(await menu.getByRole('button', { name: 'Last 2 weeks', exact: true }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await office.screenshots('machine-jobs-report');
    await flange.getByRole('link', { name: 'Job report for this range' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('job_id')).toBe(plant.flange);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Job Report: Flange on Lathe');
  }, 120_000);
});
