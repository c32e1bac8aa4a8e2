import { formatInCycleHours, formatPercent, goalStatus, quickLinks } from '@takt/domain';
import type { CompanyClock, EpochMs, GoalStatus } from '@takt/domain';
import type { AppliedRange, Horizon } from '@takt/ui';
import { arrayOf, nullable, number, object, parseWith, string, tr } from '@takt/ui';
import { PATHS } from '../routes';

// reports-admin §2 "Jobs report (all machines)" (/reports/operationreport) and the job report
// (/dashboard/jobreport?job_id&start&end) over the warehouse job calls (§7; decision 0813): GET
// /api/reports/warehouse/jobs and …/jobs/aggregatedbymachine, with §3 "Job report" fields. Pure: the pages
// render what these functions return.

/** The job reports' horizons: ranges of days, weeks or months (All Time is a quick link, §2). */
export const JOB_HORIZONS: readonly Horizon[] = ['day', 'week', 'month'];
export const DEFAULT_JOB_HORIZON: Horizon = 'day';
/** reports-admin §2 "Job reports add All Time, starting 2014-04-01". */
export const JOB_QUICK_LINKS = { allTime: true } as const;

/** reports-admin §4 "Parts goal and OEE" cut-offs: the company's, sent with the jobs. */
export interface StatusLimits {
  warningPercent: number;
  failurePercent: number;
}

/** reports-admin §3 "Job report" figures. */
const figures = {
  percentage_of_parts_goal: nullable(number),
  expected_parts: nullable(number),
  good_parts: number,
  rejected_parts: number,
  oee: nullable(number),
  availability: nullable(number),
  performance: nullable(number),
  quality: nullable(number),
  setup_ms: number,
  production_in_cycle_ms: number,
  production_downtime_ms: number,
};
const runCheck = object({
  ...figures,
  jobschedulegroup_id: string,
  job_id: string,
  job_name: string,
  machine_id: string,
  machine_name: string,
  start_at: number,
  end_at: nullable(number),
  expected_cycle_time_ms: number,
  ideal_cycle_time_ms: number,
  average_cycle_ms: nullable(number),
});
const jobCheck = object({
  ...figures,
  job_id: string,
  job_name: string,
  start_at: nullable(number),
  end_at: nullable(number),
  runs: arrayOf(runCheck),
});
const jobsCheck = object({
  range: object({ start: number, end: number }),
  jobs: arrayOf(jobCheck),
  limits: object({ warningPercent: number, failurePercent: number }),
});
const byMachineCheck = object({
  range: object({ start: number, end: number }),
  job: object({
    ...figures,
    job_id: string,
    job_name: string,
    start_at: nullable(number),
    end_at: nullable(number),
  }),
  machines: arrayOf(
    object({
      ...figures,
      machine_id: string,
      machine_name: string,
      start_at: nullable(number),
      end_at: nullable(number),
      average_cycle_ms: nullable(number),
    }),
  ),
});
export type JobsAnswer = ReturnType<typeof jobsCheck>;
export type JobAnswer = JobsAnswer['jobs'][number];
export type JobRunAnswer = JobAnswer['runs'][number];
export type JobByMachineAnswer = ReturnType<typeof byMachineCheck>;
export type JobFiguresAnswer = JobByMachineAnswer['job'];
export const parseJobs = parseWith(jobsCheck);
export const parseJobByMachine = parseWith(byMachineCheck);

export interface Range {
  start: number;
  end: number;
}

/** GET /api/reports/warehouse/jobs: every job in the range, or one (job_id), on a group's machines (group). */
export const jobsQuery = (
  range: Range,
  jobId: string | null = null,
  group: string | null = null,
): Record<string, string | number> => ({
  start: range.start,
  end: range.end,
  ...(jobId ? { job_id: jobId } : {}),
  ...(group ? { group } : {}),
});

/** GET /api/reports/warehouse/jobs/aggregatedbymachine: one job's figures per machine. */
export const jobByMachineQuery = (jobId: string, range: Range): Record<string, string | number> => ({
  job_id: jobId,
  start: range.start,
  end: range.end,
});

const csvHref = (path: string, query: Record<string, string | number>, token: string | null) => {
  if (!token) return null;
  const q = new URLSearchParams(
    Object.entries({ ...query, format: 'csv', token }).map(([k, v]) => [k, String(v)]),
  );
  return `${path}?${q.toString()}`;
};

/** The Jobs report's CSV (decision 0813: one row per job), with the user token (§7). */
export const jobsCsvHref = (range: Range, token: string | null, group: string | null = null): string | null =>
  csvHref('/api/reports/warehouse/jobs', jobsQuery(range, null, group), token);

/** The job report's by-machine CSV (one row per machine and a Total row), with the user token. */
export const jobByMachineCsvHref = (jobId: string, range: Range, token: string | null): string | null =>
  csvHref('/api/reports/warehouse/jobs/aggregatedbymachine', jobByMachineQuery(jobId, range), token);

/**
 * reports-admin §2: /dashboard/jobreport?job_id={id}&start&end, the job report for a range; without a
 * range, the all-time link ("the all-time link omits start and end").
 */
