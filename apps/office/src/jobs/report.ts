import {
  formatDowntimeMinutes,
  formatInCycleHours,
  epochMs,
  formatPercent,
  goalStatus,
  NO_DATA_REASON,
  quickLinks,
  SETUP_REASON,
} from '@takt/domain';
import type { CompanyClock, EpochMs, GoalStatus } from '@takt/domain';
import type { AppliedRange, Horizon } from '@takt/ui';
import { arrayOf, boolean, nullable, number, object, optional, parseWith, string, tr } from '@takt/ui';
import { recomputingCheck, unsavedHorizons } from '../reports/shared';
import { PATHS } from '../routes';

// reports-admin §2 "Jobs report (all machines)" (/reports/operationreport) and the job report
// (/dashboard/jobreport?job_id&start&end) over the warehouse job calls (§7; decision 0813): GET
// /api/reports/warehouse/jobs and …/jobs/aggregatedbymachine, with §3 "Job report" fields. Pure: the pages
// render what these functions return.

/** The job reports' horizons: ranges of days, weeks or months (All Time is a quick link, §2). */
export const JOB_HORIZONS: readonly Horizon[] = ['day', 'week', 'month'];
export const DEFAULT_JOB_HORIZON: Horizon = 'day';
/** What a job page gives useReportPage: no saved company horizon, days by default. */
export const JOB_PAGE_HORIZONS = unsavedHorizons(DEFAULT_JOB_HORIZON, JOB_HORIZONS);
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
  /** Some run time has no standard: P and OEE leave it out, or are null (decision 1002); older servers omit it. */
  missing_standards: optional(boolean),
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
  /** Aggregated by machine: the machine of this entry. */
  machine_id: optional(string),
  machine_name: optional(string),
  start_at: nullable(number),
  end_at: nullable(number),
  runs: arrayOf(runCheck),
});
const jobsCheck = object({
  range: object({ start: number, end: number }),
  /** All the entries of the range; `jobs` is one page of them. */
  total: number,
  recomputing: recomputingCheck,
  jobs: arrayOf(jobCheck),
  limits: object({ warningPercent: number, failurePercent: number }),
});
/** The job detail (decision 0820): OEE by shift, downtime and rejects by reason, over the runs' time. */
const reasonFields = { reason_id: string, reason_name: nullable(string), color: nullable(string) };
const byMachineCheck = object({
  range: object({ start: number, end: number }),
  recomputing: recomputingCheck,
  shifts: arrayOf(
    object({
      shift_id: string,
      shift_name: string,
      oee: nullable(number),
      availability: nullable(number),
      performance: nullable(number),
      quality: nullable(number),
      missing_standards: optional(boolean),
    }),
  ),
  downtime: arrayOf(
    object({ ...reasonFields, planned_ms: number, unplanned_ms: number, downtime_ms: number }),
  ),
  rejects: arrayOf(object({ ...reasonFields, rejected_parts: number })),
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

/**
 * GET /api/reports/warehouse/jobs: every job in the range, or one (job_id), on a group's machines (group) or
 * one machine (machine_id).
 */
export const jobsQuery = (
  range: Range,
  jobId: string | null = null,
  group: string | null = null,
  machineId: string | null = null,
): Record<string, string | number> => ({
  start: range.start,
  end: range.end,
  ...(jobId ? { job_id: jobId } : {}),
  ...(group ? { group } : {}),
  ...(machineId ? { machine_id: machineId } : {}),
});

/** reports-admin §2 Jobs report toolbar "Aggregate By": a card per job, or per job on each machine. */
export const AGGREGATE_BY = ['job', 'machine'] as const;
export type AggregateBy = (typeof AGGREGATE_BY)[number];
export const readAggregateBy = (q: URLSearchParams): AggregateBy =>
  q.get('aggregate_by') === 'machine' ? 'machine' : 'job';
export function writeAggregateBy(q: URLSearchParams, by: AggregateBy): URLSearchParams {
  const next = new URLSearchParams(q);
  if (by === 'job') next.delete('aggregate_by');
  else next.set('aggregate_by', by);
  return next;
}

/** The Jobs report's page of entries (its infinite scroll asks for the next one near the end, decision 0821). */
export const JOBS_PAGE_SIZE = 24;

/** One page of the Jobs report from `offset`. */
export const jobsPageQuery = (
  s: {
    range: Range;
    jobId: string | null;
    group: string | null;
    machineId: string | null;
    aggregateBy: AggregateBy;
  },
  offset: number,
): Record<string, string | number> => ({
  ...jobsQuery(s.range, s.jobId, s.group, s.machineId),
  aggregate_by: s.aggregateBy,
  limit: JOBS_PAGE_SIZE,
  offset,
});

/**
 * GET /api/reports/warehouse/jobs/aggregatedbymachine: one job's figures per machine and its detail; with a
 * machine, the job on that machine only (the machine-job report).
 */
export const jobByMachineQuery = (
  jobId: string,
  range: Range,
  machineId: string | null = null,
): Record<string, string | number> => ({
  job_id: jobId,
  ...(machineId ? { machine_id: machineId } : {}),
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
export const jobsCsvHref = (
  range: Range,
  token: string | null,
  group: string | null = null,
  aggregateBy: AggregateBy = 'job',
  machineId: string | null = null,
): string | null =>
  csvHref(
    '/api/reports/warehouse/jobs',
    {
      ...jobsQuery(range, null, group, machineId),
      ...(aggregateBy === 'job' ? {} : { aggregate_by: aggregateBy }),
    },
    token,
  );

/** The job report's by-machine CSV (one row per machine and a Total row), with the user token. */
export const jobByMachineCsvHref = (
  jobId: string,
  range: Range,
  token: string | null,
  machineId: string | null = null,
): string | null =>
  csvHref(
    '/api/reports/warehouse/jobs/aggregatedbymachine',
    jobByMachineQuery(jobId, range, machineId),
    token,
  );

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

/** reports-admin §9 "job range rounded to 15 minutes". */
const QUARTER_HOUR_MS = 15 * 60_000;

/**
 * reports-admin §2 Machine-job report: "Unless the user set the start, the range is clamped to the job's own
 * range, rounded to 15 minutes" — outward (the start down, the end up; a running job's end is now), never
 * beyond the all-time range. Company offsets are whole quarter hours, so epoch quarters are wall-clock ones.
 */
export function clampToJob(
  range: AppliedRange,
  job: { start_at: number | null; end_at: number | null },
  now: number,
): AppliedRange {
  if (job.start_at === null) return range;
  const start = Math.floor(job.start_at / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  const end = Math.ceil((job.end_at ?? now) / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  return {
    ...range,
    start: epochMs(Math.max(range.start, start)),
    end: epochMs(Math.min(range.end, Math.max(end, start + QUARTER_HOUR_MS))),
    quicklink: null,
  };
}

/**
 * reports-admin §2: /reports/machineoperationreport?machine_id&job_id[&start&end], one job on one machine;
 * a run's range, or without one the job's own range (clampToJob).
 */
export function machineJobHref(jobId: string, machineId: string, range: Range | null): string {
  const q = new URLSearchParams({ machine_id: machineId, job_id: jobId });
  if (range) {
    q.set('start', String(range.start));
    q.set('end', String(range.end));
  }
  return `${PATHS.machineJob}?${q.toString()}`;
}

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
  /** Unique among the cards: the job, or the job and machine when aggregated by machine. */
  key: string;
  jobId: string;
  name: string;
  /** Aggregated by machine: the machine's name. */
  machine: string | null;
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
    // A job on one machine opens the machine-job report; its all-time link is the job's own range (§2).
    const m = j.machine_id;
    return {
      key: m ? `${j.job_id}/${m}` : j.job_id,
      jobId: j.job_id,
      name: j.job_name,
      machine: j.machine_name ?? null,
      percent: goalPct(j.percentage_of_parts_goal),
      parts: `${whole(j.good_parts)} / ${whole(j.expected_parts)}`,
      oee: pct(j.oee),
      status,
      statusText: jobStatusText(status),
      rangeHref: m ? machineJobHref(j.job_id, m, range) : jobReportHref(j.job_id, range),
      allTimeHref: m ? machineJobHref(j.job_id, m, null) : jobReportHref(j.job_id, null),
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

// ---- The job detail (reports-admin §2 "detail with quality, downtime and OEE by machine and by shift")

/**
 * A reason's name: the API names annotation types and reject reasons; setup, No data (METRICS.md §1: apart from
 * Uncategorized on every screen) and none are named here.
 */
const reasonName = (r: { reason_id: string; reason_name: string | null }): string =>
  r.reason_name ??
  (r.reason_id === SETUP_REASON
    ? tr('jobDetail.setup')
    : r.reason_id === NO_DATA_REASON
      ? tr('downtime.noData')
      : tr('jobDetail.uncategorized'));

/** A part of a whole as a percent with one decimal ('-' when the whole is 0). */
const share = (part: number, whole: number): string => pct(whole === 0 ? null : part / whole);

/** Downtime by reason, longest first (as the API sorts it): minutes with 2 decimals (§9) and the share. */
export function downtimeRows(a: Pick<JobByMachineAnswer, 'downtime'>) {
  const total = a.downtime.reduce((t, d) => t + d.downtime_ms, 0);
  return a.downtime.map((d) => ({
    key: d.reason_id,
    name: reasonName(d),
    planned: formatDowntimeMinutes(d.planned_ms),
    unplanned: formatDowntimeMinutes(d.unplanned_ms),
    total: formatDowntimeMinutes(d.downtime_ms),
    share: share(d.downtime_ms, total),
  }));
}

/** Rejected parts by reason, most first: whole parts and the share of the job's rejects. */
export function rejectRows(a: Pick<JobByMachineAnswer, 'rejects'>) {
  const total = a.rejects.reduce((t, r) => t + r.rejected_parts, 0);
  return a.rejects.map((r) => ({
    key: r.reason_id,
    name: reasonName(r),
    parts: whole(r.rejected_parts),
    share: share(r.rejected_parts, total),
  }));
}

/**
 * METRICS.md §3 / reports-admin §2: the spec's warning when some of the figures' run time has no operation
 * standard (its P and OEE leave that time out, or read '-'); null otherwise. Any of `figures` lacking one.
 */
export const standardsWarning = (
  figures: ReadonlyArray<{ missing_standards?: boolean | undefined }>,
): string | null => (figures.some((f) => f.missing_standards === true) ? tr('oee.noStandards') : null);

/** OEE and its factors by shift (one decimal). */
export const shiftRows = (a: Pick<JobByMachineAnswer, 'shifts'>) =>
  a.shifts.map((s) => ({
    key: s.shift_id,
    name: s.shift_name,
    cells: [pct(s.oee), pct(s.availability), pct(s.performance), pct(s.quality)],
  }));
