import { ApiError, tr, useUserToken } from '@takt/ui';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import {
  CsvLink,
  PlainTable,
  ReportFrame,
  reportPagePair,
  SectionHead,
  SummaryTiles,
  Tile,
} from '../components/ReportParts';
import type { ClockProps } from '../components/ReportParts';
import { JobDetail } from './JobDetail';
import {
  allTimeRange,
  clampToJob,
  figureCells,
  JOB_HORIZONS,
  JOB_PAGE_HORIZONS,
  JOB_QUICK_LINKS,
  jobByMachineCsvHref,
  jobByMachineQuery,
  jobReportHref,
  jobReportRange,
  jobsQuery,
  jobTiles,
  machineJobHref,
  parseJobByMachine,
  parseJobs,
  standardsWarning,
} from './report';
import type { JobByMachineAnswer, JobsAnswer, Range } from './report';
import './jobs.css';
import { dataOf, NO_SHIFTS, useReportCall, useReportPage, useSettledCall } from '../reports/hooks';
import type { CallCache, ReportCall } from '../reports/hooks';
import type { LZ } from '../reports/shared';
import { productionRunEditHref } from '../production/runs';
import { PATHS } from '../routes';

interface JobSelection {
  jobId: string;
  /** The machine-job report's machine; null on the job report. */
  machineId: string | null;
  range: Range;
}

/** reports-admin §8: a report load failure says so; an unknown job is "not found" (details not shown). */
const jobErrorText = (err: unknown): string =>
  err instanceof ApiError && err.status === 404
    ? tr('jobReport.notFound')
    : err instanceof ApiError && err.status === 400 && err.message.trim()
      ? err.message
      : tr('reports.requestError');

const byMachineCall = (s: JobSelection): ReportCall<JobByMachineAnswer> => ({
  path: '/api/reports/warehouse/jobs/aggregatedbymachine',
  query: jobByMachineQuery(s.jobId, s.range, s.machineId),
  parse: parseJobByMachine,
  errorText: jobErrorText,
});

const runsCall = (s: JobSelection): ReportCall<JobsAnswer> => ({
  path: '/api/reports/warehouse/jobs',
  query: jobsQuery(s.range, s.jobId, null, s.machineId),
  parse: parseJobs,
  errorText: jobErrorText,
});

function JobReportView({ clock, offsetMs, onMachine }: ClockProps & { onMachine: boolean }) {
  const page = useReportPage({ clock, offsetMs, ...JOB_PAGE_HORIZONS });
  const jobId = page.query.get('job_id');
  const machineId = onMachine ? page.query.get('machine_id') : null;
  // The machine-job report asks for All Time (from 2014-04-01) unless the user set the start, and shows the
  // job's own range rounded out to 15 minutes: every run of the job there lies inside both, so the figures of
  // the two ranges are the same (reports-admin §2 Machine-job report; decision 0820).
  const userStart = onMachine && page.query.has('start');
  const asked = onMachine
    ? userStart
      ? page.applied
      : allTimeRange(clock, page.now)
    : jobReportRange(page.query, page.applied, clock, page.now);
  const selection: JobSelection | null = useMemo(
    () =>
      jobId && (!onMachine || machineId)
        ? { jobId, machineId, range: { start: asked.start, end: asked.end } }
        : null,
    [jobId, onMachine, machineId, asked.start, asked.end],
  );
  const { settled, answer, status, cache } = useSettledCall(selection, byMachineCall);
  // Clamped to the answer of this job and machine only (an older one stays on screen while the next loads).
  const own = answer && settled?.jobId === jobId && settled.machineId === machineId ? answer : null;
  const applied = onMachine && !userStart && own ? clampToJob(asked, own.job, page.now) : asked;
  const report = { ...page, applied, group: null };
  const shown = { start: applied.start, end: applied.end };
  const back = new URLSearchParams({
    ...(onMachine && jobId ? { job_id: jobId } : {}),
    start: String(applied.start),
    end: String(applied.end),
  });
  const machineName = answer?.machines[0]?.machine_name;
  const title = !answer
    ? onMachine
      ? tr('machineJob.title')
      : tr('jobReport.title')
    : onMachine && machineName
      ? tr('machineJob.jobTitle', { name: answer.job.job_name, machine: machineName })
      : tr('jobReport.jobTitle', { name: answer.job.job_name });
  const notFound = onMachine ? tr('machineJob.notFound') : tr('jobReport.notFound');
  return (
    <ReportFrame
      report={report}
      horizons={JOB_HORIZONS}
      title={title}
      returnText=""
      // One job: no group filter.
      groups={null}
      shifts={NO_SHIFTS}
      quickLinkOptions={JOB_QUICK_LINKS}
      tools={
        <p className="job-report__links">
          {/* reports-admin §2: reports/operationreport?job_id&start&end is the machine-job report's back target. */}
          <Link to={`${PATHS.jobs}?${back.toString()}`}>{tr('jobReport.returnToJobs')}</Link>
          {onMachine && jobId && <Link to={jobReportHref(jobId, shown)}>{tr('machineJob.returnToJob')}</Link>}
        </p>
      }
      loading={selection ? status.loading : false}
      error={selection ? status.error : notFound}
      empty={answer && answer.machines.length === 0 ? tr('jobReport.noRuns') : null}
      recomputing={answer?.recomputing}
    >
      {answer && settled && answer.machines.length > 0 && (
        <Results answer={answer} selection={settled} shown={shown} cache={cache} lz={page.lz} />
      )}
    </ReportFrame>
  );
}

