import type { CompanyClock } from '@takt/domain';
import { tr, useDebounced, useUserToken } from '@takt/ui';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import type { ChartData, ChartOptions } from 'chart.js';
import { useId, useMemo } from 'react';
import { Bar, Chart } from 'react-chartjs-2';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api';
import {
  CsvLink,
  cssVar,
  PlainTh,
  pointerOnHover,
  ReportClockGate,
  ReportFrame,
  Tile,
} from '../components/ReportParts';
import {
  companyDowntimeHref,
  DEFAULT_DOWNTIME_HORIZON,
  DOWNTIME_HORIZONS,
  DOWNTIME_MAX_DAYS,
  downtimeCsvHref,
  downtimeErrorText,
  downtimeQuery,
  gridRows,
  KIND_KEYS,
  machineDowntimeHref,
  minutes,
  paretoBars,
  parseDowntime,
  readKinds,
  readReason,
  stackedByMachine,
  totalMinutes,
  writeKinds,
  writeReason,
} from '../downtime/report';
import type { DowntimeAnswer, DowntimeSelection, Kinds, ParetoBar } from '../downtime/report';
import {
  dataOf,
  newCallCache,
  useMachineNames,
  useReportCall,
  useReportPage,
  useShiftSelection,
} from '../reports/hooks';
import type { ReportCall } from '../reports/hooks';
import { wrapLabel } from '../oee/report';

