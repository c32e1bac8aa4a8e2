import type { CompanyClock, EpochMs } from '@takt/domain';
import {
  ApiError,
  DateRangePicker,
  downloadText,
  GroupSelect,
  Progress,
  tr,
  useDebounced,
  writeRangeParams,
} from '@takt/ui';
import { BarElement, CategoryScale, Chart as ChartJS, LinearScale, Tooltip } from 'chart.js';
import type { ChartOptions } from 'chart.js';
import { useEffect, useMemo, useState } from 'react';
import { Bar } from 'react-chartjs-2';
import { api } from '../api';
import {
  cssVar,
  ReportClockGate,
  ReportHeader,
  SortableTh,
  Sparkline,
  Tile,
} from '../components/ReportParts';
import { useMachineGroups, useReportRange } from '../reports/hooks';
import { drillTo, readDrillDown, returnToAll } from '../reports/shared';
import { localeZone, useSession } from '../session';
import {
  adoptedRange,
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

type Load =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; key: string; answer: UtilizationAnswer };

/** /dashboard/utilization?group&machine&interval&start&end&quicklink (reports-admin §2 Utilization report). */
export function UtilizationReportPage() {
  return (
    <ReportClockGate title={tr('reports.utilization')}>
      {(clock, offsetMs) => <UtilizationReport clock={clock} offsetMs={offsetMs} />}
    </ReportClockGate>
  );
}

function UtilizationReport({ clock, offsetMs }: { clock: CompanyClock; offsetMs: number }) {
  const { me } = useSession();
  const lz = localeZone(me);
  // reports-admin §9: the last utilization horizon is remembered per company.
  const { now, query, applied, apply, setParams } = useReportRange({
    clock,
    offsetMs,
    horizonPreference: 'utilizationHorizon',
    defaultHorizon: DEFAULT_UTILIZATION_HORIZON,
  });
  const { group, machine } = readDrillDown(query);
  const groups = useMachineGroups();

  const selection = useMemo(() => ({ range: applied, group, machine }), [applied, group, machine]);
  const apiQuery = useMemo(() => utilizationQuery(selection), [selection]);
  const key = JSON.stringify(apiQuery);
  // reports-admin §9: re-queries wait 500 ms after the last change.
  const settled = useDebounced({ apiQuery, key }, key);

  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [stale, setStale] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    setLoad((l) => (l.kind === 'ready' ? l : { kind: 'loading' }));
    api
      .request('/api/reports/utilization', {
        query: settled.apiQuery,
        signal: controller.signal,
        parse: parseUtilization,
      })
      .then((answer) => setLoad({ kind: 'ready', key: settled.key, answer }))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        // reports-admin §8: report load failure text; a validation answer says what is wrong.
        const message =
          err instanceof ApiError && err.status === 400 ? err.message : tr('reports.requestError');
        setLoad({ kind: 'error', message });
      });
    return () => controller.abort();
  }, [settled]);

  // The server may answer another interval or range than asked: adopt it, in the URL too.
  const answer = load.kind === 'ready' ? load.answer : null;
  useEffect(() => {
    if (!answer || load.kind !== 'ready' || load.key !== key) return;
    const adopted = adoptedRange(applied, answer);
    if (adopted) setParams((q) => writeRangeParams(q, adopted), true);
  }, [answer, load, key, applied, setParams]);

  const openDrill = (param: 'group' | 'machine', id: string | null) => {
    setParams((q) => drillTo(q, param, id));
    // A drill-down is a new report: start reading it from its title.
    globalThis.scrollTo?.({ top: 0 });
  };

  const machineName =
    answer?.machines.find((m) => m.machineId === machine)?.machineName ??
    answer?.machineContextErrors.find((m) => m.machineId === machine)?.machineName;
  const title = reportTitle(
    { group, machine },
    { group: groups.find((g) => g.id === group)?.name, machine: machineName },
  );
  const loadingFresh = load.kind !== 'ready' || load.key !== key;

  return (
    <main className="page report" aria-labelledby="report-heading" aria-busy={loadingFresh || undefined}>
      <ReportHeader
        title={title}
        returnText={group || machine ? tr('utilization.returnToAll') : null}
        onReturn={() => setParams(returnToAll)}
      />
      <div className="report__toolbar">
        <DateRangePicker
          clock={clock}
          now={now}
          locale={lz.locale}
          applied={applied}
          horizons={UTILIZATION_HORIZONS}
          onApply={apply}
          onStaleChange={setStale}
        />
        {!machine && <GroupSelect groups={groups} value={group} onChange={(g) => openDrill('group', g)} />}
      </div>
      {stale && (
        <p className="notice report__stale-note" role="status">
          {tr('reports.stale')}
        </p>
      )}

      <div className={stale ? 'report__body report__body--stale' : 'report__body'}>
        {loadingFresh && load.kind !== 'error' && <Progress />}
        {load.kind === 'error' && (
          <p className="notice notice--error" role="alert">
            {load.message}
          </p>
        )}
        {answer && isEmpty(answer) && <p className="notice">{tr('utilization.empty')}</p>}
        {answer && !isEmpty(answer) && (
          <Results
            answer={answer}
            machine={machine}
            lz={lz}
            onDrillInterval={(c) => apply(drillInterval(c, answer.interval))}
            onDrillMachine={(id) => openDrill('machine', id)}
          />
        )}
      </div>
    </main>
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
      y: { min: 0, max: 100, ticks: { callback: (v) => `${String(v)}%` } },
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
    onHover: (e, elements) => {
      const target = e.native?.target;
      if (target instanceof HTMLElement) target.style.cursor = elements.length ? 'pointer' : 'default';
    },
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
                <th scope="col" className="report__spark-col">
                  <span className="th-text">{tr('utilization.overTime')}</span>
                </th>
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
                <th scope="col">
                  <span className="th-text">{tr('utilization.date')}</span>
                </th>
                <th scope="col" className="num-col">
                  <span className="th-text">{tr('utilization.inCycle')}</span>
                </th>
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
