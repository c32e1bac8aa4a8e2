import { StatusBadge, tr, useUserToken } from '@takt/ui';
import type { ChartData, ChartOptions } from 'chart.js';
import { useId, useMemo, useState } from 'react';
import { Chart } from 'react-chartjs-2';
import { Link } from 'react-router';
import { api } from '../api';
import {
  ChartSection,
  CsvLink,
  cssVar,
  MACHINE_QUICK_LINKS,
  ReportFrame,
  reportPagePair,
  SectionHead,
} from '../components/ReportParts';
import type { ClockProps } from '../components/ReportParts';
import { NearEnd, useJobPages } from './paging';
import type { JobsSelection } from './paging';
import {
  AGGREGATE_BY,
  filterJobs,
  JOB_HORIZONS,
  JOB_PAGE_HORIZONS,
  JOB_QUICK_LINKS,
  jobCards,
  jobsCsvHref,
  jobsPageQuery,
  parseJobs,
  readAggregateBy,
  standardsWarning,
  writeAggregateBy,
} from './report';
import type { AggregateBy, JobAnswer, JobCard, JobsAnswer } from './report';
import './jobs.css';
import { PATHS } from '../routes';
import { CHART_BASE, registerBarLineCharts } from '../reports/charts';
import { NO_SHIFTS, useMachineNames, useReportPage, useSettledCall } from '../reports/hooks';
import type { ReportCall } from '../reports/hooks';

registerBarLineCharts();

/** The first page; the next ones load as the user scrolls (jobs/paging.tsx). */
const jobsCall = (s: JobsSelection): ReportCall<JobsAnswer> => ({
  path: '/api/reports/warehouse/jobs',
  query: jobsPageQuery(s, 0),
  parse: parseJobs,
});

function JobsReportView({ clock, offsetMs, onMachine }: ClockProps & { onMachine: boolean }) {
  const page = useReportPage({ clock, offsetMs, ...JOB_PAGE_HORIZONS });
  const names = useMachineNames();
  // The Jobs report reads group (reports-admin §2); the Machine jobs report its machine_id.
  const report = { ...page, machine: null, ...(onMachine ? { group: null } : {}) };
  const group = onMachine ? null : page.group;
  const machineId = onMachine ? page.query.get('machine_id') : null;
  const jobId = page.query.get('job_id');
  // One machine: a job there is the job on that machine, so its cards open the machine-job report.
  const aggregateBy = onMachine ? 'machine' : readAggregateBy(page.query);
  const selection: JobsSelection = useMemo(
    () => ({
      range: { start: page.applied.start, end: page.applied.end },
      jobId,
      group,
      machineId,
      aggregateBy,
    }),
    [page.applied.start, page.applied.end, jobId, group, machineId, aggregateBy],
  );
  const { settled, answer, status } = useSettledCall(onMachine && !machineId ? null : selection, jobsCall);
  const machineName = names.machines.find((m) => m.id === machineId)?.name;
  const title = !onMachine
    ? tr('jobs.title')
    : machineName
      ? tr('machineJobs.machineTitle', { machine: machineName })
      : tr('machineJobs.title');
  return (
    <ReportFrame
      report={report}
      horizons={JOB_HORIZONS}
      title={title}
      returnText=""
      groups={onMachine ? null : names.groups}
      shifts={NO_SHIFTS}
      quickLinkOptions={onMachine ? MACHINE_QUICK_LINKS : JOB_QUICK_LINKS}
      tools={
        onMachine ? (
          <Link to={PATHS.jobs} className="jobs__back">
            {tr('jobReport.returnToJobs')}
          </Link>
        ) : (
          <AggregateBySelect
            value={aggregateBy}
            onChange={(by) => page.setParams((q) => writeAggregateBy(q, by))}
          />
        )
      }
      {...status}
      {...(onMachine && !machineId ? { loading: false, error: tr('machineJob.notFound') } : {})}
      empty={answer && answer.jobs.length === 0 ? tr('jobs.none') : null}
      recomputing={answer?.recomputing}
    >
      {answer && settled && answer.jobs.length > 0 && <Results first={answer} selection={settled} />}
    </ReportFrame>
  );
}

