import { Progress, tr } from '@takt/ui';
import type { Horizon } from '@takt/ui';
import {
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import type { ChartOptions } from 'chart.js';
import { useId, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { Bar, Line } from 'react-chartjs-2';
import { Link, useNavigate } from 'react-router';
import {
  cssVar,
  ErrorBox,
  PlainTh,
  pointerOnHover,
  ReportPage,
  ReportFrame,
  Sparkline,
  Tile,
} from '../components/ReportParts';
import type { ClockProps } from '../components/ReportParts';
import { FigureTable, ListFrame } from '../components/ReportLists';
import {
  allComponentsTable,
  byShiftRequest,
  byShiftSeries,
  chartTypeLabel,
  chartTypes,
  DEFAULT_LIST_SORT,
  DEFAULT_OEE_HORIZON,
  defaultTableInterval,
  isEmpty,
  listColumns,
  listRequest,
  listRows,
  listViewLabel,
  metricLabel,
  nextListSort,
  offersMatrix,
  parseByShift,
  parseOeeSummary,
  parseProduction,
  perShiftTable,
  pct,
  reportTitle,
  SHIFT_METRICS,
  showsStandardsWarning,
  sortList,
  summaryQuery,
  summarySeries,
  tileMetrics,
  waterfallCaption,
  waterfallOee,
  waterfallRows,
  wrapLabel,
  lowestPerformanceMachine,
} from '../oee/report';
import type {
  ByShift,
  ChartType,
  ListColumn,
  ListKind,
  ListRow,
  ListSort,
  ListView,
  OeeSelection,
  OeeSummary,
  Production,
  Series,
  ShiftMetric,
  SummaryTable,
  TableInterval,
  TableMode,
  WaterfallRow,
} from '../oee/report';
import {
  dataOf,
  useMachineNames,
  useReportCall,
  useReportLists,
  useShiftFilteredReport,
} from '../reports/hooks';
import type { CallCache, ReportCall, ReportListProps } from '../reports/hooks';
import { intervalLabel, REPORT_HORIZONS } from '../reports/shared';
import type { LZ } from '../reports/shared';
import { CHART_BASE } from '../reports/charts';

ChartJS.register(BarElement, CategoryScale, Legend, LinearScale, LineElement, PointElement, Tooltip);

/** What every part of the results reads: the summary answer, the settled selection, the shared calls. */
interface ViewProps {
  summary: OeeSummary;
  selection: OeeSelection;
  cache: CallCache;
  lz: LZ;
}

const PRODUCTION = '/api/reports/warehouse/production';
const BY_SHIFT = '/api/oee/byabstractshift';
const SUMMARY = '/api/reports/oee';

const summaryCall = (s: OeeSelection, interval?: Horizon): ReportCall<OeeSummary> => ({
  path: SUMMARY,
  query: summaryQuery(s, interval),
  parse: parseOeeSummary,
});
const listCall = (s: OeeSelection, kind: ListKind, overTime: boolean): ReportCall<Production> => ({
  path: PRODUCTION,
  method: 'POST',
  body: listRequest(s, kind, overTime),
  parse: parseProduction,
});
const byShiftCall = (s: OeeSelection, metric: ShiftMetric, interval: Horizon): ReportCall<ByShift> => ({
  path: BY_SHIFT,
  method: 'POST',
  body: byShiftRequest(s, metric, interval),
  parse: parseByShift,
});

/** /dashboard/oee?group&machine&interval&start&end&quicklink (reports-admin §2 OEE report). */
export function OeeReportPage() {
  return <ReportPage title={tr('reports.oee')} report={OeeReport} />;
}

function OeeReport({ clock, offsetMs }: ClockProps) {
  // reports-admin §9: the last OEE horizon and the selected shifts are remembered per company.
  const { frame, results, answer } = useShiftFilteredReport(
    { clock, offsetMs, horizonPreference: 'oeeHorizon', defaultHorizon: DEFAULT_OEE_HORIZON },
    summaryCall,
  );
  const { group, machine } = frame.report;
  const names = useMachineNames();

  const title = reportTitle(
    { group, machine },
    {
      group: names.groups.find((g) => g.id === group)?.name,
      machine: names.machines.find((m) => m.id === machine)?.name,
    },
  );

  return (
    <ReportFrame
      {...frame}
      horizons={REPORT_HORIZONS}
      title={title}
      returnText={tr('oee.returnToAll')}
      groups={names.groups}
      empty={answer && isEmpty(answer) ? tr('oee.empty') : null}
      recomputing={answer?.recomputing}
    >
      {answer && results && <Results summary={answer} {...results} />}
    </ReportFrame>
  );
}

function Results({
  summary,
  selection,
  cache,
  lz,
  onDrillInterval,
  onDrill,
}: ViewProps & {
  onDrillInterval: (cell: { start: number; end: number }) => void;
  onDrill: (param: 'group' | 'machine', id: string) => void;
}) {
  const filtered = summary.shiftFiltered;
  const lists = useReportLists(selection, cache, listCall, onDrill);

  return (
    <>
      <section className="report__summary report__summary--oee" aria-label={tr('oee.tilesLabel')}>
        <div className="tiles tiles--wrap">
          {tileMetrics(filtered).map((m) => (
            <Tile
              key={m}
              label={metricLabel(m)}
              value={pct(summary.efficiency[m])}
              hint={tr(`oee.tileHint.${m}`)}
            />
          ))}
        </div>
        {showsStandardsWarning(summary.efficiency) && (
          <p className="notice notice--warning" role="note">
            {tr('oee.noStandards')}
          </p>
        )}
        <SummaryChart
          summary={summary}
          selection={selection}
          cache={cache}
          lz={lz}
          onDrillInterval={onDrillInterval}
        />
      </section>

      <Waterfall summary={summary} selection={selection} cache={cache} lz={lz} />

      {lists.map((list) => (
        <ListSection key={list.kind} {...list} filtered={filtered} />
      ))}

      <IntervalTable summary={summary} selection={selection} cache={cache} lz={lz} />
    </>
  );
}

// ---- Chart

const colorOf = (c: number | string): string =>
  typeof c === 'string' ? c : cssVar(`--chart-${String((c % 9) + 1)}`, '#1f5fbf');

function SummaryChart({
  summary,
  selection,
  cache,
  lz,
  onDrillInterval,
}: ViewProps & { onDrillInterval: (cell: { start: number; end: number }) => void }) {
  const id = useId();
  const types = chartTypes(summary.shiftFiltered);
  const [picked, setPicked] = useState<ChartType>('components');
  const chart = types.includes(picked) ? picked : 'components';
  const [metric, setMetric] = useState<ShiftMetric>('oee');
  const byShift = useReportCall(
    chart === 'byShift' ? byShiftCall(selection, metric, selection.range.interval) : null,
    cache,
  );
  const interval = summary.interval;

  let cells: { start: number; end?: number; shopDate: string }[] = summary.intervals;
  let series: Series[] = [];
  let body: ReactNode = null;
  if (chart === 'byShift') {
    const b = dataOf(byShift);
    if (byShift.kind === 'error') body = <ErrorBox message={byShift.message} />;
    else if (!b) body = <Progress />;
    else {
      const s = byShiftSeries(b);
      cells = b.intervals;
      series = s.series;
      if (series.length === 0) body = <p className="notice">{tr('oee.chartNoShifts')}</p>;
    }
  } else series = summarySeries(chart, summary);

  const labels = cells.map((c) => intervalLabel(c, interval, lz));
  const label = tr('oee.chartLabel', {
    chart:
      chart === 'byShift' ? tr('oee.view.matrix', { metric: metricLabel(metric) }) : chartTypeLabel(chart),
  });
  const options: ChartOptions<'line'> = {
    ...CHART_BASE,
    interaction: { mode: 'index', intersect: false },
    scales: {
      y: { min: 0, suggestedMax: 100, ticks: { callback: (v) => `${String(v)}%` } },
      x: { ticks: { autoSkip: true, maxRotation: 0 } },
    },
    plugins: {
      legend: { position: 'bottom', labels: { boxWidth: 12 } },
      tooltip: {
        callbacks: {
          label: (ctx) => `${ctx.dataset.label ?? ''}: ${ctx.raw == null ? '-' : `${String(ctx.raw)}%`}`,
        },
      },
    },
    // UI.md: every chart element drills down to what is behind it: an interval opens its own range.
    onClick: (_e, elements) => {
      const i = elements[0]?.index;
      const c = i == null ? undefined : summary.intervals.find((x) => x.start === cells[i]?.start);
      if (c) onDrillInterval(c);
    },
    onHover: pointerOnHover(),
  };
  const data = {
    labels,
    datasets: series.map((s) => ({
      label: s.label,
      data: s.values,
      borderColor: colorOf(s.color),
      backgroundColor: colorOf(s.color),
      pointRadius: cells.length > 40 ? 0 : 3,
      spanGaps: false,
      borderWidth: 2,
    })),
  };

  return (
    <figure className="report__chart">
      <div className="report__chart-tools">
        <div className="field field--inline">
          <label htmlFor={`${id}-type`}>{tr('oee.chartType')}</label>
          <select id={`${id}-type`} value={chart} onChange={(e) => setPicked(e.target.value as ChartType)}>
            {types.map((c) => (
              <option key={c} value={c}>
                {chartTypeLabel(c)}
              </option>
            ))}
          </select>
        </div>
        {chart === 'byShift' && (
          <div className="field field--inline">
            <label htmlFor={`${id}-metric`}>{tr('oee.chart.metric')}</label>
            <select
              id={`${id}-metric`}
              value={metric}
              onChange={(e) => setMetric(e.target.value as ShiftMetric)}
            >
              {SHIFT_METRICS.map((m) => (
                <option key={m} value={m}>
                  {metricLabel(m)}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {body ?? (
        <div className="report__chart-box">
          <Line data={data} options={options} aria-label={label} role="img" />
        </div>
      )}
      <figcaption className="visually-hidden">{label}</figcaption>
    </figure>
  );
}

// ---- Explainable OEE: the loss waterfall

function Waterfall({ summary, selection, cache, lz }: ViewProps) {
  const navigate = useNavigate();
  // Without one machine chosen, the performance step opens the Cycles report of the machine with the lowest
  // Performance: the Machines list's answer, shared through the cache (decision 0806).
  const machines = useReportCall(selection.machine ? null : listCall(selection, 'machine', false), cache);
  const rows = waterfallRows(
    summary.waterfall,
    {
      group: selection.group,
      machine: selection.machine,
      start: summary.range.start,
      end: summary.range.end,
      performanceMachine: lowestPerformanceMachine(dataOf(machines)),
    },
    lz.locale,
  );
  if (rows.length === 0) return null;
  // The caption follows the tile: without run time the OEE is '-', though fully productive time is 0.
  const oee = summary.efficiency.oee == null ? null : waterfallOee(summary.waterfall);
  const caption = waterfallCaption(rows, oee);
  const colors = rows.map((r) =>
    r.kind === 'total'
      ? r.key === 'fullyProductiveTime'
        ? cssVar('--chart-3', '#1b7a3a')
        : cssVar('--chart-1', '#1f5fbf')
      : cssVar('--chart-4', '#c0262d'),
  );
  const data = {
    // Long reason names break into lines rather than being cut off at the chart's edge on a phone.
    labels: rows.map((r) => wrapLabel(r.label, 24)),
    datasets: [
      {
        label: tr('oee.losses.hours'),
        data: rows.map((r) => [r.from, r.to] as [number, number]),
        backgroundColor: colors,
        borderSkipped: false as const,
        barPercentage: 0.8,
        categoryPercentage: 0.9,
      },
    ],
  };
  const options: ChartOptions<'bar'> = {
    indexAxis: 'y',
    ...CHART_BASE,
    scales: {
      x: { min: 0, title: { display: true, text: tr('oee.losses.hours') } },
      y: { ticks: { autoSkip: false } },
    },
    plugins: {
      legend: { display: false },
      tooltip: {
        callbacks: {
          label: (ctx) => {
            const r = rows[ctx.dataIndex];
            if (!r) return '';
            const hours = tr('oee.losses.hoursValue', { hours: r.hours });
            return r.share ? `${hours} · ${r.share}` : hours;
          },
        },
      },
    },
    onClick: (_e, elements) => {
      const r = elements[0] ? rows[elements[0].index] : undefined;
      if (r?.href) void navigate(r.href);
    },
    onHover: pointerOnHover((i) => rows[i]?.href != null),
  };

  return (
    <section className="report__list report__losses" aria-labelledby="losses-heading">
      <h2 id="losses-heading">{tr('oee.losses.title')}</h2>
      <p className="report__intro">{tr('oee.losses.intro')}</p>
      <div className="report__losses-body">
        <figure className="report__chart">
          <div className="report__chart-box" style={{ height: `${String(60 + rows.length * 30)}px` }}>
            <Bar data={data} options={options} aria-label={tr('oee.losses.chartLabel')} role="img" />
          </div>
          <figcaption className="report__caption">{caption}</figcaption>
        </figure>
        <WaterfallTable rows={rows} />
      </div>
    </section>
  );
}

/** The same steps as a table: readable on a phone, every loss a real link for the keyboard. */
function WaterfallTable({ rows }: { rows: WaterfallRow[] }) {
  return (
    <div className="table-wrap table-wrap--medium">
      <table className="table table--fit">
        <thead>
          <tr>
            <PlainTh label={tr('oee.losses.step')} />
            <PlainTh label={tr('oee.losses.hours')} className="num-col" />
            <PlainTh label={tr('oee.losses.share')} className="num-col" />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} className={r.kind === 'total' ? 'row--total' : 'row--loss'}>
              <th scope="row">
                {r.href ? (
                  <Link to={r.href} title={tr('oee.losses.open')}>
                    {r.label}
                  </Link>
                ) : (
                  r.label
                )}
              </th>
              <td className="num-col num">{r.hours}</td>
              <td className="num-col num">{r.share}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

// ---- Lists: Shifts, Machine Groups, Machines

function ListSection(props: ReportListProps<Production> & { filtered: boolean }) {
  const { kind, figures, overTime, selection, filtered, cache, onDrill } = props;
  const data = dataOf(figures);
  const rows = useMemo(() => (data ? listRows(kind, data, overTime) : []), [kind, data, overTime]);
  const [view, setView] = useState<ListView>('summary');
  const matrixOffered = offersMatrix(kind, rows.length);
  const shown: ListView = matrixOffered ? view : 'summary';
  const byShift = useReportCall(
    shown !== 'summary' && kind !== 'shift' ? byShiftCall(selection, shown, selection.range.interval) : null,
    cache,
  );

  return (
    <ListFrame
      {...props}
      views={
        matrixOffered
          ? (['summary', ...SHIFT_METRICS] as const).map((v) => ({ value: v, label: listViewLabel(v) }))
          : null
      }
      view={shown}
      onView={setView}
      byShift={byShift}
    >
      <SummaryList kind={kind} rows={rows} filtered={filtered} onDrill={onDrill} />
    </ListFrame>
  );
}

function SummaryList({
  kind,
  rows,
  filtered,
  onDrill,
}: {
  kind: ListKind;
  rows: ListRow[];
  filtered: boolean;
  onDrill: ((id: string) => void) | null;
}) {
  const [sort, setSort] = useState<ListSort>(DEFAULT_LIST_SORT);
  const sorted = useMemo(() => sortList(rows, sort), [rows, sort]);
  const columns = listColumns(kind, filtered);
  return (
    <FigureTable
      columns={columns.map((c) => ({ key: c, label: metricLabel(c) }))}
      sort={sort}
      onSort={(key) => setSort((s) => nextListSort(s, key as ListColumn))}
      rows={sorted}
      cells={(r) => columns.map((c) => pct(r.figures[c]))}
      trailing={{
        label: tr('oee.overTime'),
        cell: (r) => <Sparkline values={r.overTime} />,
      }}
      onDrill={onDrill}
    />
  );
}

// ---- Summary table by interval

function IntervalTable({ summary, selection, cache, lz }: ViewProps) {
  const id = useId();
  const [interval, setTableInterval] = useState<TableInterval>(() =>
    defaultTableInterval(selection.range.interval),
  );
  const [mode, setMode] = useState<TableMode>('all');
  const own = mode === 'all' && interval === summary.interval;
  const allCall = useReportCall(mode === 'all' && !own ? summaryCall(selection, interval) : null, cache);
  const metricCall = useReportCall(mode !== 'all' ? byShiftCall(selection, mode, interval) : null, cache);
  const state = mode === 'all' ? (own ? null : allCall) : metricCall;
  let table: SummaryTable | null = null;
  if (mode === 'all') {
    const s = own ? summary : dataOf(allCall);
    if (s) table = allComponentsTable(s);
  } else {
    const b = dataOf(metricCall);
    if (b) table = perShiftTable(b);
  }

  return (
    <section
      className="report__list"
      aria-labelledby={`${id}-heading`}
      aria-busy={state?.kind === 'loading' || undefined}
    >
      <div className="page__head">
        <h2 id={`${id}-heading`}>{tr('oee.byInterval', { interval: tr(`oee.interval.${interval}`) })}</h2>
        <div className="page__tools">
          <div className="field field--inline">
            <label htmlFor={`${id}-interval`}>{tr('oee.tableInterval')}</label>
            <select
              id={`${id}-interval`}
              value={interval}
              onChange={(e) => setTableInterval(e.target.value as TableInterval)}
            >
              <option value="day">{tr('horizon.day')}</option>
              <option value="week">{tr('horizon.week')}</option>
            </select>
          </div>
          <div className="field field--inline">
            <label htmlFor={`${id}-mode`}>{tr('oee.byIntervalView')}</label>
            <select id={`${id}-mode`} value={mode} onChange={(e) => setMode(e.target.value as TableMode)}>
              <option value="all">{tr('oee.byIntervalAll')}</option>
              {SHIFT_METRICS.map((m) => (
                <option key={m} value={m}>
                  {tr('oee.byIntervalMetric', { metric: metricLabel(m) })}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
      {state?.kind === 'error' && <ErrorBox message={state.message} />}
      {!table && state?.kind !== 'error' && <Progress />}
      {table && (
        <div className="table-wrap table-wrap--medium">
          <table className="table">
            <thead>
              <tr>
                <PlainTh label={tr('oee.date')} />
                {table.columns.map((c) => (
                  <th key={c} scope="col" className="num-col">
                    <span className="th-text">{c}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((r) => (
                <tr key={r.key}>
                  <th scope="row">{intervalLabel(r, interval, lz)}</th>
                  {r.cells.map((c, i) => (
                    <td key={table.columns[i] ?? i} className="num-col num">
                      {c}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
