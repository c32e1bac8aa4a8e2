import type { ChartData, ChartOptions } from 'chart.js';
import { tr } from '@takt/ui';
import type { ReactNode } from 'react';
import { Chart } from 'react-chartjs-2';
import { CsvLink, cssVar, PlainTh, pointerOnHover } from '../components/ReportParts';
import { wrapLabel } from '../oee/waterfall';
import { CHART_BASE, colorAt, faded, registerBarLineCharts } from './charts';

// The pareto by reason of the Downtime and Quality reports (reports-admin §2: "Pareto chart by reason with
// accumulated percent line; click a reason to drill down"): the chart and the same figures as a table.

registerBarLineCharts();

/** One reason of a pareto, largest first. */
export interface ParetoEntry {
  key: string;
  name: string;
  /** Accumulated share, 0..100. */
  cumulative: number;
}

/** A figure column of the reason table. */
export interface ParetoColumn<B> {
  label: string;
  cell: (bar: B) => ReactNode;
  /** Left out on a phone. */
  hideNarrow?: boolean;
}

/** The texts of one report's pareto. */
export interface ParetoTexts {
  heading: string;
  intro: string;
  chartLabel: string;
  /** The bars' axis and legend. */
  axis: string;
  cumulative: string;
  reasonRow: string;
  share: string;
  /** A bar's value in the tooltip. */
  value: (raw: number) => string;
  openReason: (name: string) => string;
}

/**
 * A report's pareto texts from its message keys: both reports name them alike under their own prefix and
 * differ only in the axis (minutes or count) and how a bar's value reads.
 */
export const paretoTexts = (
  prefix: 'downtimeReport' | 'quality',
  axis: string,
  value: (raw: number) => string,
): ParetoTexts => ({
  heading: tr(`${prefix}.byReason`),
  intro: tr(`${prefix}.byReasonIntro`),
  chartLabel: tr(`${prefix}.paretoLabel`),
  axis,
  cumulative: tr(`${prefix}.cumulative`),
  reasonRow: tr(`${prefix}.reasonRow`),
  share: tr(`${prefix}.reasonShare`),
  value,
  openReason: (name) => tr(`${prefix}.openReason`, { reason: name }),
});

const numClass = (c: { hideNarrow?: boolean }, cell: boolean) =>
  `num-col${cell ? ' num' : ''}${c.hideNarrow ? ' hide-narrow' : ''}`;

/**
 * The pareto section: a click on a reason (its column in the chart, or its name in the table) drills into it,
 * a second click leaves it; the reasons not drilled into fade.
 */
export function ParetoSection<B extends ParetoEntry>({
  bars,
  reason,
  onReason,
  value,
  wholeNumbers = false,
  columns,
  shareHidesNarrow = false,
  texts,
}: {
  bars: B[];
  reason: string | null;
  onReason: (reason: string | null) => void;
  /** The height of a reason's bar. */
  value: (bar: B) => number;
  /** Counts: the axis ticks whole numbers only. */
  wholeNumbers?: boolean;
  /** The figures between the reason and its accumulated share. */
  columns: ParetoColumn<B>[];
  shareHidesNarrow?: boolean;
  texts: ParetoTexts;
}) {
  const colors = bars.map((b, i) => (reason && b.key !== reason ? faded(colorAt(i)) : colorAt(i)));
  const data: ChartData<'bar' | 'line', number[], string | string[]> = {
    labels: bars.map((b) => wrapLabel(b.name, 16)),
    datasets: [
      {
        type: 'bar' as const,
        label: texts.axis,
        data: bars.map(value),
        backgroundColor: colors,
        yAxisID: 'y',
        order: 2,
        // One or two reasons must not become a wall of colour.
        maxBarThickness: 120,
      },
      {
        type: 'line' as const,
        label: texts.cumulative,
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
    ...CHART_BASE,
    // A click anywhere over a reason's column opens it, not only on the bar (short bars are small targets).
    interaction: { mode: 'index', intersect: false, axis: 'x' },
    layout: { padding: { top: 8 } },
    scales: {
      x: { ticks: { autoSkip: false, maxRotation: 0 } },
      y: {
        beginAtZero: true,
        ...(wholeNumbers ? { ticks: { precision: 0 } } : {}),
        title: { display: true, text: texts.axis },
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
              ? texts.value(Number(ctx.raw))
              : `${texts.cumulative}: ${String(ctx.raw)}%`,
        },
      },
    },
    onClick: (_e, elements) => open(elements[0]?.index),
    onHover: pointerOnHover(),
  };
  const figures: ParetoColumn<B>[] = [
    ...columns,
    { label: texts.share, cell: (b) => `${b.cumulative.toFixed(1)}%`, hideNarrow: shareHidesNarrow },
  ];
  return (
    <section className="report__list" aria-labelledby="pareto-heading">
      <h2 id="pareto-heading">{texts.heading}</h2>
      <p className="report__intro">{texts.intro}</p>
      <div className="report__losses-body">
        <figure className="report__chart">
          <div className="report__chart-box">
            <Chart type="bar" data={data} options={options} aria-label={texts.chartLabel} role="img" />
          </div>
          <figcaption className="visually-hidden">{texts.chartLabel}</figcaption>
        </figure>
        {/* The same figures as a table: readable, and the drill-down by keyboard. */}
        <div className="table-wrap">
          <table className="table table--fit" aria-label={texts.heading}>
            <thead>
              <tr>
                <PlainTh label={texts.reasonRow} />
                {figures.map((c) => (
                  <PlainTh key={c.label} label={c.label} className={numClass(c, false)} />
                ))}
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
                        title={texts.openReason(b.name)}
                        onClick={() => open(i)}
                      >
                        {b.name}
                      </button>
                    </span>
                  </th>
                  {figures.map((c) => (
                    <td key={c.label} className={numClass(c, true)}>
                      {c.cell(b)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

/**
 * The tools of a section that follows the drill-down: "Show all reasons" while drilled into one, and the
 * CSV of what the section shows (reports-admin §7: the same call with format=csv).
 */
export function ReasonTools({
  reason,
  onReason,
  allReasons,
  csvHref,
  filename,
}: {
  reason: string | null;
  onReason: (reason: string | null) => void;
  allReasons: string;
  csvHref: string | null;
  filename: string;
}) {
  return (
    <>
      {reason && (
        <button type="button" className="button" onClick={() => onReason(null)}>
          {allReasons}
        </button>
      )}
      <CsvLink href={csvHref} filename={filename} />
    </>
  );
}
