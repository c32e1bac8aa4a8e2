import { describe, expect, it } from 'vitest';
import { companyDayStart, epochMs, parseDay } from '@takt/domain';
import type { CompanyClock } from '@takt/domain';
import type { AppliedRange } from '@takt/ui';
import type { JobAnswer, JobFiguresAnswer } from './report';
import {
  allTimeRange,
  figureCells,
  filterJobs,
  jobByMachineCsvHref,
  jobCards,
  jobReportHref,
  jobReportRange,
  jobsCsvHref,
  jobsQuery,
  jobStatus,
  jobTiles,
  parseJobs,
} from './report';

const CLOCK: CompanyClock = { timezone: 'America/Chicago' };
const MIN = 60_000;
const RANGE = { start: 1_000, end: 2_000 };

const figures = (over: Partial<JobFiguresAnswer> = {}): JobFiguresAnswer => ({
  job_id: 'j1',
  job_name: 'Flange',
  start_at: 0,
  end_at: 1,
  percentage_of_parts_goal: 50,
  expected_parts: 12,
  good_parts: 6,
  rejected_parts: 0,
  oee: 0.4,
  availability: 0.5,
  performance: 0.8,
  quality: 1,
  setup_ms: 30 * MIN,
  production_in_cycle_ms: 60 * MIN,
  production_downtime_ms: 60 * MIN,
  ...over,
});
const job = (over: Partial<JobAnswer> = {}): JobAnswer => ({ ...figures(), runs: [], ...over });

/** A company's parts-goal cut-offs (the defaults: warning 90, failure 75). */
const LIMITS = { warningPercent: 90, failurePercent: 75 };

describe('job reports (reports-admin §2 Jobs report, §3 Job report)', () => {
  it('asks the warehouse calls for the range, one job, and the CSVs with the user token', () => {
    expect(jobsQuery(RANGE)).toEqual({ start: 1000, end: 2000 });
    expect(jobsQuery(RANGE, 'j1')).toEqual({ start: 1000, end: 2000, job_id: 'j1' });
    expect(jobsCsvHref(RANGE, null)).toBeNull();
    expect(jobsCsvHref(RANGE, 'tok')).toBe(
      '/api/reports/warehouse/jobs?start=1000&end=2000&format=csv&token=tok',
    );
    expect(jobByMachineCsvHref('j 1', RANGE, 'tok')).toBe(
      '/api/reports/warehouse/jobs/aggregatedbymachine?job_id=j+1&start=1000&end=2000&format=csv&token=tok',
    );
  });

  it('links a job to its report for the range, and for all time without start and end', () => {
    expect(jobReportHref('j1', RANGE)).toBe('/dashboard/jobreport?job_id=j1&start=1000&end=2000');
    expect(jobReportHref('j1', null)).toBe('/dashboard/jobreport?job_id=j1');
  });

  it('reads All Time from the company day of 2014-04-01 to the end of today; a URL range wins', () => {
    const now = epochMs(Date.UTC(2026, 10, 25, 18));
    const all = allTimeRange(CLOCK, now);
    expect(all.start).toBe(companyDayStart(CLOCK, parseDay('2014-04-01')));
    expect(all.end).toBe(companyDayStart(CLOCK, parseDay('2026-11-26')));
    const fromUrl: AppliedRange = { interval: 'day', start: epochMs(5), end: epochMs(9), quicklink: null };
    expect(jobReportRange(new URLSearchParams('job_id=j&start=5&end=9'), fromUrl, CLOCK, now)).toBe(fromUrl);
    expect(jobReportRange(new URLSearchParams('job_id=j'), fromUrl, CLOCK, now)).toEqual(all);
  });

  it('filters jobs by name, case-insensitive; a blank search keeps all', () => {
    const jobs = [job({ job_name: 'Flange' }), job({ job_id: 'j2', job_name: 'Bracket' })];
    expect(filterJobs(jobs, 'fLAN').map((j) => j.job_name)).toEqual(['Flange']);
    expect(filterJobs(jobs, '  ').map((j) => j.job_name)).toEqual(['Flange', 'Bracket']);
    expect(filterJobs(jobs, 'x')).toEqual([]);
  });

  it.each([
    [95, 'success'],
    [90, 'success'],
    [89.9, 'warning'],
    [75, 'warning'],
    [74.9, 'danger'],
  ] as const)('colours %d %% of the parts goal %s (company cut-offs 90 and 75)', (percent, status) => {
    expect(jobStatus(figures({ percentage_of_parts_goal: percent }), LIMITS)).toBe(status);
  });

  it('is a success before any production time, and without standards says so', () => {
    expect(
      jobStatus(
        figures({ percentage_of_parts_goal: 0, production_in_cycle_ms: 0, production_downtime_ms: 0 }),
        LIMITS,
      ),
    ).toBe('success');
    expect(jobStatus(figures({ expected_parts: null, percentage_of_parts_goal: null }), LIMITS)).toBe(
      'noJobStandards',
    );
    expect(
      jobStatus(figures({ percentage_of_parts_goal: 80 }), { warningPercent: 80, failurePercent: 50 }),
    ).toBe('success');
  });

  it('makes one card per job: percent of goal, good / expected, OEE, status and its two links', () => {
    expect(
      jobCards(
        [job({ percentage_of_parts_goal: (51 / 99) * 100, good_parts: 51, expected_parts: 99 })],
        RANGE,
        LIMITS,
      ),
    ).toEqual([
      {
        jobId: 'j1',
        name: 'Flange',
        percent: '51.5%',
        parts: '51 / 99',
        oee: '40.0%',
        status: 'danger',
        statusText: 'Far behind goal',
        rangeHref: '/dashboard/jobreport?job_id=j1&start=1000&end=2000',
        allTimeHref: '/dashboard/jobreport?job_id=j1',
      },
    ]);
    expect(
      jobCards([job({ percentage_of_parts_goal: null, expected_parts: null, oee: null })], RANGE, LIMITS)[0],
    ).toMatchObject({ percent: '-', parts: '6 / -', oee: '-', status: 'noJobStandards' });
  });

  it('shows the job report tiles and row cells with §9 rounding', () => {
    expect(jobTiles(figures()).map((t) => [t.label, t.value])).toEqual([
      ['Percentage of parts goal', '50.0%'],
      ['Good parts', '6'],
      ['Rejected parts', '0'],
      ['OEE', '40.0%'],
      ['Availability', '50.0%'],
      ['Performance', '80.0%'],
      ['Quality', '100.0%'],
      ['Setup time', '0.5 h'],
    ]);
    expect(figureCells(figures({ quality: null, good_parts: 6.4 }))).toEqual([
      '50.0%',
      '6',
      '12',
      '0',
      '40.0%',
      '50.0%',
      '80.0%',
      '-',
      '0.5 h',
    ]);
  });

  it('checks the answer of GET /api/reports/warehouse/jobs', () => {
    const answer = { range: RANGE, jobs: [job()], limits: LIMITS };
    expect(parseJobs(answer)).toEqual(answer);
    expect(() => parseJobs({ range: RANGE, jobs: [{ job_id: 'j1' }] })).toThrow();
  });
});
