import type { EpochMs } from '@takt/domain';
import { tr } from '@takt/ui';
import { BarElement, CategoryScale, Chart as ChartJS, LinearScale, Tooltip } from 'chart.js';
import type { ChartOptions } from 'chart.js';
import { useMemo, useState } from 'react';
import { Bar } from 'react-chartjs-2';
import { FigureTable, ListFrame } from '../components/ReportLists';
import {
  cssVar,
  PlainTh,
  pointerOnHover,
  ReportPage,
  ReportFrame,
  Sparkline,
  Tile,
} from '../components/ReportParts';
import type { ClockProps } from '../components/ReportParts';
import { byShiftRequest, offersMatrix, parseByShift } from '../oee/report';
import type { ByShift, ListKind, OeeSelection } from '../oee/report';
import {
  dataOf,
  useMachineGroups,
  useReportCall,
  useReportLists,
  useShiftFilteredReport,
} from '../reports/hooks';
import type { CallCache, ReportCall, ReportListProps } from '../reports/hooks';
import { nextSort } from '../reports/shared';
import type { LZ } from '../reports/shared';
import {
  chartValue,
  DEFAULT_UTILIZATION_HORIZON,
  intervalLabel,
  isEmpty,
  parseUtilization,
  parseUtilizationProduction,
  pct,
  reportTitle,
  sortUtilizationList,
  UTIL_LIST_COLUMNS,
  UTILIZATION_HORIZONS,
  utilizationListRequest,
  utilizationListRows,
  utilizationQuery,
} from './report';
import type { UtilizationAnswer, UtilizationProduction, UtilListMetric, UtilListSort } from './report';
import { CHART_BASE } from '../reports/charts';

ChartJS.register(BarElement, CategoryScale, LinearScale, Tooltip);

const UTILIZATION = '/api/reports/utilization';
const PRODUCTION = '/api/reports/warehouse/production';
const BY_SHIFT = '/api/oee/byabstractshift';

const utilizationCall = (s: OeeSelection): ReportCall<UtilizationAnswer> => ({
  path: UTILIZATION,
  query: utilizationQuery(s),
  parse: parseUtilization,
});
const listCall = (s: OeeSelection, kind: ListKind, overTime: boolean): ReportCall<UtilizationProduction> => ({
  path: PRODUCTION,
  method: 'POST',
  body: utilizationListRequest(s, kind, overTime),
  parse: parseUtilizationProduction,
});
/** Per-shift In-Cycle matrices (reports-admin §7: efficiencyMetric 'inCycle'). */
const byShiftCall = (s: OeeSelection): ReportCall<ByShift> => ({
  path: BY_SHIFT,
  method: 'POST',
  body: byShiftRequest(s, 'inCycle', s.range.interval),
  parse: parseByShift,
});
const UTIL_TITLE: Record<UtilListMetric, string> = {
  inCycle: tr('utilization.inCycle'),
  spindleRotating: tr('utilization.spindleRotating'),
  inCut: tr('utilization.inCut'),
};

/** /dashboard/utilization?group&machine&interval&start&end&quicklink (reports-admin §2 Utilization report). */
export function UtilizationReportPage() {
  return <ReportPage title={tr('reports.utilization')} report={UtilizationReport} />;
}

function UtilizationReport({ clock, offsetMs }: ClockProps) {
  // reports-admin §9: the last utilization horizon is remembered per company; reports-admin §2 "Same layout"
  // as the OEE report: the shift filter too (decision 0801).
  const { frame, results, answer } = useShiftFilteredReport(
    { clock, offsetMs, horizonPreference: 'utilizationHorizon', defaultHorizon: DEFAULT_UTILIZATION_HORIZON },
    utilizationCall,
  );
  const { group, machine } = frame.report;
  const groups = useMachineGroups();

  const machineName =
    answer?.machines.find((m) => m.machineId === machine)?.machineName ??
    answer?.machineContextErrors.find((m) => m.machineId === machine)?.machineName;
  const groupName = groups.find((g) => g.id === group)?.name;
  const title = reportTitle({ group, machine }, { group: groupName, machine: machineName });

  return (
    <ReportFrame
      {...frame}
      horizons={UTILIZATION_HORIZONS}
      title={title}
      returnText={tr('utilization.returnToAll')}
      groups={groups}
      empty={answer && isEmpty(answer) ? tr('utilization.empty') : null}
      recomputing={answer?.recomputing}
    >
      {answer && results && <Results answer={answer} groupName={groupName} {...results} />}
    </ReportFrame>
  );
}