export function jobReportHref(jobId: string, range: Range | null): string {
  const q = new URLSearchParams({ job_id: jobId });
  if (range) {
    q.set('start', String(range.start));
    q.set('end', String(range.end));
  }
  return `${PATHS.jobReport}?${q.toString()}`;
}

/** reports-admin §2 All Time: from the company day of 2014-04-01 to the end of today. */
export function allTimeRange(clock: CompanyClock, now: EpochMs): AppliedRange {
  const link = quickLinks(clock, 'day', now, JOB_QUICK_LINKS).find((l) => l.label === 'All Time')!;
  return { interval: DEFAULT_JOB_HORIZON, start: link.start, end: link.end, quicklink: null };
}

/** The job report's range: the URL's start and end, else All Time (§2: the all-time link omits them). */
export const jobReportRange = (
  query: URLSearchParams,
  fromUrl: AppliedRange,
  clock: CompanyClock,
  now: EpochMs,
): AppliedRange => (query.has('start') && query.has('end') ? fromUrl : allTimeRange(clock, now));

/** The jobs whose name holds the search, case-insensitive (blank: all). */
export function filterJobs<J extends { job_name: string }>(jobs: readonly J[], search: string): J[] {
  const s = search.trim().toLocaleLowerCase();
  return s ? jobs.filter((j) => j.job_name.toLocaleLowerCase().includes(s)) : [...jobs];
}

// ---- Formatting (reports-admin §9: percents 1 decimal, parts whole, setup hours 1 decimal)

/** A fraction (0..1) as a percent with one decimal; '-' for none. */
export const pct = (fraction: number | null): string => {
  const v = formatPercent(fraction, 'oeeTable');
  return v === '-' ? v : `${v}%`;
};
/** Percentage of parts goal (0..100) with one decimal; '-' without a goal. */
export const goalPct = (percent: number | null): string => pct(percent === null ? null : percent / 100);
export const whole = (n: number | null): string => (n === null ? '-' : String(Math.round(n)));
export const hours = (ms: number): string => `${formatInCycleHours(ms)} h`;

/** reports-admin §4 "Parts goal and OEE" status of a job's (or run's) figures. */
export function jobStatus(
  f: Pick<
    JobFiguresAnswer,
    'percentage_of_parts_goal' | 'expected_parts' | 'production_in_cycle_ms' | 'production_downtime_ms'
  >,
  limits: StatusLimits,
): GoalStatus {
  return goalStatus({
    scheduled: true,
    hasJobStandards: f.expected_parts !== null,
    percentOfGoal: f.percentage_of_parts_goal,
    productionRuntimeMs: f.production_in_cycle_ms + f.production_downtime_ms,
    ...limits,
  });
}

export const jobStatusText = (s: GoalStatus): string =>
  s === 'success' || s === 'warning' || s === 'danger' || s === 'noJobStandards'
    ? tr(`jobs.status.${s}`)
    : tr('jobs.status.noJobStandards');

/** One job card of the Jobs report. */
export interface JobCard {
  jobId: string;
  name: string;
  percent: string;
  /** "good / expected". */
  parts: string;
  oee: string;
  status: GoalStatus;
  statusText: string;
  rangeHref: string;
  allTimeHref: string;
}

export function jobCards(jobs: readonly JobAnswer[], range: Range, limits: StatusLimits): JobCard[] {
  return jobs.map((j) => {
    const status = jobStatus(j, limits);
    return {
      jobId: j.job_id,
      name: j.job_name,
      percent: goalPct(j.percentage_of_parts_goal),
      parts: `${whole(j.good_parts)} / ${whole(j.expected_parts)}`,
      oee: pct(j.oee),
      status,
      statusText: jobStatusText(status),
      rangeHref: jobReportHref(j.job_id, range),
      allTimeHref: jobReportHref(j.job_id, null),
    };
  });
}

/** The job report's tiles (§3 fields), in order. */
export function jobTiles(f: JobFiguresAnswer): { key: string; label: string; value: string }[] {
  return [
    { key: 'percent', label: tr('jobReport.percentOfGoal'), value: goalPct(f.percentage_of_parts_goal) },
    { key: 'good', label: tr('jobReport.good'), value: whole(f.good_parts) },
    { key: 'rejected', label: tr('jobReport.rejected'), value: whole(f.rejected_parts) },
    { key: 'oee', label: tr('jobReport.oee'), value: pct(f.oee) },
    { key: 'availability', label: tr('jobReport.availability'), value: pct(f.availability) },
    { key: 'performance', label: tr('jobReport.performance'), value: pct(f.performance) },
    { key: 'quality', label: tr('jobReport.quality'), value: pct(f.quality) },
    { key: 'setup', label: tr('jobReport.setup'), value: hours(f.setup_ms) },
  ];
}

/** The cells of a by-machine or run row after its name and times: goal, good, expected, rejected, OEE… */
export function figureCells(f: Omit<JobFiguresAnswer, 'job_id' | 'job_name' | 'start_at' | 'end_at'>) {
  return [
    goalPct(f.percentage_of_parts_goal),
    whole(f.good_parts),
    whole(f.expected_parts),
    whole(f.rejected_parts),
    pct(f.oee),
    pct(f.availability),
    pct(f.performance),
    pct(f.quality),
    hours(f.setup_ms),
  ];
}
