import type { ChartOptions } from 'chart.js';
import type { ReactNode } from 'react';
import { Bar } from 'react-chartjs-2';
import { pointerOnHover, SectionHead } from '../components/ReportParts';
import { wrapLabel } from '../oee/waterfall';
import { CHART_BASE, colorAt, registerBarLineCharts } from './charts';

// The reasons stacked by machine of the Downtime and Quality reports (reports-admin §2: "Stacked bar chart
// by machine"): one bar per machine, one colour per reason as in the pareto; a machine's bar opens it.

registerBarLineCharts();

export interface MachineStack {
  machines: { id: string; name: string }[];
  /** One series per reason, in pareto order: a value per machine. */
  series: { key: string; name: string; values: number[] }[];
}

/** The texts of one report's stacked chart. */
export interface MachineStackTexts {
  heading: string;
  intro: string;
  chartLabel: string;
  axis: string;
  /** A machine's value of one reason in the tooltip. */
  value: (raw: number) => string;
}

/** Nothing when no machine has a value (the pareto already says so). */
export function MachineStackSection({
  chart,
  bars,
  onMachine,
  wholeNumbers = false,
  texts,
  tools,
  table,
}: {
  chart: MachineStack;
  /** The pareto's reasons, whose colours the series take. */
  bars: readonly { key: string }[];
  onMachine: (id: string) => void;
  /** Counts: the axis ticks whole numbers only. */
  wholeNumbers?: boolean;
  texts: MachineStackTexts;
  /** Beside the heading (the CSV link, say). */
  tools?: ReactNode;
  /** The same figures as a table, beside the chart. */
  table?: ReactNode;
}) {
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
    ...CHART_BASE,
    // A click anywhere on a machine's row opens it.
    interaction: { mode: 'index', intersect: false, axis: 'y' },
    scales: {
      x: {
        stacked: true,
        beginAtZero: true,
        ...(wholeNumbers ? { ticks: { precision: 0 } } : {}),
        title: { display: true, text: texts.axis },
      },
      y: { stacked: true, ticks: { autoSkip: false } },
    },
    plugins: {
      legend: { position: 'bottom', labels: { boxWidth: 12 } },
      tooltip: {
        filter: (item) => Number(item.raw) > 0,
        callbacks: {
          label: (ctx) => `${ctx.dataset.label ?? ''}: ${texts.value(Number(ctx.raw))}`,
        },
      },
    },
    onClick: (_e, elements) => {
      const m = elements[0] ? chart.machines[elements[0].index] : undefined;
      if (m) onMachine(m.id);
    },
    onHover: pointerOnHover(),
  };
  const figure = (
    <figure className="report__chart">
      <div
        className="report__chart-box"
        style={{
          // A row per machine and the legend's lines (three reasons a line) below.
          height: `${String(90 + chart.machines.length * 40 + Math.ceil(chart.series.length / 3) * 20)}px`,
        }}
      >
        <Bar data={data} options={options} aria-label={texts.chartLabel} role="img" />
      </div>
      <figcaption className="visually-hidden">{texts.chartLabel}</figcaption>
    </figure>
  );
  return (
    <section className="report__list" aria-labelledby="by-machine-heading">
      {tools ? (
        <SectionHead id="by-machine-heading" heading={texts.heading}>
          {tools}
        </SectionHead>
      ) : (
        <h2 id="by-machine-heading">{texts.heading}</h2>
      )}
      <p className="report__intro">{texts.intro}</p>
      {table ? (
        <div className="report__losses-body">
          {figure}
          {table}
        </div>
      ) : (
        figure
      )}
    </section>
  );
}
