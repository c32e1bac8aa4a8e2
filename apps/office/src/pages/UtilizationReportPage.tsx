import type { CompanyClock, EpochMs } from '@takt/domain';
import { Progress, tr, useDebounced, useUserToken } from '@takt/ui';
import { BarElement, CategoryScale, Chart as ChartJS, LinearScale, Tooltip } from 'chart.js';
import type { ChartOptions } from 'chart.js';
import { useId, useMemo, useState } from 'react';
import { Bar } from 'react-chartjs-2';
import { api } from '../api';
import { FigureTable, MatrixTable } from '../components/ReportLists';
import {
  CsvLink,
  cssVar,
  ErrorBox,
  PlainTh,
  pointerOnHover,
  ReportClockGate,
  ReportFrame,
  Sparkline,
  Tile,
} from '../components/ReportParts';
import { byShiftRequest, csvHref, LIST_TITLE, offersMatrix, parseByShift, visibleLists } from '../oee/report';
import type { ByShift, ListKind, OeeSelection } from '../oee/report';
import {
  dataOf,
  newCallCache,
  useAdoptedRange,
  useMachineGroups,
  useReportCall,
  useReportPage,
  useShiftSelection,
} from '../reports/hooks';
import type { CallCache, CallState, ReportCall } from '../reports/hooks';
import { nextSort } from '../reports/shared';
import {
  chartValue,
  DEFAULT_UTILIZATION_HORIZON,
  drillInterval,
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
} from '../utilization/report';
import type {
  UtilizationAnswer,
  UtilizationProduction,
  UtilListMetric,
  UtilListSort,
} from '../utilization/report';

ChartJS.register(BarElement, CategoryScale, LinearScale, Tooltip);

const UTILIZATION = '/api/reports/utilization';
const PRODUCTION = '/api/reports/warehouse/production';
const BY_SHIFT = '/api/oee/byabstractshift';

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
  return (
    <ReportClockGate title={tr('reports.utilization')}>
      {(clock, offsetMs) => <UtilizationReport clock={clock} offsetMs={offsetMs} />}
    </ReportClockGate>
  );
}

