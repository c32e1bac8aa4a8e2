import { Progress, tr } from '@takt/ui';
import type { ChartOptions } from 'chart.js';
import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import { Bar, Line } from 'react-chartjs-2';
import { Link, useNavigate } from 'react-router';
import { cssVar, ErrorBox, PlainTh, pointerOnHover } from '../components/ReportParts';
import {
  byShiftSeries,
  chartTypeLabel,
  chartTypes,
  metricLabel,
  SHIFT_METRICS,
  summarySeries,
} from './report';
import type { ChartType, Series, ShiftMetric } from './report';
import {
  lowestPerformanceMachine,
  waterfallCaption,
  waterfallOee,
  waterfallRows,
  wrapLabel,
} from './waterfall';
import type { WaterfallRow } from './waterfall';
import { dataOf, useReportCall } from '../reports/hooks';
import { intervalLabel } from '../reports/shared';
import { CHART_BASE } from '../reports/charts';
import { byShiftCall, listCall } from './calls';
import type { ViewProps } from './calls';

// The OEE report's summary chart and waterfall (reports-admin §2 "Chart dropdown"), split from the page.

const colorOf = (c: number | string): string =>
  typeof c === 'string' ? c : cssVar(`--chart-${String((c % 9) + 1)}`, '#1f5fbf');

export function SummaryChart({
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

export function Waterfall({ summary, selection, cache, lz }: ViewProps) {
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