function Results({
  answer,
  selection,
  shown,
  cache,
  lz,
}: {
  answer: JobByMachineAnswer;
  selection: JobSelection;
  /** The range on screen (the machine-job report's job range), for the links. */
  shown: Range;
  cache: CallCache;
  lz: LZ;
}) {
  const token = useUserToken(api);
  const runsState = useReportCall(runsCall(selection), cache);
  const runs = dataOf(runsState)?.jobs.find((j) => j.job_id === selection.jobId)?.runs ?? null;
  const time = useMemo(
    () =>
      new Intl.DateTimeFormat(lz.locale, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZone: lz.timeZone,
      }),
    [lz],
  );
  const when = (t: number | null) =>
    t === null ? <span className="job-report__running">{tr('jobReport.running')}</span> : time.format(t);
  const columns = [
    { label: tr('jobReport.col.machine') },
    { label: tr('jobReport.col.start') },
    { label: tr('jobReport.col.end') },
    { label: tr('jobReport.col.percent'), num: true },
    { label: tr('jobReport.col.good'), num: true },
    { label: tr('jobReport.col.expected'), num: true },
    { label: tr('jobReport.col.rejected'), num: true },
    { label: tr('jobReport.col.oee'), num: true },
    { label: tr('jobReport.col.availability'), num: true },
    { label: tr('jobReport.col.performance'), num: true },
    { label: tr('jobReport.col.quality'), num: true },
    { label: tr('jobReport.col.setup'), num: true },
  ];
  // The runs' actions: the machine-job report of the run's machine, and "Go to Production Run" (reports-admin
  // §2: app/production/production-runs/{jobschedulegroup_id}/edit; decision 0850).
  const runColumns = selection.machineId ? columns : [...columns, { label: tr('jobReport.col.actions') }];
  // METRICS.md §3: run time without a standard is out of P ('-' when none has one), and the spec's warning says so.
  const warning = standardsWarning([answer.job, ...answer.shifts]);
  return (
    <>
      <SummaryTiles label={tr('jobReport.summaryLabel')}>
        {jobTiles(answer.job).map((t) => (
          <Tile key={t.key} label={t.label} value={t.value} />
        ))}
      </SummaryTiles>
      {warning && (
        <p className="notice notice--warning" role="note">
          {warning}
        </p>
      )}
      <section className="report__list" aria-labelledby="job-machines-heading">
        <SectionHead id="job-machines-heading" heading={tr('jobReport.byMachine')}>
          <CsvLink
            href={jobByMachineCsvHref(selection.jobId, selection.range, token, selection.machineId)}
            filename="job-machines.csv"
          />
        </SectionHead>
        <PlainTable label={tr('jobReport.byMachine')} columns={columns}>
          {answer.machines.map((m) => (
            <tr key={m.machine_id}>
              <td>{m.machine_name}</td>
              <td>{m.start_at === null ? '-' : time.format(m.start_at)}</td>
              <td>{when(m.end_at)}</td>
              {figureCells(m).map((v, i) => (
                <td key={columns[i + 3]!.label} className="num-col num">
                  {v}
                </td>
              ))}
            </tr>
          ))}
        </PlainTable>
      </section>
      <JobDetail answer={answer} />
      <section
        className="report__list"
        aria-labelledby="job-runs-heading"
        aria-busy={runsState.kind === 'idle' || runsState.kind === 'loading' || undefined}
      >
        <h2 id="job-runs-heading">{tr('jobReport.runs')}</h2>
        {runsState.kind === 'error' ? (
          <p className="notice notice--error" role="alert">
            {runsState.message}
          </p>
        ) : (
          runs && (
            <PlainTable label={tr('jobReport.runs')} columns={runColumns}>
              {runs.map((r) => (
                <tr key={r.jobschedulegroup_id}>
                  <td>{r.machine_name}</td>
                  <td>{time.format(r.start_at)}</td>
                  <td>{when(r.end_at)}</td>
                  {figureCells(r).map((v, i) => (
                    <td key={columns[i + 3]!.label} className="num-col num">
                      {v}
                    </td>
                  ))}
                  {!selection.machineId && (
                    <td>
                      <span className="job-report__actions">
                        <Link to={machineJobHref(selection.jobId, r.machine_id, shown)}>
                          {tr('jobReport.openMachineJob', { machine: r.machine_name })}
                        </Link>{' '}
                        <Link to={productionRunEditHref(r.jobschedulegroup_id)}>
                          {tr('production.goToRun')}
                        </Link>
                      </span>
                    </td>
                  )}
                </tr>
              ))}
            </PlainTable>
          )
        )}
      </section>
    </>
  );
}

const pages = reportPagePair(JobReportView, { all: 'jobReport.title', machine: 'machineJob.title' });

/**
 * /dashboard/jobreport?job_id={id}&start&end, one job's report (reports-admin §2, §3 "Job report"): the
 * job's tiles, its figures by machine with their CSV, and its runs. Without start and end it covers all time
 * (from 2014-04-01).
 */
export const JobReportPage = pages.all;

/**
 * /reports/machineoperationreport?machine_id&job_id[&start&end], the machine-job report (reports-admin §2): the
 * job report of the job's runs on one machine, with its CSV; without a start it covers the job's own range.
 */
export const MachineJobReportPage = pages.machine;
