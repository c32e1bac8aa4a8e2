import { Progress, tr } from '@takt/ui';
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
import { useId, useMemo, useState } from 'react';
import { ErrorBox, PlainTh, ReportPage, ReportFrame, Sparkline, Tile } from '../components/ReportParts';
import type { ClockProps } from '../components/ReportParts';
import { FigureTable, ListFrame } from '../components/ReportLists';
import {
  allComponentsTable,
  DEFAULT_LIST_SORT,
  DEFAULT_OEE_HORIZON,
  defaultTableInterval,
  isEmpty,
  listColumns,
  listRows,
  listViewLabel,
  metricLabel,
  nextListSort,
  offersMatrix,
  perShiftTable,
  pct,
  reportTitle,
  SHIFT_METRICS,
  showsStandardsWarning,
  sortList,
  tileMetrics,
} from './report';
import type {
  ListColumn,
  ListKind,
  ListRow,
  ListSort,
  ListView,
  Production,
  SummaryTable,
  TableInterval,
  TableMode,
} from './report';
import {
  dataOf,
  useMachineNames,
  useReportCall,
  useReportLists,
  useShiftFilteredReport,
} from '../reports/hooks';
import type { ReportListProps } from '../reports/hooks';
import { intervalLabel, REPORT_HORIZONS } from '../reports/shared';
import { byShiftCall, listCall, summaryCall } from './calls';
import type { ViewProps } from './calls';
import { SummaryChart, Waterfall } from './OeeCharts';

ChartJS.register(BarElement, CategoryScale, Legend, LinearScale, LineElement, PointElement, Tooltip);

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
