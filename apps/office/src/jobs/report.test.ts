import { describe, expect, it } from 'vitest';
import { companyDayStart, epochMs, parseDay } from '@takt/domain';
import type { CompanyClock } from '@takt/domain';
import type { AppliedRange } from '@takt/ui';
import type { JobAnswer, JobFiguresAnswer } from './report';
import {
  allTimeRange,
  clampToJob,
  downtimeRows,
  figureCells,
  filterJobs,
  jobByMachineCsvHref,
  jobCards,
  jobReportHref,
  jobReportRange,
  JOBS_PAGE_SIZE,
  jobsCsvHref,
  jobsPageQuery,
  jobsQuery,
  jobStatus,
  jobTiles,
  machineJobHref,
  parseJobs,
  readAggregateBy,
  rejectRows,
  shiftRows,
  standardsWarning,
  writeAggregateBy,
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
  missing_standards: false,
  setup_ms: 30 * MIN,
  production_in_cycle_ms: 60 * MIN,
  production_downtime_ms: 60 * MIN,
  ...over,
});
const job = (over: Partial<JobAnswer> = {}): JobAnswer => ({
  ...figures(),
  machine_id: undefined,
  machine_name: undefined,
  runs: [],
  ...over,
});

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
        key: 'j1',
        jobId: 'j1',
        name: 'Flange',
        machine: null,
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
    // Aggregated by machine: a card per job and machine, opening the machine-job report.
    expect(jobCards([job({ machine_id: 'm1', machine_name: 'Lathe' })], RANGE, LIMITS)[0]).toMatchObject({
      key: 'j1/m1',
      machine: 'Lathe',
      rangeHref: '/reports/machineoperationreport?machine_id=m1&job_id=j1&start=1000&end=2000',
      allTimeHref: '/reports/machineoperationreport?machine_id=m1&job_id=j1',
    });
  });

  it('pages the Jobs report and keeps Aggregate By in the URL and the CSV', () => {
    const s = { range: RANGE, jobId: null, group: 'g1', machineId: null, aggregateBy: 'machine' as const };
    expect(jobsPageQuery(s, 24)).toEqual({
      start: 1000,
      end: 2000,
      group: 'g1',
      aggregate_by: 'machine',
      limit: JOBS_PAGE_SIZE,
      offset: 24,
    });
    expect(readAggregateBy(new URLSearchParams('aggregate_by=machine'))).toBe('machine');
    expect(readAggregateBy(new URLSearchParams('aggregate_by=run'))).toBe('job');
    expect(writeAggregateBy(new URLSearchParams('start=1'), 'machine').toString()).toBe(
      'start=1&aggregate_by=machine',
    );
    expect(writeAggregateBy(new URLSearchParams('aggregate_by=machine'), 'job').toString()).toBe('');
    expect(jobsPageQuery({ ...s, group: null, machineId: 'm1' }, 0)).toMatchObject({ machine_id: 'm1' });
    expect(jobsCsvHref(RANGE, 'tok', null, 'machine')).toBe(
      '/api/reports/warehouse/jobs?start=1000&end=2000&aggregate_by=machine&format=csv&token=tok',
    );
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
    const answer = { range: RANGE, total: 1, jobs: [job()], limits: LIMITS };
    expect(parseJobs(answer)).toEqual(answer);
    expect(() => parseJobs({ range: RANGE, jobs: [{ job_id: 'j1' }] })).toThrow();
  });

  it('shows "-" for a null P and OEE, never 0 %, with the spec’s warning (issue 27 point 4)', () => {
    const bare = figures({ performance: null, oee: null, missing_standards: true });
    expect(jobTiles(bare).find((t) => t.key === 'oee')!.value).toBe('-');
    expect(jobTiles(bare).find((t) => t.key === 'performance')!.value).toBe('-');
    expect(figureCells(bare).slice(4, 7)).toEqual(['-', '50.0%', '-']);
    expect(jobCards([job(bare)], RANGE, LIMITS)[0]!.oee).toBe('-');
    expect(standardsWarning([figures(), bare])).toBe(
      'One or more operations associated with this metric do not have operation standards applied. This metric may not be accurate.',
    );
    // Every run with a standard (or an older server that does not say): no warning.
    expect(standardsWarning([figures(), { missing_standards: undefined }])).toBeNull();
  });

  it('reads which machines are still being recomputed (decision 1004)', () => {
    const recomputing = [{ machineId: 'm1', machineName: 'Lathe 1' }];
    const answer = { range: RANGE, total: 1, recomputing, jobs: [job()], limits: LIMITS };
    expect(parseJobs(answer).recomputing).toEqual(recomputing);
  });
});

