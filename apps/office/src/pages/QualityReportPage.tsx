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
import { useMemo } from 'react';
import { Bar, Chart } from 'react-chartjs-2';
import { api } from '../api';
import { reportErrorText } from '../cycles/report';
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
  DEFAULT_QUALITY_HORIZON,
  machineTotals,
  pageCount,
  pageLabel,
  paretoBars,
  parseRejectPage,
  parseRejectTotals,
  QUALITY_HORIZONS,
  qualityCsvHref,
  readPage,
  readReason,
  rejectsQuery,
  rejectTypeLabel,
  rowsFor,
  stackedByMachine,
  totalsQuery,
  UNCATEGORIZED,
  writePage,
  writeReason,
} from '../quality/report';
import type { ParetoBar, QualitySelection, RejectPage, RejectTotal, RejectTotals } from '../quality/report';
import { dataOf, newCallCache, useMachineNames, useReportCall, useReportPage } from '../reports/hooks';
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

const totalsCall = (s: QualitySelection): ReportCall<RejectTotals> => ({
  path: '/api/partadjustment/allRejectsByCategory',
  query: totalsQuery(s),
  parse: parseRejectTotals,
  errorText: reportErrorText,
});

const rejectsCall = (s: QualitySelection, reason: string | null, page: number): ReportCall<RejectPage> => ({
  path: '/api/partadjustment/rejects',
  query: rejectsQuery(s, reason, page),
  parse: parseRejectPage,
  errorText: reportErrorText,
});

/** The nine chart colours (reports-admin §9), one per reason in pareto order, the same in both charts. */
const colorAt = (i: number): string => cssVar(`--chart-${String((i % 9) + 1)}`, '#1f5fbf');
const faded = (color: string): string => (/^#[0-9a-f]{6}$/i.test(color) ? `${color}55` : color);

/** The reject calls take no shift (reports-admin §7): the report has no shift filter. */
const NO_SHIFTS = { options: null, selected: [], setSelected: () => undefined };

/** A reject's time to the minute, without the year the range already names: short enough for a phone. */
const timeFormat = (lz: LZ) =>
  new Intl.DateTimeFormat(lz.locale, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: lz.timeZone,
  });

/** /dashboard/quality?group&machine&interval&start&end&reason&page (reports-admin §2; decision 0806). */
export function QualityReportPage() {
  return (
    <ReportClockGate title={tr('reports.quality')}>
      {(clock, offsetMs) => <QualityReport clock={clock} offsetMs={offsetMs} />}
    </ReportClockGate>
  );
}

function QualityReport({ clock, offsetMs }: { clock: CompanyClock; offsetMs: number }) {
  const report = useReportPage({
    clock,
    offsetMs,
    horizonPreference: null,
    defaultHorizon: DEFAULT_QUALITY_HORIZON,
    horizons: QUALITY_HORIZONS,
  });
  const { applied, setParams, lz, query, group, machine, openDrill } = report;
  const names = useMachineNames();
  const reason = readReason(query);
  const page = readPage(query);

  const selection: QualitySelection = useMemo(
    () => ({ range: applied, group, machine }),
    [applied, group, machine],
  );
  const key = JSON.stringify(selection);
  // reports-admin §9: re-queries wait 500 ms after the last change.
  const settled = useDebounced(selection, key);
  const settledKey = JSON.stringify(settled);
  const cache = useMemo(() => newCallCache(settledKey), [settledKey]);
  const call = useReportCall(settled ? totalsCall(settled) : null, cache);
  const answer = dataOf(call);
  const fresh = call.kind === 'ready' && key === settledKey;
  const rows = useMemo(() => (answer ? rowsFor(answer, machine) : []), [answer, machine]);

  const subject = machine
    ? (names.machines.find((m) => m.id === machine)?.name ??
      rows.find((r) => r.machine?.id === machine)?.machine?.name ??
      '…')
    : group
      ? (names.groups.find((g) => g.id === group)?.name ?? '…')
      : tr('quality.allMachines');

  return (
    <ReportFrame
      report={report}
      horizons={QUALITY_HORIZONS}
      title={tr('quality.title', { name: subject })}
      returnText={tr('quality.returnToAll')}
      groups={names.groups}
      shifts={NO_SHIFTS}
      loading={!fresh}
      error={call.kind === 'error' ? call.message : null}
      empty={answer && rows.every((r) => r.scrapCount === 0) ? tr('quality.empty') : null}
    >
      {answer && settled && (
        <Results
          rows={rows}
          selection={settled}
          reason={reason}
          page={page}
          lz={lz}
          onReason={(r) => setParams((q) => writeReason(q, r))}
          onPage={(p) => setParams((q) => writePage(q, p))}
          onMachine={(id) => openDrill('machine', id)}
        />
      )}
    </ReportFrame>
  );
}

