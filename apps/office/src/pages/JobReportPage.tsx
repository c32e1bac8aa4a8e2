import { ApiError, tr, useUserToken } from '@takt/ui';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import {
  CsvLink,
  PlainTable,
  ReportFrame,
  ReportPage,
  SectionHead,
  SummaryTiles,
  Tile,
} from '../components/ReportParts';
import type { ClockProps } from '../components/ReportParts';
import {
  DEFAULT_JOB_HORIZON,
  figureCells,
  JOB_HORIZONS,
  JOB_QUICK_LINKS,
  jobByMachineCsvHref,
  jobByMachineQuery,
  jobReportRange,
  jobsQuery,
  jobTiles,
  parseJobByMachine,
  parseJobs,
} from '../jobs/report';
import type { JobByMachineAnswer, JobsAnswer, Range } from '../jobs/report';
import '../jobs/jobs.css';
import { dataOf, NO_SHIFTS, useReportCall, useReportPage, useSettledCall } from '../reports/hooks';
import type { CallCache, ReportCall } from '../reports/hooks';
import type { LZ } from '../reports/shared';
import { PATHS } from '../routes';

interface JobSelection {
  jobId: string;
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
  query: jobByMachineQuery(s.jobId, s.range),
  parse: parseJobByMachine,
  errorText: jobErrorText,
});

const runsCall = (s: JobSelection): ReportCall<JobsAnswer> => ({
  path: '/api/reports/warehouse/jobs',
  query: jobsQuery(s.range, s.jobId),
  parse: parseJobs,
  errorText: jobErrorText,
});

const HORIZONS = {
  horizonPreference: null,
  defaultHorizon: DEFAULT_JOB_HORIZON,
  horizons: JOB_HORIZONS,
} as const;

/**
 * /dashboard/jobreport?job_id={id}&start&end, one job's report (reports-admin §2, §3 "Job report"): the
 * job's tiles, its figures by machine with their CSV, and its runs. Without start and end it covers all time
 * (from 2014-04-01).
 */
export function JobReportPage() {
  return <ReportPage title={tr('jobReport.title')} report={JobReport} />;
}

function JobReport({ clock, offsetMs }: ClockProps) {
  const page = useReportPage({ clock, offsetMs, ...HORIZONS });
  const applied = jobReportRange(page.query, page.applied, clock, page.now);
  const report = { ...page, applied, group: null };
  const jobId = page.query.get('job_id');
  const selection: JobSelection | null = useMemo(
    () => (jobId ? { jobId, range: { start: applied.start, end: applied.end } } : null),
    [jobId, applied.start, applied.end],
  );
  const { settled, answer, status, cache } = useSettledCall(selection, byMachineCall);
  const back = new URLSearchParams({ start: String(applied.start), end: String(applied.end) });
  return (
    <ReportFrame
      report={report}
      horizons={JOB_HORIZONS}
      title={answer ? tr('jobReport.jobTitle', { name: answer.job.job_name }) : tr('jobReport.title')}
      returnText=""
      // One job: no group filter.
      groups={null}
      shifts={NO_SHIFTS}
      quickLinkOptions={JOB_QUICK_LINKS}
      tools={<Link to={`${PATHS.jobs}?${back.toString()}`}>{tr('jobReport.returnToJobs')}</Link>}
      loading={jobId ? status.loading : false}
      error={jobId ? status.error : tr('jobReport.notFound')}
      empty={answer && answer.machines.length === 0 ? tr('jobReport.noRuns') : null}
    >
      {answer && settled && answer.machines.length > 0 && (
        <Results answer={answer} selection={settled} cache={cache} lz={page.lz} />
      )}
    </ReportFrame>
  );
}

function Results({
  answer,
  selection,
  cache,
  lz,
}: {
  answer: JobByMachineAnswer;
  selection: JobSelection;
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
  return (
    <>
      <SummaryTiles label={tr('jobReport.summaryLabel')}>
        {jobTiles(answer.job).map((t) => (
          <Tile key={t.key} label={t.label} value={t.value} />
        ))}
      </SummaryTiles>
      <section className="report__list" aria-labelledby="job-machines-heading">
        <SectionHead id="job-machines-heading" heading={tr('jobReport.byMachine')}>
          <CsvLink
            href={jobByMachineCsvHref(selection.jobId, selection.range, token)}
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
            <PlainTable label={tr('jobReport.runs')} columns={columns}>
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
                </tr>
              ))}
            </PlainTable>
          )
        )}
      </section>
    </>
  );
}
