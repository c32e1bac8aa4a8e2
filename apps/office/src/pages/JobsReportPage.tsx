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
  ReportFrame,
  ReportPage,
  SectionHead,
} from '../components/ReportParts';
import type { ClockProps } from '../components/ReportParts';
import {
  DEFAULT_JOB_HORIZON,
  filterJobs,
  JOB_HORIZONS,
  JOB_QUICK_LINKS,
  jobCards,
  jobsCsvHref,
  jobsQuery,
  parseJobs,
} from '../jobs/report';
import type { JobCard, JobsAnswer, Range } from '../jobs/report';
import '../jobs/jobs.css';
import { registerBarLineCharts } from '../reports/charts';
import { NO_SHIFTS, useMachineNames, useReportPage, useSettledCall } from '../reports/hooks';
import type { ReportCall } from '../reports/hooks';

registerBarLineCharts();

interface JobsSelection {
  range: Range;
  jobId: string | null;
  group: string | null;
}

const jobsCall = (s: JobsSelection): ReportCall<JobsAnswer> => ({
  path: '/api/reports/warehouse/jobs',
  query: jobsQuery(s.range, s.jobId, s.group),
  parse: parseJobs,
});

const HORIZONS = {
  horizonPreference: null,
  defaultHorizon: DEFAULT_JOB_HORIZON,
  horizons: JOB_HORIZONS,
} as const;

/**
 * reports/operationreport?job_id&start&end, the Jobs report (reports-admin §2 "Jobs report (all machines)"):
 * by default the last 30 days from the start of the company day; job cards with their percentage of parts
 * goal, good and expected parts, OEE and status (§4), a search by name, the CSV, and each job's report for
 * the range or for all time; a machine group narrows it to the runs on the group's machines.
 */
export function JobsReportPage() {
  return <ReportPage title={tr('jobs.title')} report={JobsReport} />;
}

function JobsReport({ clock, offsetMs }: ClockProps) {
  const page = useReportPage({ clock, offsetMs, ...HORIZONS });
  const names = useMachineNames();
  // The Jobs report reads group (reports-admin §2), not machine.
  const report = { ...page, machine: null };
  const { group } = page;
  const jobId = page.query.get('job_id');
  const selection: JobsSelection = useMemo(
    () => ({ range: { start: page.applied.start, end: page.applied.end }, jobId, group }),
    [page.applied.start, page.applied.end, jobId, group],
  );
  const { settled, answer, status } = useSettledCall(selection, jobsCall);
  return (
    <ReportFrame
      report={report}
      horizons={JOB_HORIZONS}
      title={tr('jobs.title')}
      returnText=""
      groups={names.groups}
      shifts={NO_SHIFTS}
      quickLinkOptions={JOB_QUICK_LINKS}
      {...status}
      empty={answer && answer.jobs.length === 0 ? tr('jobs.none') : null}
    >
      {answer && settled && answer.jobs.length > 0 && (
        <Results answer={answer} range={settled.range} group={settled.group} />
      )}
    </ReportFrame>
  );
}

function Results({ answer, range, group }: { answer: JobsAnswer; range: Range; group: string | null }) {
  const token = useUserToken(api);
  const [search, setSearch] = useState('');
  const searchId = useId();
  const jobs = useMemo(() => filterJobs(answer.jobs, search), [answer, search]);
  const cards = useMemo(() => jobCards(jobs, range, answer.limits), [jobs, range, answer.limits]);
  return (
    <>
      <section className="report__list" aria-labelledby="jobs-list-heading">
        <SectionHead id="jobs-list-heading" heading={tr('jobs.list')}>
          <CsvLink href={jobsCsvHref(range, token, group)} filename="jobs.csv" />
        </SectionHead>
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
            {tr('jobs.count', { shown: String(cards.length), total: String(answer.jobs.length) })}
          </span>
        </div>
        {cards.length === 0 ? (
          <p className="notice">{tr('jobs.noMatch', { search: search.trim() })}</p>
        ) : (
          <ul className="job-cards">
            {cards.map((c) => (
              <li key={c.jobId}>
                <JobCardView card={c} />
              </li>
            ))}
          </ul>
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
        <h3 id={id}>{card.name}</h3>
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
function JobsChart({ cards, jobs }: { cards: JobCard[]; jobs: JobsAnswer['jobs'] }) {
  const colour = (s: JobCard['status']) =>
    s === 'success' || s === 'warning' || s === 'danger'
      ? cssVar(STATUS_COLOUR[s][0], STATUS_COLOUR[s][1])
      : cssVar('--chart-9', '#828282');
  const data: ChartData<'bar', Array<number | null>, string> = {
    labels: cards.map((c) => c.name),
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
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
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