function Results({
  rows,
  selection,
  reason,
  page,
  lz,
  onReason,
  onPage,
  onMachine,
}: {
  rows: RejectTotal[];
  selection: QualitySelection;
  reason: string | null;
  page: number;
  lz: LZ;
  onReason: (reason: string | null) => void;
  onPage: (page: number) => void;
  onMachine: (id: string) => void;
}) {
  const bars = useMemo(() => paretoBars(rows), [rows]);
  const picked = reason ? (bars.find((b) => b.key === reason) ?? null) : null;
  const total = bars.reduce((t, b) => t + b.count, 0);
  return (
    <>
      <section className="report__summary report__summary--oee" aria-label={tr('quality.summaryLabel')}>
        <div className="tiles tiles--wrap">
          <Tile label={tr('quality.total')} value={String(total)} />
          <Tile label={tr('quality.reasons')} value={String(bars.length)} />
          <Tile label={tr('quality.topReason')} value={bars[0]?.name ?? '-'} />
          {!selection.machine && (
            <Tile label={tr('quality.machines')} value={String(machineTotals(rows, null).length)} />
          )}
        </div>
      </section>
      <Pareto bars={bars} reason={reason} onReason={onReason} />
      {!selection.machine && (
        <ByMachine
          rows={rows}
          bars={bars}
          reason={reason}
          picked={picked}
          selection={selection}
          onReason={onReason}
          onMachine={onMachine}
        />
      )}
      <RejectList
        selection={selection}
        reason={reason}
        picked={picked}
        page={page}
        lz={lz}
        onPage={onPage}
        onMachine={selection.machine ? null : onMachine}
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
        label: tr('quality.countAxis'),
        data: bars.map((b) => b.count),
        backgroundColor: colors,
        yAxisID: 'y',
        order: 2,
        maxBarThickness: 120,
      },
      {
        type: 'line' as const,
        label: tr('quality.cumulative'),
        data: bars.map((b) => b.cumulative),
        borderColor: cssVar('--text', '#1a1a1a'),
        backgroundColor: cssVar('--text', '#1a1a1a'),
        pointRadius: 3,
        borderWidth: 2,
        yAxisID: 'y1',
        order: 1,
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
    // A click anywhere over a reason's column opens it, not only on the bar.
    interaction: { mode: 'index', intersect: false, axis: 'x' },
    layout: { padding: { top: 8 } },
    scales: {
      x: { ticks: { autoSkip: false, maxRotation: 0 } },
      y: {
        beginAtZero: true,
        ticks: { precision: 0 },
        title: { display: true, text: tr('quality.countAxis') },
      },
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
              ? tr('quality.countValue', { count: Number(ctx.raw) })
              : `${tr('quality.cumulative')}: ${String(ctx.raw)}%`,
        },
      },
    },
    onClick: (_e, elements) => open(elements[0]?.index),
    onHover: pointerOnHover(),
  };
  return (
    <section className="report__list" aria-labelledby="pareto-heading">
      <h2 id="pareto-heading">{tr('quality.byReason')}</h2>
      <p className="report__intro">{tr('quality.byReasonIntro')}</p>
      <div className="report__losses-body">
        <figure className="report__chart">
          <div className="report__chart-box">
            <Chart
              type="bar"
              data={data}
              options={options}
              aria-label={tr('quality.paretoLabel')}
              role="img"
            />
          </div>
          <figcaption className="visually-hidden">{tr('quality.paretoLabel')}</figcaption>
        </figure>
        {/* The same figures as a table: readable, and the drill-down by keyboard. */}
        <div className="table-wrap">
          <table className="table table--fit" aria-label={tr('quality.byReason')}>
            <thead>
              <tr>
                <PlainTh label={tr('quality.reasonRow')} />
                <PlainTh label={tr('quality.reasonCount')} className="num-col" />
                <PlainTh label={tr('quality.reasonShare')} className="num-col" />
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
                        title={tr('quality.openReason', { reason: b.name })}
                        onClick={() => open(i)}
                      >
                        {b.name}
                      </button>
                    </span>
                  </th>
                  <td className="num-col num">{b.count}</td>
                  <td className="num-col num">{`${b.cumulative.toFixed(1)}%`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

// ---- Stacked by machine, and the drill-down of a reason to its machines

function ByMachine({
  rows,
  bars,
  reason,
  picked,
  selection,
  onReason,
  onMachine,
}: {
  rows: RejectTotal[];
  bars: ParetoBar[];
  reason: string | null;
  picked: ParetoBar | null;
  selection: QualitySelection;
  onReason: (reason: string | null) => void;
  onMachine: (id: string) => void;
}) {
  const token = useUserToken(api);
  const chart = useMemo(() => stackedByMachine(rows, reason), [rows, reason]);
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
    interaction: { mode: 'index', intersect: false, axis: 'y' },
    scales: {
      x: {
        stacked: true,
        beginAtZero: true,
        ticks: { precision: 0 },
        title: { display: true, text: tr('quality.countAxis') },
      },
      y: { stacked: true, ticks: { autoSkip: false } },
    },
    plugins: {
      legend: { position: 'bottom', labels: { boxWidth: 12 } },
      tooltip: {
        filter: (item) => Number(item.raw) > 0,
        callbacks: {
          label: (ctx) =>
            `${ctx.dataset.label ?? ''}: ${tr('quality.countValue', { count: Number(ctx.raw) })}`,
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
      <div className="page__head">
        <h2 id="by-machine-heading">
          {picked ? tr('quality.byMachineFor', { reason: picked.name }) : tr('quality.byMachine')}
        </h2>
        <div className="page__tools">
          {reason && (
            <button type="button" className="button" onClick={() => onReason(null)}>
              {tr('quality.allReasons')}
            </button>
          )}
          <CsvLink href={qualityCsvHref(selection, reason, token)} filename="rejects-by-machine.csv" />
        </div>
      </div>
      <p className="report__intro">{tr('quality.byMachineIntro')}</p>
      <div className="report__losses-body">
        <figure className="report__chart">
          <div
            className="report__chart-box"
            style={{
              height: `${String(90 + chart.machines.length * 40 + Math.ceil(chart.series.length / 3) * 20)}px`,
            }}
          >
            <Bar data={data} options={options} aria-label={tr('quality.byMachineLabel')} role="img" />
          </div>
          <figcaption className="visually-hidden">{tr('quality.byMachineLabel')}</figcaption>
        </figure>
        <div className="table-wrap">
          <table
            className="table table--fit"
            aria-label={
              picked ? tr('quality.byMachineFor', { reason: picked.name }) : tr('quality.byMachine')
            }
          >
            <thead>
              <tr>
                <PlainTh label={tr('quality.machineRow')} />
                <PlainTh label={tr('quality.reasonCount')} className="num-col" />
              </tr>
            </thead>
            <tbody>
              {chart.machines.map((m) => (
                <tr key={m.id} className="row--link">
                  <th scope="row">
                    <button
                      type="button"
                      className="link-button"
                      title={tr('quality.openMachine', { name: m.name })}
                      onClick={() => onMachine(m.id)}
                    >
                      {m.name}
                    </button>
                  </th>
                  <td className="num-col num">{m.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

// ---- The paged list of rejects (reports-admin §7: limit 25, offset 25 × (page − 1))

function RejectList({
  selection,
  reason,
  picked,
  page,
  lz,
  onPage,
  onMachine,
}: {
  selection: QualitySelection;
  reason: string | null;
  picked: ParetoBar | null;
  page: number;
  lz: LZ;
  onPage: (page: number) => void;
  onMachine: ((id: string) => void) | null;
}) {
  const cache = useMemo(() => newCallCache(JSON.stringify(selection)), [selection]);
  const call = useReportCall(rejectsCall(selection, reason, page), cache);
  const list = dataOf(call);
  const pages = list ? pageCount(list.count) : 1;
  const format = timeFormat(lz);
  return (
    <section
      className="report__list"
      aria-labelledby="rejects-heading"
      aria-busy={call.kind === 'loading' || undefined}
    >
      <h2 id="rejects-heading">
        {picked ? tr('quality.listFor', { reason: picked.name }) : tr('quality.list')}
      </h2>
      {reason === UNCATEGORIZED && <p className="notice">{tr('quality.listUncategorizedNote')}</p>}
      {call.kind === 'error' && (
        <p className="notice notice--error" role="alert">
          {call.message}
        </p>
      )}
      {list && list.rows.length === 0 && <p className="notice">{tr('quality.listEmpty')}</p>}
      {list && list.rows.length > 0 && (
        <>
          <p className="report__intro" role="status">
            {pageLabel({ count: list.count, offset: list.offset, shown: list.rows.length })}
          </p>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <PlainTh label={tr('quality.col.time')} />
                  <PlainTh label={tr('quality.col.machine')} />
                  <PlainTh label={tr('quality.col.reason')} />
                  <PlainTh label={tr('quality.col.count')} className="num-col" />
                  <PlainTh label={tr('quality.col.type')} />
                  <PlainTh label={tr('quality.col.operation')} />
                  <PlainTh label={tr('quality.col.message')} />
                </tr>
              </thead>
              <tbody>
                {list.rows.map((r) => (
                  <tr key={r.id}>
                    <td className="num">{format.format(r.adjustmenttime)}</td>
                    <td>
                      {onMachine ? (
                        <button
                          type="button"
                          className="link-button"
                          title={tr('quality.openMachine', { name: r.machine_name })}
                          onClick={() => onMachine(r.machine_id)}
                        >
                          {r.machine_name}
                        </button>
                      ) : (
                        r.machine_name
                      )}
                    </td>
                    <td>{r.partadjustmentType?.name ?? tr('quality.uncategorized')}</td>
                    <td className="num-col num">{r.scrapcount}</td>
                    <td>{rejectTypeLabel(r.reject_behavior)}</td>
                    <td>{r.jobName ?? ''}</td>
                    <td>{r.message ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 && (
            <nav className="pager" aria-label={tr('quality.pager')}>
              <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
                {tr('quality.previous')}
              </button>
              <span className="pager__label num">{tr('quality.pageNumber', { page, pages })}</span>
              <button
                type="button"
                className="button"
                disabled={page >= pages}
                onClick={() => onPage(page + 1)}
              >
                {tr('quality.next')}
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