describe('the job detail and the machine-job report', () => {
  it('downtime and rejects by reason: names for setup and none, §9 minutes, shares of the whole', () => {
    const reason = (id: string, name: string | null) => ({ reason_id: id, reason_name: name, color: null });
    expect(
      downtimeRows({
        downtime: [
          {
            ...reason('uncategorized', null),
            planned_ms: 0,
            unplanned_ms: 260 * MIN,
            downtime_ms: 260 * MIN,
          },
          { ...reason('setup', null), planned_ms: 60 * MIN, unplanned_ms: 0, downtime_ms: 60 * MIN },
          { ...reason('t1', 'Break'), planned_ms: 30 * MIN, unplanned_ms: 0, downtime_ms: 30 * MIN },
          // METRICS.md §1: No data stays apart from Uncategorized.
          { ...reason('nodata', null), planned_ms: 0, unplanned_ms: 0, downtime_ms: 0 },
          { ...reason('t2', 'Tool change'), planned_ms: 0, unplanned_ms: 30 * MIN, downtime_ms: 30 * MIN },
        ],
      }).map((r) => [r.name, r.planned, r.unplanned, r.total, r.share]),
    ).toEqual([
      ['Uncategorized', '0.00', '260.00', '260.00', '68.4%'],
      ['Setup', '60.00', '0.00', '60.00', '15.8%'],
      ['Break', '30.00', '0.00', '30.00', '7.9%'],
      ['No data', '0.00', '0.00', '0.00', '0.0%'],
      ['Tool change', '0.00', '30.00', '30.00', '7.9%'],
    ]);
    expect(
      rejectRows({
        rejects: [
          { ...reason('r1', 'Burr'), rejected_parts: 3 },
          { ...reason('uncategorized', null), rejected_parts: 1 },
        ],
      }).map((r) => [r.name, r.parts, r.share]),
    ).toEqual([
      ['Burr', '3', '75.0%'],
      ['Uncategorized', '1', '25.0%'],
    ]);
    expect(
      shiftRows({
        shifts: [
          {
            shift_id: 's1',
            shift_name: 'Day',
            oee: null,
            availability: 1,
            performance: 0,
            quality: null,
            missing_standards: false,
          },
        ],
      }),
    ).toEqual([{ key: 's1', name: 'Day', cells: ['-', '100.0%', '0.0%', '-'] }]);
  });

  it('clamps to the job’s own range rounded out to 15 minutes, a running job to now, within the range', () => {
    const all: AppliedRange = {
      interval: 'day',
      start: epochMs(Date.UTC(2014, 3, 1, 5)),
      end: epochMs(Date.UTC(2025, 10, 3, 6)),
      quicklink: null,
    };
    const at = (h: number, m: number) => Date.UTC(2025, 10, 2, h, m);
    expect(clampToJob(all, { start_at: at(12, 7), end_at: at(14, 31) }, at(20, 0))).toMatchObject({
      start: at(12, 0),
      end: at(14, 45),
    });
    // On the quarter already: unchanged. Running: up to now, rounded up.
    expect(clampToJob(all, { start_at: at(12, 0), end_at: null }, at(13, 1))).toMatchObject({
      start: at(12, 0),
      end: at(13, 15),
    });
    // Never outside the range asked for; without runs, the range as it is.
    expect(
      clampToJob({ ...all, end: epochMs(at(13, 0)) }, { start_at: at(12, 0), end_at: null }, at(20, 0)).end,
    ).toBe(at(13, 0));
    expect(clampToJob(all, { start_at: null, end_at: null }, at(20, 0))).toBe(all);
  });

  it('links the machine-job report with the machine and job, and the range when given', () => {
    expect(machineJobHref('j1', 'm1', null)).toBe('/reports/machineoperationreport?machine_id=m1&job_id=j1');
    expect(machineJobHref('j1', 'm1', RANGE)).toBe(
      '/reports/machineoperationreport?machine_id=m1&job_id=j1&start=1000&end=2000',
    );
    expect(jobByMachineCsvHref('j1', RANGE, 't', 'm1')).toBe(
      '/api/reports/warehouse/jobs/aggregatedbymachine?job_id=j1&machine_id=m1&start=1000&end=2000&format=csv&token=t',
    );
  });
});
