import type { CompanyClock, EpochMs } from '@takt/domain';
import { downloadText, tr, useDebounced } from '@takt/ui';
import { BarElement, CategoryScale, Chart as ChartJS, LinearScale, Tooltip } from 'chart.js';
import type { ChartOptions } from 'chart.js';
import { useMemo, useState } from 'react';
import { Bar } from 'react-chartjs-2';
import {
  cssVar,
  PlainTh,
  pointerOnHover,
  ReportClockGate,
  ReportFrame,
  SortableTh,
  Sparkline,
  Tile,
} from '../components/ReportParts';
import {
  dataOf,
  newCallCache,
  useAdoptedRange,
  useMachineGroups,
  useReportCall,
  useReportPage,
  useShiftSelection,
} from '../reports/hooks';
import {
  chartValue,
  COLUMN_TITLE,
  DEFAULT_UTILIZATION_HORIZON,
  drillInterval,
  intervalLabel,
  isEmpty,
  MACHINE_COLUMNS,
  machinesCsv,
  nextMachineSort,
  parseUtilization,
  pct,
  reportTitle,
  sortMachines,
  UTILIZATION_HORIZONS,
  utilizationQuery,
} from '../utilization/report';
import type { MachineSort, UtilizationAnswer, UtilizationMachine } from '../utilization/report';

ChartJS.register(BarElement, CategoryScale, LinearScale, Tooltip);

const UTILIZATION = '/api/reports/utilization';

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

  const apiQuery = useMemo(
    () => (shifts ? utilizationQuery({ range: applied, group, machine, shifts }) : null),
    [applied, group, machine, shifts],
  );
  const key = JSON.stringify(apiQuery);
  // reports-admin §9: re-queries wait 500 ms after the last change.
  const settled = useDebounced({ apiQuery, key }, key);
  const cache = useMemo(() => newCallCache(settled.key), [settled.key]);
  const load = useReportCall(
    settled.apiQuery ? { path: UTILIZATION, query: settled.apiQuery, parse: parseUtilization } : null,
    cache,
  );
  const answer = dataOf(load);
  const fresh = load.kind === 'ready' && settled.key === key;
  useAdoptedRange(fresh ? answer : null, applied, setParams);

  const machineName =
    answer?.machines.find((m) => m.machineId === machine)?.machineName ??
    answer?.machineContextErrors.find((m) => m.machineId === machine)?.machineName;
  const title = reportTitle(
    { group, machine },
    { group: groups.find((g) => g.id === group)?.name, machine: machineName },
  );

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
      {answer && (
        <Results
          answer={answer}
          machine={machine}
          lz={lz}
          onDrillInterval={(c) => apply(drillInterval(c, answer.interval))}
          onDrillMachine={(id) => openDrill('machine', id)}
        />
      )}
    </ReportFrame>
  );
}

function Results({
  answer,
  machine,
  lz,
  onDrillInterval,
  onDrillMachine,
}: {
  answer: UtilizationAnswer;
  machine: string | null;
  lz: { locale: string; timeZone: string };
  onDrillInterval: (cell: { start: EpochMs; end: EpochMs }) => void;
  onDrillMachine: (id: string) => void;
}) {
  const interval = answer.interval;
  const cells = answer.machineAggregate.intervals;
  const labels = cells.map((c) => intervalLabel(c, interval, lz));
  const one = machine ? answer.machines.find((m) => m.machineId === machine) : undefined;
  const [sort, setSort] = useState<MachineSort>({ key: 'name', direction: 'ascending' });
  const rows = useMemo(() => sortMachines(answer.machines, sort), [answer.machines, sort]);

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

  const downloadCsv = () =>
    downloadText('utilization.csv', machinesCsv(rows, answer, { timeZone: lz.timeZone, locale: lz.locale }));

  return (
    <>
      <section className="report__summary" aria-label={tr('utilization.inCycle')}>
        <div className="tiles">
          <Tile
            label={tr('utilization.inCycle')}
            value={pct(one ? one.inCycle : answer.machineAggregate.inCycle)}
          />
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

      <section className="report__list" aria-labelledby="machines-list-heading">
        <div className="page__head">
          <h2 id="machines-list-heading">{tr('utilization.machines')}</h2>
          <button type="button" className="button" onClick={downloadCsv}>
            {tr('csv.download')}
          </button>
        </div>
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                {MACHINE_COLUMNS.map((c) => (
                  <SortableTh
                    key={c}
                    label={COLUMN_TITLE[c]}
                    active={sort.key === c}
                    direction={sort.direction}
                    numeric={c !== 'name'}
                    onSort={() => setSort((s) => nextMachineSort(s, c))}
                  />
                ))}
                <PlainTh label={tr('utilization.overTime')} className="report__spark-col" />
              </tr>
            </thead>
            <tbody>
              {rows.map((m) => (
                <MachineRow key={m.machineId} m={m} onOpen={() => onDrillMachine(m.machineId)} />
              ))}
            </tbody>
          </table>
        </div>
      </section>

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

function MachineRow({ m, onOpen }: { m: UtilizationMachine; onOpen: () => void }) {
  return (
    <tr className="row--link">
      <th scope="row">
        <button
          type="button"
          className="link-button"
          onClick={onOpen}
          title={tr('utilization.machineRowHint', { name: m.machineName })}
        >
          {m.machineName}
        </button>
      </th>
      <td className="num-col num">{pct(m.inCycle)}</td>
      <td className="num-col num">{pct(m.spindleRotating)}</td>
      <td className="num-col num">{pct(m.inCut)}</td>
      <td className="report__spark-col">
        <Sparkline values={m.intervals.map((c) => chartValue(c.inCycle))} />
      </td>
    </tr>
  );
}