ChartJS.register(
  BarController,
  BarElement,
  CategoryScale,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

type LZ = { locale: string; timeZone: string };

const downtimeCall = (s: DowntimeSelection): ReportCall<DowntimeAnswer> => ({
  path: '/api/reports/downtime',
  query: downtimeQuery(s),
  parse: parseDowntime,
  errorText: downtimeErrorText,
});

/** The nine chart colours (reports-admin §9), one per reason in pareto order, the same in both charts. */
const colorAt = (i: number): string => cssVar(`--chart-${String((i % 9) + 1)}`, '#1f5fbf');
/** A colour with an alpha, for the reasons not drilled into. */
const faded = (color: string): string => (/^#[0-9a-f]{6}$/i.test(color) ? `${color}55` : color);

/** A stop's start on the company clock, to the minute: seconds only add noise to a list of stops. */
const startFormat = (lz: LZ) =>
  new Intl.DateTimeFormat(lz.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: lz.timeZone,
  });

/**
 * /dashboard/downtime?group&interval&start&end&reason&hide (the company Downtime report) and
 * /machine/{id}/downtime?start&end (one machine's), reports-admin §2; decision 0805.
 */
export function DowntimeReportPage() {
  return (
    <ReportClockGate title={tr('reports.downtime')}>
      {(clock, offsetMs) => <DowntimeReport clock={clock} offsetMs={offsetMs} />}
    </ReportClockGate>
  );
}

function DowntimeReport({ clock, offsetMs }: { clock: CompanyClock; offsetMs: number }) {
  const { id: machineId = null } = useParams();
  const page = useReportPage({
    clock,
    offsetMs,
    horizonPreference: null,
    defaultHorizon: DEFAULT_DOWNTIME_HORIZON,
    horizons: DOWNTIME_HORIZONS,
  });
  const navigate = useNavigate();
  // The machine of /machine/{id}/downtime is in the path, not in the query the OEE and utilization use.
  const report = machineId ? { ...page, machine: machineId, group: null } : page;
  const { applied, setParams, lz, query, group } = report;
  const names = useMachineNames();
  const shiftFilter = useShiftSelection();
  const kinds = readKinds(query);
  const reason = readReason(query);
  const shifts = shiftFilter.filter;
  const kindsKey = JSON.stringify(kinds);

  const selection: DowntimeSelection | null = useMemo(
    () =>
      shifts
        ? { range: applied, group, machine: machineId, shifts, kinds: JSON.parse(kindsKey) as Kinds }
        : null,
    [applied, group, machineId, shifts, kindsKey],
  );
  const key = JSON.stringify(selection);
  // reports-admin §9: re-queries wait 500 ms after the last change (shift and kind toggles in a row).
  const settled = useDebounced(selection, key);
  const settledKey = JSON.stringify(settled);
  const cache = useMemo(() => newCallCache(settledKey), [settledKey]);
  const call = useReportCall(settled ? downtimeCall(settled) : null, cache);
  const answer = dataOf(call);
  const fresh = call.kind === 'ready' && key === settledKey;

  const machineName = machineId
    ? (names.machines.find((m) => m.id === machineId)?.name ??
      answer?.byMachine.find((m) => m.machineId === machineId)?.machine ??
      '…')
    : null;
  const subject = machineId
    ? machineName!
    : group
      ? (names.groups.find((g) => g.id === group)?.name ?? '…')
      : tr('downtimeReport.allMachines');
  const allKinds = KIND_KEYS.every((k) => kinds[k]);
  const empty =
    answer && answer.summary.count === 0
      ? allKinds
        ? tr('downtimeReport.empty')
        : tr('downtimeReport.emptyFiltered')
      : null;

  return (
    <ReportFrame
      report={report}
      horizons={DOWNTIME_HORIZONS}
      maxDays={DOWNTIME_MAX_DAYS}
      title={tr('downtimeReport.title', { name: subject })}
      returnText={tr('downtimeReport.returnToAll')}
      // A machine's page goes back to the company report with the same dates; a group clears the group.
      {...(machineId ? { onReturn: () => void navigate(companyDowntimeHref(query.toString())) } : {})}
      groups={names.groups}
      shifts={shiftFilter}
      loading={!fresh}
      error={call.kind === 'error' ? call.message : null}
      empty={empty}
      tools={<KindFilter kinds={kinds} onChange={(k) => setParams((q) => writeKinds(q, k))} />}
    >
      {answer && settled && (
        <Results
          answer={answer}
          selection={settled}
          reason={reason}
          lz={lz}
          onReason={(r) => setParams((q) => writeReason(q, r))}
          onMachine={(id) => void navigate(machineDowntimeHref(id, settled.range, reason))}
        />
      )}
    </ReportFrame>
  );
}

/** GET /api/reports/downtime showPlanned, showUnplanned, showUncategorized (reports-admin §7). */
function KindFilter({ kinds, onChange }: { kinds: Kinds; onChange: (k: Kinds) => void }) {
  const id = useId();
  return (
    <fieldset className="shift-filter">
      <legend>{tr('downtimeReport.kinds')}</legend>
      {KIND_KEYS.map((k) => (
        <label key={k} className="shift-filter__option" htmlFor={`${id}-${k}`}>
          <input
            id={`${id}-${k}`}
            type="checkbox"
            checked={kinds[k]}
            onChange={() => onChange({ ...kinds, [k]: !kinds[k] })}
          />
          {tr(`downtimeReport.kind.${k}`)}
        </label>
      ))}
    </fieldset>
  );
}

function Results({
  answer,
  selection,
  reason,
  lz,
  onReason,
  onMachine,
}: {
  answer: DowntimeAnswer;
  selection: DowntimeSelection;
  reason: string | null;
  lz: LZ;
  onReason: (reason: string | null) => void;
  onMachine: (id: string) => void;
}) {
  const bars = useMemo(() => paretoBars(answer), [answer]);
  const picked = reason ? (bars.find((b) => b.key === reason) ?? null) : null;
  const s = answer.summary;
  return (
    <>
      <section
        className="report__summary report__summary--oee"
        aria-label={tr('downtimeReport.summaryLabel')}
      >
        <div className="tiles tiles--wrap">
          <Tile label={tr('downtimeReport.total')} value={minutes(s.duration)} />
          <Tile label={tr('downtimeReport.stops')} value={String(s.count)} />
          <Tile label={tr('downtimeReport.planned')} value={minutes(s.plannedDuration)} />
          <Tile label={tr('downtimeReport.unplanned')} value={minutes(s.unplannedDuration)} />
          <Tile label={tr('downtimeReport.uncategorized')} value={minutes(s.uncategorizedDuration)} />
        </div>
      </section>
      <Pareto bars={bars} reason={reason} onReason={onReason} />
      {!selection.machine && <ByMachine answer={answer} bars={bars} reason={reason} onMachine={onMachine} />}
      <Grid
        answer={answer}
        selection={selection}
        reason={reason}
        picked={picked}
        lz={lz}
        onReason={onReason}
      />
    </>
  );
}

// ---- Pareto by reason, with drill-down

function Pareto({
  bars,
  reason,
  onReason,
}: {
  bars: ParetoBar[];
  reason: string | null;
  onReason: (reason: string | null) => void;
}) {
  const colors = bars.map((b, i) => (reason && b.key !== reason ? faded(colorAt(i)) : colorAt(i)));
  const data: ChartData<'bar' | 'line', number[], string | string[]> = {
    labels: bars.map((b) => wrapLabel(b.name, 16)),
    datasets: [
      {
        type: 'bar' as const,
        label: tr('downtimeReport.minutesAxis'),
        data: bars.map((b) => b.minutes),
        backgroundColor: colors,
        yAxisID: 'y',
        order: 2,
        // One or two reasons must not become a wall of colour.
        maxBarThickness: 120,
      },
      {
        type: 'line' as const,
        label: tr('downtimeReport.cumulative'),
        data: bars.map((b) => b.cumulative),
        borderColor: cssVar('--text', '#1a1a1a'),
        backgroundColor: cssVar('--text', '#1a1a1a'),
        pointRadius: 3,
        borderWidth: 2,
        yAxisID: 'y1',
        order: 1,
        // The last point sits on 100 %: draw it whole at the top edge.
        clip: false,
      },
    ],
  };
  const open = (i: number | undefined) => {
    const b = i == null ? undefined : bars[i];
    if (b) onReason(b.key === reason ? null : b.key);
  };
  const options: ChartOptions<'bar' | 'line'> = {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    // A click anywhere over a reason's column opens it, not only on the bar (short bars are small targets).
    interaction: { mode: 'index', intersect: false, axis: 'x' },
    layout: { padding: { top: 8 } },
    scales: {
      x: { ticks: { autoSkip: false, maxRotation: 0 } },
      y: { beginAtZero: true, title: { display: true, text: tr('downtimeReport.minutesAxis') } },
      y1: {
        position: 'right',
        min: 0,
        max: 100,
        grid: { drawOnChartArea: false },
        ticks: { callback: (v) => `${String(v)}%` },
      },
    },
    plugins: {
      legend: { position: 'bottom', labels: { boxWidth: 12 } },
      tooltip: {
        callbacks: {
          label: (ctx) =>
            ctx.datasetIndex === 0
              ? tr('downtimeReport.minutesValue', { minutes: minutes(Number(ctx.raw) * 60_000) })
              : `${tr('downtimeReport.cumulative')}: ${String(ctx.raw)}%`,
        },
      },
    },
    onClick: (_e, elements) => open(elements[0]?.index),
    onHover: pointerOnHover(),
  };
  return (
    <section className="report__list" aria-labelledby="pareto-heading">
      <h2 id="pareto-heading">{tr('downtimeReport.byReason')}</h2>
      <p className="report__intro">{tr('downtimeReport.byReasonIntro')}</p>
      <div className="report__losses-body">
        <figure className="report__chart">
          <div className="report__chart-box">
            <Chart
              type="bar"
              data={data}
              options={options}
              aria-label={tr('downtimeReport.paretoLabel')}
              role="img"
            />
          </div>
          <figcaption className="visually-hidden">{tr('downtimeReport.paretoLabel')}</figcaption>
        </figure>
        {/* The same figures as a table: readable, and the drill-down by keyboard. */}
        <div className="table-wrap">
          <table className="table table--fit" aria-label={tr('downtimeReport.byReason')}>
            <thead>
              <tr>
                <PlainTh label={tr('downtimeReport.reasonRow')} />
                <PlainTh label={tr('downtimeReport.reasonMinutes')} className="num-col" />
                <PlainTh label={tr('downtimeReport.reasonCount')} className="num-col" />
                <PlainTh label={tr('downtimeReport.reasonShare')} className="num-col hide-narrow" />
              </tr>
            </thead>
            <tbody>
              {bars.map((b, i) => (
                <tr key={b.key} className={b.key === reason ? 'row--link row--selected' : 'row--link'}>
                  <th scope="row">
                    <span className="reason-cell">
                      <span className="swatch" style={{ background: colorAt(i) }} aria-hidden="true" />
                      <button
                        type="button"
                        className="link-button"
                        aria-pressed={b.key === reason}
                        title={tr('downtimeReport.openReason', { reason: b.name })}
                        onClick={() => open(i)}
                      >
                        {b.name}
                      </button>
                    </span>
                  </th>
                  <td className="num-col num">{b.minutes.toFixed(2)}</td>
                  <td className="num-col num">{b.count}</td>
                  <td className="num-col num hide-narrow">{`${b.cumulative.toFixed(1)}%`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

// ---- Stacked by machine

function ByMachine({
  answer,
  bars,
  reason,
  onMachine,
}: {
  answer: DowntimeAnswer;
  bars: ParetoBar[];
  reason: string | null;
  onMachine: (id: string) => void;
}) {
  const chart = useMemo(() => stackedByMachine(answer, reason), [answer, reason]);
  if (chart.machines.length === 0) return null;
  const colorOf = (key: string) =>
    colorAt(
      Math.max(
        0,
        bars.findIndex((b) => b.key === key),
      ),
    );
  const data = {
    labels: chart.machines.map((m) => wrapLabel(m.name, 20)),
    datasets: chart.series.map((s) => ({
      label: s.name,
      data: s.values,
      backgroundColor: colorOf(s.key),
      barPercentage: 0.8,
      maxBarThickness: 36,
    })),
  };
  const options: ChartOptions<'bar'> = {
    indexAxis: 'y',
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    // A click anywhere on a machine's row opens it.
    interaction: { mode: 'index', intersect: false, axis: 'y' },
    scales: {
      x: {
        stacked: true,
        beginAtZero: true,
        title: { display: true, text: tr('downtimeReport.minutesAxis') },
      },
      y: { stacked: true, ticks: { autoSkip: false } },
    },
    plugins: {
      legend: { position: 'bottom', labels: { boxWidth: 12 } },
      tooltip: {
        filter: (item) => Number(item.raw) > 0,
        callbacks: {
          label: (ctx) =>
            `${ctx.dataset.label ?? ''}: ${tr('downtimeReport.minutesValue', { minutes: minutes(Number(ctx.raw) * 60_000) })}`,
        },
      },
    },
    onClick: (_e, elements) => {
      const m = elements[0] ? chart.machines[elements[0].index] : undefined;
      if (m) onMachine(m.id);
    },
    onHover: pointerOnHover(),
  };
  return (
    <section className="report__list" aria-labelledby="by-machine-heading">
      <h2 id="by-machine-heading">{tr('downtimeReport.byMachine')}</h2>
      <p className="report__intro">{tr('downtimeReport.byMachineIntro')}</p>
      <figure className="report__chart">
        <div
          className="report__chart-box"
          style={{
            height: `${String(90 + chart.machines.length * 40 + Math.ceil(chart.series.length / 3) * 20)}px`,
          }}
        >
          <Bar data={data} options={options} aria-label={tr('downtimeReport.byMachineLabel')} role="img" />
        </div>
        <figcaption className="visually-hidden">{tr('downtimeReport.byMachineLabel')}</figcaption>
      </figure>
    </section>
  );
}

// ---- The grid

function Grid({
  answer,
  selection,
  reason,
  picked,
  lz,
  onReason,
}: {
  answer: DowntimeAnswer;
  selection: DowntimeSelection;
  reason: string | null;
  picked: ParetoBar | null;
  lz: LZ;
  onReason: (reason: string | null) => void;
}) {
  const token = useUserToken(api);
  const items = useMemo(() => answer.items ?? [], [answer]);
  const rows = useMemo(() => gridRows(items, reason), [items, reason]);
  const heading = picked
    ? tr('downtimeReport.stopsFor', { reason: picked.name })
    : tr('downtimeReport.stops.title');
  return (
    <section className="report__list" aria-labelledby="grid-heading">
      <div className="page__head">
        <h2 id="grid-heading">{heading}</h2>
        <div className="page__tools">
          {reason && (
            <button type="button" className="button" onClick={() => onReason(null)}>
              {tr('downtimeReport.allReasons')}
            </button>
          )}
          <CsvLink href={downtimeCsvHref(selection, reason, token)} filename="downtime.csv" />
        </div>
      </div>
      {rows.length === 0 ? (
        <p className="notice">{tr('downtimeReport.reasonEmpty')}</p>
      ) : (
        <>
          <p className="report__intro" role="status">
            {tr('downtimeReport.rowsTotal', { count: rows.length, minutes: totalMinutes(items, reason) })}
          </p>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <PlainTh label={tr('downtimeReport.col.start')} />
                  <PlainTh label={tr('downtimeReport.col.duration')} className="num-col" />
                  <PlainTh label={tr('downtimeReport.col.machine')} />
                  <PlainTh label={tr('downtimeReport.col.reason')} />
                  <PlainTh label={tr('downtimeReport.col.message')} />
                  <PlainTh label={tr('downtimeReport.col.planned')} />
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id}>
                    <td className="num">{startFormat(lz).format(r.start)}</td>
                    <td className="num-col num">{r.minutes}</td>
                    <td>
                      {selection.machine ? (
                        r.machine
                      ) : (
                        <Link
                          to={machineDowntimeHref(r.machineId, selection.range, reason)}
                          title={tr('downtimeReport.openMachine', { name: r.machine })}
                        >
                          {r.machine}
                        </Link>
                      )}
                    </td>
                    <td>{r.reason}</td>
                    <td>{r.message}</td>
                    <td>{r.planned}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