/** reports-admin §2 Jobs report toolbar "Aggregate By": applied at once, kept in the URL. */
function AggregateBySelect({ value, onChange }: { value: AggregateBy; onChange: (by: AggregateBy) => void }) {
  const id = useId();
  return (
    <div className="group-select">
      <label htmlFor={id}>{tr('jobs.aggregateBy')}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as AggregateBy)}>
        {AGGREGATE_BY.map((by) => (
          <option key={by} value={by}>
            {tr(`jobs.aggregateBy.${by}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

function Results({ first, selection }: { first: JobsAnswer; selection: JobsSelection }) {
  const { range, group, machineId, aggregateBy } = selection;
  const token = useUserToken(api);
  const [search, setSearch] = useState('');
  const searchId = useId();
  const pages = useJobPages(first, selection);
  const jobs = useMemo(() => filterJobs(pages.jobs, search), [pages.jobs, search]);
  const cards = useMemo(() => jobCards(jobs, range, first.limits), [jobs, range, first.limits]);
  // METRICS.md §3: a job whose run time has no standard shows OEE '-' (or P over the rest), with the warning.
  const warning = standardsWarning(jobs);
  return (
    <>
      <section className="report__list" aria-labelledby="jobs-list-heading">
        <SectionHead id="jobs-list-heading" heading={tr('jobs.list')}>
          <CsvLink href={jobsCsvHref(range, token, group, aggregateBy, machineId)} filename="jobs.csv" />
        </SectionHead>
        {warning && (
          <p className="notice notice--warning" role="note">
            {warning}
          </p>
        )}
        <div className="jobs__search">
          <label htmlFor={searchId}>{tr('jobs.search')}</label>
          <input
            id={searchId}
            type="search"
            value={search}
            placeholder={tr('jobs.searchPlaceholder')}
            onChange={(e) => setSearch(e.target.value)}
          />
          <span className="jobs__count" role="status">
            {tr('jobs.count', { shown: String(cards.length), total: String(pages.total) })}
          </span>
        </div>
        {cards.length === 0 ? (
          <p className="notice">{tr('jobs.noMatch', { search: search.trim() })}</p>
        ) : (
          <ul className="job-cards">
            {cards.map((c) => (
              <li key={c.key}>
                <JobCardView card={c} />
              </li>
            ))}
          </ul>
        )}
        {!pages.done && (
          <div className="jobs__more">
            <NearEnd onNear={pages.loadMore} count={pages.jobs.length} />
            {pages.error && (
              <p className="notice notice--error" role="alert">
                {pages.error}
              </p>
            )}
            {pages.loading ? (
              <p role="status">{tr('jobs.loadingMore')}</p>
            ) : (
              // The same next page for keyboards and when the scroll cannot tell (and after a failure).
              <button type="button" className="button" onClick={pages.loadMore}>
                {tr('jobs.loadMore')}
              </button>
            )}
          </div>
        )}
      </section>
      {cards.length > 0 && <JobsChart cards={cards} jobs={jobs} />}
    </>
  );
}

function JobCardView({ card }: { card: JobCard }) {
  const id = useId();
  return (
    <article className="job-card" data-status={card.status} aria-labelledby={id}>
      <div className="job-card__head">
        <h3 id={id}>
          {card.name}
          {card.machine && <span className="job-card__machine"> · {card.machine}</span>}
        </h3>
        <StatusBadge status={card.status === 'noJobStandards' ? 'unavailable' : card.status}>
          {card.statusText}
        </StatusBadge>
      </div>
      <dl className="job-card__figures">
        <div>
          <dt>{tr('jobs.percentOfGoal')}</dt>
          <dd className="num">{card.percent}</dd>
        </div>
        <div>
          <dt>{tr('jobs.goodOfExpected')}</dt>
          <dd className="num">{card.parts}</dd>
        </div>
        <div>
          <dt>{tr('jobs.oee')}</dt>
          <dd className="num">{card.oee}</dd>
        </div>
      </dl>
      <p className="job-card__links">
        <Link to={card.rangeHref}>{tr('jobs.openRange')}</Link>
        <Link to={card.allTimeHref}>{tr('jobs.openAllTime')}</Link>
      </p>
    </article>
  );
}

const STATUS_COLOUR = {
  success: ['--status-success-ink', '#1b7a3a'],
  warning: ['--status-warning-ink', '#8a5a00'],
  danger: ['--status-danger-ink', '#b3261e'],
} as const;

/** Percentage of parts goal per job shown, each bar in its status colour. */
function JobsChart({ cards, jobs }: { cards: JobCard[]; jobs: JobAnswer[] }) {
  const colour = (s: JobCard['status']) =>
    s === 'success' || s === 'warning' || s === 'danger'
      ? cssVar(STATUS_COLOUR[s][0], STATUS_COLOUR[s][1])
      : cssVar('--chart-9', '#828282');
  const data: ChartData<'bar', Array<number | null>, string> = {
    labels: cards.map((c) => (c.machine ? `${c.name} · ${c.machine}` : c.name)),
    datasets: [
      {
        label: tr('jobs.percentOfGoal'),
        data: jobs.map((j) =>
          j.percentage_of_parts_goal === null ? null : Math.round(j.percentage_of_parts_goal * 10) / 10,
        ),
        backgroundColor: cards.map((c) => colour(c.status)),
        maxBarThickness: 40,
      },
    ],
  };
  const options: ChartOptions<'bar'> = {
    ...CHART_BASE,
    scales: {
      x: { ticks: { autoSkip: true, maxRotation: 0 } },
      y: { beginAtZero: true, title: { display: true, text: '%' } },
    },
    plugins: { legend: { display: false } },
  };
  return (
    <ChartSection id="jobs-chart-heading" heading={tr('jobs.chart')} label={tr('jobs.chartLabel')}>
      <Chart type="bar" data={data} options={options} aria-label={tr('jobs.chartLabel')} role="img" />
    </ChartSection>
  );
}

const pages = reportPagePair(JobsReportView, { all: 'jobs.title', machine: 'machineJobs.title' });

/**
 * reports/operationreport?job_id&start&end, the Jobs report (reports-admin §2 "Jobs report (all machines)"):
 * by default the last 30 days from the start of the company day; job cards with their percentage of parts
 * goal, good and expected parts, OEE and status (§4), a search by name, the CSV, and each job's report for
 * the range or for all time; a machine group narrows it to the runs on the group's machines.
 */
export const JobsReportPage = pages.all;

/**
 * /reports/machineoperationreport?machine_id (no job_id), the Machine jobs report (reports-admin §2 "Machine
 * jobs report (one machine)": the same, quick links at most one week): the jobs run on that machine, each card
 * opening the machine-job report (decision 0821).
 */
export const MachineJobsReportPage = pages.machine;