function Results({
  answer,
  selection,
  groupName,
  cache,
  lz,
  onDrillInterval,
  onDrill,
}: {
  answer: UtilizationAnswer;
  selection: OeeSelection;
  groupName: string | undefined;
  cache: CallCache;
  lz: LZ;
  onDrillInterval: (cell: { start: EpochMs; end: EpochMs }) => void;
  onDrill: (param: 'group' | 'machine', id: string) => void;
}) {
  const machine = selection.machine;
  const lists = useReportLists(selection, cache, listCall, onDrill);
  const interval = answer.interval;
  const cells = answer.machineAggregate.intervals;
  const labels = cells.map((c) => intervalLabel(c, interval, lz));
  const one = machine ? answer.machines.find((m) => m.machineId === machine) : undefined;

  const data = {
    labels,
    datasets: [
      {
        label: tr('utilization.inCycle'),
        data: cells.map((c) => chartValue(c.inCycle)),
        backgroundColor: cssVar('--chart-1', '#1f5fbf'),
      },
    ],
  };
  const options: ChartOptions<'bar'> = {
    ...CHART_BASE,
    scales: {
      // The bars say what they measure, not only the tile beside them.
      y: {
        min: 0,
        max: 100,
        ticks: { callback: (v) => `${String(v)}%` },
        title: { display: true, text: tr('utilization.inCycle') },
      },
      x: { ticks: { autoSkip: true, maxRotation: 0 } },
    },
    plugins: {
      tooltip: { callbacks: { label: (ctx) => `${tr('utilization.inCycle')}: ${String(ctx.raw ?? '-')}%` } },
    },
    // UI.md: every chart element drills down to what is behind it: a bar opens its interval.
    onClick: (_e, elements) => {
      const cell = elements[0] ? cells[elements[0].index] : undefined;
      if (cell) onDrillInterval({ start: cell.start as EpochMs, end: cell.end as EpochMs });
    },
    onHover: pointerOnHover(),
  };

  const inCycle = pct(one ? one.inCycle : answer.machineAggregate.inCycle);
  const groupHeading =
    selection.group && !machine && groupName
      ? tr('utilization.groupHeading', { name: groupName, value: inCycle })
      : null;

  return (
    <>
      {/* reports-admin §2: a group shows its In-Cycle percentage in the panel heading (outside the grid). */}
      {groupHeading && (
        <h2 id="summary-heading" className="report__panel-heading">
          {groupHeading}
        </h2>
      )}
      <section
        className="report__summary"
        {...(groupHeading
          ? { 'aria-labelledby': 'summary-heading' }
          : { 'aria-label': tr('utilization.inCycle') })}
      >
        <div className="tiles">
          <Tile label={tr('utilization.inCycle')} value={inCycle} />
          {one && <Tile label={tr('utilization.spindleRotating')} value={pct(one.spindleRotating)} />}
          {one && <Tile label={tr('utilization.inCut')} value={pct(one.inCut)} />}
        </div>
        <figure className="report__chart">
          <div className="report__chart-box">
            <Bar data={data} options={options} aria-label={tr('utilization.chartLabel')} role="img" />
          </div>
          <figcaption className="visually-hidden">{tr('utilization.chartLabel')}</figcaption>
        </figure>
      </section>

      {lists.map((list) => (
        <ListSection key={list.kind} {...list} />
      ))}

      <section className="report__list" aria-labelledby="intervals-heading">
        <h2 id="intervals-heading">{tr('utilization.byInterval')}</h2>
        <div className="table-wrap table-wrap--narrow">
          <table className="table">
            <thead>
              <tr>
                <PlainTh label={tr('utilization.date')} />
                <PlainTh label={tr('utilization.inCycle')} className="num-col" />
              </tr>
            </thead>
            <tbody>
              {cells.map((c, i) => (
                <tr key={c.start}>
                  <th scope="row">{labels[i]}</th>
                  <td className="num-col num">{pct(c.inCycle)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

type ListView = 'summary' | 'inCycle';
const rowHint = (name: string) => tr('utilization.machineRowHint', { name });

/** One list (Shifts, Machine Groups, Machines) as on the OEE report, with In-Cycle by Shift as its matrix. */
function ListSection(props: ReportListProps<UtilizationProduction>) {
  const { kind, figures, overTime, selection, cache, onDrill } = props;
  const data = dataOf(figures);
  const rows = useMemo(() => (data ? utilizationListRows(kind, data, overTime) : []), [kind, data, overTime]);
  const [view, setView] = useState<ListView>('summary');
  const [sort, setSort] = useState<UtilListSort>({ key: 'name', direction: 'ascending' });
  const sorted = useMemo(() => sortUtilizationList(rows, sort), [rows, sort]);
  const matrixOffered = offersMatrix(kind, rows.length);
  const shown: ListView = matrixOffered ? view : 'summary';
  const byShift = useReportCall(
    shown === 'inCycle' && kind !== 'shift' ? byShiftCall(selection) : null,
    cache,
  );
  // Spindle-Rotating and In-Cut exist only per machine: elsewhere the columns show '-' and do not sort.
  const columns = UTIL_LIST_COLUMNS.map((c) => ({
    key: c,
    label: UTIL_TITLE[c],
    sortable: kind === 'machine' || c === 'inCycle',
  }));

  return (
    <ListFrame
      {...props}
      views={
        matrixOffered
          ? [
              { value: 'summary', label: tr('oee.view.summary') },
              { value: 'inCycle', label: tr('oee.view.matrix', { metric: tr('utilization.inCycle') }) },
            ]
          : null
      }
      view={shown}
      onView={setView}
      byShift={byShift}
      rowHint={rowHint}
    >
      <FigureTable
        columns={columns}
        sort={sort}
        onSort={(key) => setSort((s) => nextSort(s, key as UtilListSort['key']))}
        rows={sorted}
        cells={(r) => UTIL_LIST_COLUMNS.map((c) => pct(r.figures[c]))}
        trailing={{ label: tr('utilization.overTime'), cell: (r) => <Sparkline values={r.overTime} /> }}
        onDrill={onDrill}
        rowHint={rowHint}
      />
    </ListFrame>
  );
}