function UtilizationReport({ clock, offsetMs }: { clock: CompanyClock; offsetMs: number }) {
  // reports-admin §9: the last utilization horizon is remembered per company.
  const report = useReportPage({
    clock,
    offsetMs,
    horizonPreference: 'utilizationHorizon',
    defaultHorizon: DEFAULT_UTILIZATION_HORIZON,
  });
  const { applied, apply, setParams, lz, group, machine, openDrill } = report;
  const groups = useMachineGroups();
  // reports-admin §2 "Same layout" as the OEE report: the shift filter too (decision 0801).
  const shiftFilter = useShiftSelection();
  const shifts = shiftFilter.filter;

  const selection: OeeSelection | null = useMemo(
    () => (shifts ? { range: applied, group, machine, shifts } : null),
    [applied, group, machine, shifts],
  );
  const key = JSON.stringify(selection);
  // reports-admin §9: re-queries wait 500 ms after the last change.
  const settled = useDebounced(selection, key);
  const settledKey = JSON.stringify(settled);
  // One cache per settled selection: the summary, the lists and the matrices share their answers.
  const cache = useMemo(() => newCallCache(settledKey), [settledKey]);
  const load = useReportCall(
    settled ? { path: UTILIZATION, query: utilizationQuery(settled), parse: parseUtilization } : null,
    cache,
  );
  const answer = dataOf(load);
  const fresh = load.kind === 'ready' && settled != null && settledKey === key;
  useAdoptedRange(fresh ? answer : null, applied, setParams);

  const machineName =
    answer?.machines.find((m) => m.machineId === machine)?.machineName ??
    answer?.machineContextErrors.find((m) => m.machineId === machine)?.machineName;
  const groupName = groups.find((g) => g.id === group)?.name;
  const title = reportTitle({ group, machine }, { group: groupName, machine: machineName });

  return (
    <ReportFrame
      report={report}
      horizons={UTILIZATION_HORIZONS}
      title={title}
      returnText={tr('utilization.returnToAll')}
      groups={groups}
      shifts={shiftFilter}
      loading={!fresh}
      error={load.kind === 'error' ? load.message : null}
      empty={answer && isEmpty(answer) ? tr('utilization.empty') : null}
    >
      {answer && settled && (
        <Results
          answer={answer}
          selection={settled}
          groupName={groupName}
          cache={cache}
          lz={lz}
          onDrillInterval={(c) => apply(drillInterval(c, answer.interval))}
          onDrill={openDrill}
        />
      )}
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
  lz: { locale: string; timeZone: string };
  onDrillInterval: (cell: { start: EpochMs; end: EpochMs }) => void;
  onDrill: (param: 'group' | 'machine', id: string) => void;
}) {
  const machine = selection.machine;
  const token = useUserToken(api);
  const drilledOut = Boolean(selection.group || selection.machine);
  const lists = {
    shift: useReportCall(listCall(selection, 'shift', false), cache),
    machineGroup: useReportCall(drilledOut ? null : listCall(selection, 'machineGroup', false), cache),
    machine: useReportCall(listCall(selection, 'machine', false), cache),
  };
  const overTime = {
    shift: useReportCall(listCall(selection, 'shift', true), cache),
    machineGroup: useReportCall(drilledOut ? null : listCall(selection, 'machineGroup', true), cache),
    machine: useReportCall(listCall(selection, 'machine', true), cache),
  };
  const hasData = (k: ListKind) => (dataOf(lists[k])?.items.length ?? 0) > 0;
  const visible = visibleLists(selection, {
    shift: hasData('shift'),
    machineGroup: hasData('machineGroup'),
    machine: true,
  });
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
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
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

      {visible.map((kind) => (
        <ListSection
          key={kind}
          kind={kind}
          figures={lists[kind]}
          overTime={dataOf(overTime[kind])}
          selection={selection}
          cache={cache}
          token={token}
          onDrill={kind === 'shift' ? null : (id) => onDrill(kind === 'machine' ? 'machine' : 'group', id)}
        />
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
function ListSection({
  kind,
  figures,
  overTime,
  selection,
  cache,
  token,
  onDrill,
}: {
  kind: ListKind;
  figures: CallState<UtilizationProduction>;
  overTime: UtilizationProduction | null;
  selection: OeeSelection;
  cache: CallCache;
  token: string | null;
  onDrill: ((id: string) => void) | null;
}) {
  const id = useId();
  const headingId = `${id}-heading`;
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
  const b = dataOf(byShift);
  // Spindle-Rotating and In-Cut exist only per machine: elsewhere the columns show '-' and do not sort.
  const columns = UTIL_LIST_COLUMNS.map((c) => ({
    key: c,
    label: UTIL_TITLE[c],
    sortable: kind === 'machine' || c === 'inCycle',
  }));

  return (
    <section
      className="report__list"
      aria-labelledby={headingId}
      aria-busy={figures.kind === 'loading' || byShift.kind === 'loading' || undefined}
    >
      <div className="page__head">
        <h2 id={headingId}>{tr(LIST_TITLE[kind])}</h2>
        <div className="page__tools">
          {matrixOffered && (
            <div className="field field--inline">
              <label htmlFor={`${id}-view`}>{tr('oee.listView')}</label>
              <select id={`${id}-view`} value={shown} onChange={(e) => setView(e.target.value as ListView)}>
                <option value="summary">{tr('oee.view.summary')}</option>
                <option value="inCycle">
                  {tr('oee.view.matrix', { metric: tr('utilization.inCycle') })}
                </option>
              </select>
            </div>
          )}
          <CsvLink href={csvHref(data?.csv?.url, token)} />
        </div>
      </div>
      {figures.kind === 'error' && <ErrorBox message={figures.message} />}
      {!data && figures.kind !== 'error' && <Progress />}
      {data && shown === 'summary' && (
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
      )}
      {data && shown === 'inCycle' && kind !== 'shift' && (
        <>
          {byShift.kind === 'error' && <ErrorBox message={byShift.message} />}
          {byShift.kind !== 'error' && !b && <Progress />}
          {b && <MatrixTable kind={kind} byShift={b} onDrill={onDrill} rowHint={rowHint} />}
        </>
      )}
    </section>
  );
}
