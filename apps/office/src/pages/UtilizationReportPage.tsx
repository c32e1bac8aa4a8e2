import type { CompanyClock, EpochMs } from '@takt/domain';
import {
  ApiError,
  browserStorage,
  DateRangePicker,
  downloadText,
  GroupSelect,
  parseDashboardResponse,
  Progress,
  readPreferences,
  readRangeParams,
  t,
  tr,
  useDebounced,
  writePreferences,
  writeRangeParams,
} from '@takt/ui';
import type { AppliedRange } from '@takt/ui';
import { BarElement, CategoryScale, Chart as ChartJS, LinearScale, Tooltip } from 'chart.js';
import type { ChartOptions } from 'chart.js';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Bar } from 'react-chartjs-2';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api';
import { useCompanyClock, useMinuteNow } from '../company-clock';
import { PATHS } from '../routes';
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
  const { me } = useSession();
  const clockState = useCompanyClock(me);
  useEffect(() => {
    document.title = `${tr('reports.utilization')} · ${t('app.officeName')}`;
  }, []);
  if (clockState.kind === 'loading')
    return (
      <main className="page">
        <Progress />
      </main>
    );
  if (clockState.kind === 'failed')
    return (
      <main className="page">
        <p className="notice notice--error" role="alert">
          {tr('reports.requestError')}
        </p>
      </main>
    );
  return <UtilizationReport clock={clockState.clock} offsetMs={clockState.offsetMs} />;
}

function UtilizationReport({ clock, offsetMs }: { clock: CompanyClock; offsetMs: number }) {
  const { me } = useSession();
  const lz = localeZone(me);
  const now = useMinuteNow(offsetMs);
  const [query, setQuery] = useSearchParams();
  const search = query.toString();
  const group = query.get('group');
  const machine = query.get('machine');

  // reports-admin §9: the last utilization horizon is remembered per company.
  const storedHorizon = useMemo(
    () => readPreferences(browserStorage(), me.company.id).utilizationHorizon,
    [me.company.id],
  );
  const defaultInterval =
    storedHorizon && UTILIZATION_HORIZONS.includes(storedHorizon)
      ? storedHorizon
      : DEFAULT_UTILIZATION_HORIZON;
  const applied = useMemo(
    () =>
      readRangeParams(new URLSearchParams(search), clock, now, {
        interval: defaultInterval,
        allowed: UTILIZATION_HORIZONS,
      }),
    [search, clock, now, defaultInterval],
  );

  const selection = useMemo(() => ({ range: applied, group, machine }), [applied, group, machine]);
  const apiQuery = useMemo(() => utilizationQuery(selection), [selection]);
  const key = JSON.stringify(apiQuery);
  // reports-admin §9: re-queries wait 500 ms after the last change.
  const settled = useDebounced({ apiQuery, key }, key);

  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [stale, setStale] = useState(false);
  const [groups, setGroups] = useState<{ id: string; name: string }[]>([]);

  useEffect(() => {
    const controller = new AbortController();
    api
      .request('/api/dashboard', { signal: controller.signal, parse: parseDashboardResponse })
      .then((d) => setGroups(d.groups))
      .catch(() => {
        // The group names only label the title and the filter; the report works without them.
      });
    return () => controller.abort();
  }, []);

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

  const setParams = useCallback(
    (change: (q: URLSearchParams) => URLSearchParams, replace = false) =>
      setQuery((q) => change(new URLSearchParams(q)), { replace }),
    [setQuery],
  );

  // The server may answer another interval or range than asked: adopt it, in the URL too.
  const answer = load.kind === 'ready' ? load.answer : null;
  useEffect(() => {
    if (!answer || load.kind !== 'ready' || load.key !== key) return;
    const adopted = adoptedRange(applied, answer);
    if (adopted) setParams((q) => writeRangeParams(q, adopted), true);
  }, [answer, load, key, applied, setParams]);

  const apply = (r: AppliedRange) => {
    writePreferences(browserStorage(), me.company.id, { utilizationHorizon: r.interval });
    setParams((q) => writeRangeParams(q, r));
  };
  const drillTo = (param: 'group' | 'machine', id: string | null) => {
    setParams((q) => {
      if (param === 'group') q.delete('machine');
      if (id) q.set(param, id);
      else q.delete(param);
      return q;
    });
    // A drill-down is a new report: start reading it from its title.
    globalThis.scrollTo?.({ top: 0 });
  };
  const returnToAll = () =>
    setParams((q) => {
      q.delete('group');
      q.delete('machine');
      return q;
    });

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
      <p className="report__back">
        <Link to={PATHS.reports}>← {tr('reports.backToReports')}</Link>
      </p>
      <div className="page__head">
        <h1 id="report-heading">{title}</h1>
        {(group || machine) && (
          <button type="button" className="link-button" onClick={returnToAll}>
            {tr('utilization.returnToAll')}
          </button>
        )}
      </div>
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
        {!machine && <GroupSelect groups={groups} value={group} onChange={(g) => drillTo('group', g)} />}
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
            onDrillMachine={(id) => drillTo('machine', id)}
          />
        )}
      </div>
    </main>
  );
}

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
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
                {MACHINE_COLUMNS.map((c) => {
                  const active = sort.key === c;
                  return (
                    <th
                      key={c}
                      scope="col"
                      aria-sort={active ? sort.direction : 'none'}
                      className={c === 'name' ? undefined : 'num-col'}
                    >
                      <button
                        type="button"
                        className="th-button"
                        onClick={() => setSort((s) => nextMachineSort(s, c))}
                      >
                        {COLUMN_TITLE[c]}
                        <span aria-hidden="true">
                          {active ? (sort.direction === 'ascending' ? ' ▲' : ' ▼') : ''}
                        </span>
                      </button>
                    </th>
                  );
                })}
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

function Tile({ label, value }: { label: string; value: string }) {
  return (
    <div className="tile">
      <span className="tile__label">{label}</span>
      <span className="tile__value num">{value}</span>
    </div>
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

/** In-cycle per interval as a small line; gaps where there is no time. */
function Sparkline({ values }: { values: (number | null)[] }) {
  const w = 120;
  const h = 28;
  const step = values.length > 1 ? w / (values.length - 1) : 0;
  const segments: string[] = [];
  let current = '';
  values.forEach((v, i) => {
    if (v == null) {
      if (current) segments.push(current);
      current = '';
      return;
    }
    const x = (values.length > 1 ? i * step : w / 2).toFixed(1);
    const y = (h - 2 - (v / 100) * (h - 4)).toFixed(1);
    current += `${current ? ' L' : 'M'}${x} ${y}`;
  });
  if (current) segments.push(current);
  return (
    <svg
      className="sparkline"
      width={w}
      height={h}
      viewBox={`0 0 ${w} ${h}`}
      aria-hidden="true"
      focusable="false"
    >
      <line x1="0" x2={w} y1={h - 2} y2={h - 2} className="sparkline__base" />
      {segments.map((d) => (
        <path key={d} d={d} className="sparkline__line" />
      ))}
    </svg>
  );
}
