import { tr } from '@takt/ui';
import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Chart } from 'react-chartjs-2';
import { useNavigate } from 'react-router';
import { ChartSection, MachineReportFrame, PlainTable, ReportPage } from '../components/ReportParts';
import type { ClockProps } from '../components/ReportParts';
import { reportErrorText } from '../cycles/report';
import {
  DEFAULT_OVERRIDES_HORIZON,
  overrideRows,
  overridesEmptyText,
  overridesQuery,
  OVERRIDES_HORIZONS,
  parseOverrides,
  stepPoints,
} from './report';
import type { OverridesAnswer, OverridesSelection } from './report';
import { CHART_BASE, colorAt, registerBarLineCharts } from '../reports/charts';
import { reportGet, useMachineReport, useSettledCall } from '../reports/hooks';
import { unsavedHorizons } from '../reports/shared';
import type { LZ } from '../reports/shared';
import { PATHS } from '../routes';

registerBarLineCharts();

const overridesCall = reportGet('/api/reports/overrides', overridesQuery, parseOverrides, reportErrorText);

const HORIZONS = unsavedHorizons(DEFAULT_OVERRIDES_HORIZON, OVERRIDES_HORIZONS);

/** /machine/{id}/overrides?interval&start&end&quicklink (reports-admin §2 "Overrides report"; decision 0807). */
export function OverridesReportPage() {
  return <ReportPage title={tr('overrides.tab')} report={OverridesReport} />;
}

function OverridesReport({ clock, offsetMs }: ClockProps) {
  const { report, machineId, machineName } = useMachineReport({ clock, offsetMs, ...HORIZONS });
  const navigate = useNavigate();
  const { applied, lz, query } = report;
  const selection: OverridesSelection = useMemo(
    () => ({ range: applied, machine: machineId }),
    [applied, machineId],
  );
  const { answer, status } = useSettledCall(selection, overridesCall);

  // The machine's cycles over the same dates: what ran while the knobs were turned.
  const toCycles = () =>
    void navigate(
      `${PATHS.machineCycles.replace(':id', machineId)}?${new URLSearchParams(query).toString()}`,
    );

  return (
    <MachineReportFrame
      report={report}
      horizons={OVERRIDES_HORIZONS}
      title={tr('overrides.title', { name: machineName() })}
      returnText={tr('overrides.returnToCycles')}
      onReturn={toCycles}
      {...status}
      empty={answer ? overridesEmptyText(answer) : null}
    >
      {answer && overridesEmptyText(answer) == null && <Results answer={answer} lz={lz} />}
    </MachineReportFrame>
  );
}

function Results({ answer, lz }: { answer: OverridesAnswer; lz: LZ }) {
  const rows = useMemo(() => overrideRows(answer.series), [answer]);
  return (
    <>
      <StepChart answer={answer} lz={lz} />
      <section className="report__list" aria-labelledby="overrides-table-heading">
        <h2 id="overrides-table-heading">{tr('overrides.tableLabel')}</h2>
        <PlainTable
          label={tr('overrides.tableLabel')}
          columns={[
            { label: tr('overrides.override') },
            { label: tr('overrides.mean'), num: true },
            { label: tr('overrides.range'), num: true },
            { label: tr('overrides.below'), num: true },
            { label: tr('overrides.above'), num: true },
          ]}
        >
          {rows.map((r) => (
            <tr key={r.key}>
              <td>{r.label}</td>
              <td className="num-col num">{r.mean}</td>
              <td className="num-col num">{r.range}</td>
              <td className="num-col num">{r.below}</td>
              <td className="num-col num">{r.above}</td>
            </tr>
          ))}
        </PlainTable>
      </section>
    </>
  );
}

/** One stepped line per override field on a time axis in the company's zone; gaps where unavailable. */
function StepChart({ answer, lz }: { answer: OverridesAnswer; lz: LZ }) {
  const long = answer.range.end - answer.range.start > 2 * 86_400_000;
  const tick = new Intl.DateTimeFormat(lz.locale, {
    ...(long ? { weekday: 'short' as const } : {}),
    hour: 'numeric',
    minute: '2-digit',
    timeZone: lz.timeZone,
  });
  const when = new Intl.DateTimeFormat(lz.locale, {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    timeZone: lz.timeZone,
  });
  const data: ChartData<'line', Array<{ x: number; y: number | null }>> = {
    datasets: answer.series.map((s, i) => ({
      label: s.label,
      data: stepPoints(s.steps, answer.until),
      borderColor: colorAt(i),
      backgroundColor: colorAt(i),
      borderWidth: 2,
      pointRadius: 0,
      pointHitRadius: 6,
      spanGaps: false,
    })),
  };
  const options: ChartOptions<'line'> = {
    ...CHART_BASE,
    parsing: false,
    interaction: { mode: 'nearest', intersect: false, axis: 'x' },
    scales: {
      x: {
        type: 'linear',
        min: answer.range.start,
        max: answer.range.end,
        ticks: { maxTicksLimit: 8, maxRotation: 0, callback: (v) => tick.format(Number(v)) },
      },
      y: { beginAtZero: true, suggestedMax: 120, title: { display: true, text: '%' } },
    },
    plugins: {
      legend: { position: 'bottom', labels: { boxWidth: 12 } },
      tooltip: {
        callbacks: {
          title: (items) => (items[0] ? when.format(items[0].parsed.x ?? 0) : ''),
          label: (ctx) => `${ctx.dataset.label ?? ''}: ${String(ctx.parsed.y)} %`,
        },
      },
    },
  };
  return (
    <ChartSection
      id="overrides-chart-heading"
      heading={tr('overrides.chartLabel')}
      intro={tr('overrides.hint')}
      label={tr('overrides.chartLabel')}
    >
      <Chart type="line" data={data} options={options} aria-label={tr('overrides.chartLabel')} role="img" />
    </ChartSection>
  );
}
