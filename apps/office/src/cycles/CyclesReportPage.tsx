import { StatusBadge, tr, useUserToken } from '@takt/ui';
import type { ChartData, ChartOptions } from 'chart.js';
import { useId, useMemo } from 'react';
import { Chart } from 'react-chartjs-2';
import { Link, useNavigate } from 'react-router';
import { api } from '../api';
import {
  ChartSection,
  cssVar,
  CsvLink,
  MachineReportFrame,
  PlainTable,
  ReportPage,
  SectionHead,
  SummaryTiles,
  Tile,
} from '../components/ReportParts';
import type { ClockProps } from '../components/ReportParts';
import {
  CYCLES_HORIZONS,
  cycleRows,
  cyclesCsvHref,
  cyclesQuery,
  cyclesSummary,
  DEFAULT_CYCLES_HORIZON,
  isSlow,
  parseCycles,
  reportErrorText,
} from './report';
import type { CycleRow, CyclesAnswer, CyclesSelection } from './report';
import { CHART_BASE, registerBarLineCharts } from '../reports/charts';
import { reportGet, useMachineReport, useSettledCall } from '../reports/hooks';
import { listTimeFormat, unsavedHorizons } from '../reports/shared';
import type { LZ } from '../reports/shared';
import { adjustmentHref } from '../quality/scrap-form';
import { machineTimelinePath, PATHS } from '../routes';
import { timelineAround } from '../timeline/model';

registerBarLineCharts();

const cyclesCall = reportGet('/api/reports/cycles', cyclesQuery, parseCycles, reportErrorText);

/** reports-admin §2: the cycles report's horizons; §9 remembers the OEE and utilization ones only. */
const HORIZONS = unsavedHorizons(DEFAULT_CYCLES_HORIZON, CYCLES_HORIZONS);

/** A cycle's end to the second, without the year the range already names: short enough for a phone. */
const timeFormat = (lz: LZ) => listTimeFormat(lz, { seconds: true });

/** /machine/{id}/cycles?interval&start&end&quicklink&slow (reports-admin §2 "Cycles report"; decision 0806). */
export function CyclesReportPage() {
  return <ReportPage title={tr('cycles.grid')} report={CyclesReport} />;
}

function CyclesReport({ clock, offsetMs }: ClockProps) {
  const { report, machineId, machineName } = useMachineReport({ clock, offsetMs, ...HORIZONS });
  const navigate = useNavigate();
  const { applied, lz, query, setParams } = report;
  const onlySlow = query.get('slow') === '1';

  const selection: CyclesSelection = useMemo(
    () => ({ range: applied, machine: machineId }),
    [applied, machineId],
  );
  const { settled, answer, status } = useSettledCall(selection, cyclesCall);
  const name = machineName(answer?.machineName);

  // The OEE report of this machine with the same dates: where the performance step came from.
  const toOee = () => {
    const q = new URLSearchParams(query);
    q.delete('slow');
    q.set('machine', machineId);
    void navigate(`${PATHS.oee}?${q.toString()}`);
  };

  return (
    <MachineReportFrame
      report={report}
      horizons={CYCLES_HORIZONS}
      title={tr('cycles.title', { name })}
      returnText={tr('cycles.returnToOee')}
      onReturn={toOee}
      {...status}
      empty={answer && answer.cycles.length === 0 ? tr('cycles.empty') : null}
      recomputing={answer?.recomputing}
      tools={
        <SlowToggle
          checked={onlySlow}
          onChange={(v) =>
            setParams((q) => {
              const next = new URLSearchParams(q);
              if (v) next.set('slow', '1');
              else next.delete('slow');
              return next;
            })
          }
        />
      }
    >
      {answer && settled && <Results answer={answer} selection={settled} onlySlow={onlySlow} lz={lz} />}
    </MachineReportFrame>
  );
}

function SlowToggle({ checked, onChange }: { checked: boolean; onChange: (v: boolean) => void }) {
  const id = useId();
  return (
    <label className="shift-filter__option report__toggle" htmlFor={id}>
      <input id={id} type="checkbox" checked={checked} onChange={() => onChange(!checked)} />
      {tr('cycles.onlySlow')}
    </label>
  );
}

function Results({
  answer,
  selection,
  onlySlow,
  lz,
}: {
  answer: CyclesAnswer;
  selection: CyclesSelection;
  onlySlow: boolean;
  lz: LZ;
}) {
  const summary = useMemo(() => cyclesSummary(answer.cycles), [answer]);
  return (
    <>
      <SummaryTiles label={tr('cycles.summaryLabel')}>
        <Tile label={tr('cycles.count')} value={String(summary.cycles)} />
        <Tile label={tr('cycles.slowCount')} value={String(summary.slow)} />
        <Tile label={tr('cycles.parts')} value={String(summary.parts)} />
        {/* The range's good parts: the figure a Parts report cell links here with (decision 1020). */}
        <Tile
          label={tr('cycles.goodParts')}
          value={String(answer.parts.good)}
          hint={tr('cycles.goodPartsHint', {
            total: String(answer.parts.total),
            rejected: String(answer.parts.rejected),
          })}
        />
        <Tile label={tr('cycles.average')} value={summary.average} />
      </SummaryTiles>
      <CycleChart answer={answer} lz={lz} />
      <Grid answer={answer} selection={selection} onlySlow={onlySlow} summarySlow={summary.slow} lz={lz} />
    </>
  );
}

/** One bar per cycle in minutes, slow ones in the warning colour, the expected cycle time as a line. */
function CycleChart({ answer, lz }: { answer: CyclesAnswer; lz: LZ }) {
  const cycles = answer.cycles;
  const normal = cssVar('--chart-1', '#1f5fbf');
  const warning = cssVar('--status-warning-bg', '#f2b705');
  const label = new Intl.DateTimeFormat(lz.locale, {
    weekday: 'short',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: lz.timeZone,
  });
  const data: ChartData<'bar' | 'line', number[], string> = {
    labels: cycles.map((c) => label.format(c.timestamp)),
    datasets: [
      {
        type: 'bar' as const,
        label: tr('cycles.normal'),
        data: cycles.map((c) => c.duration / 60_000),
        backgroundColor: cycles.map((c) => (isSlow(c) ? warning : normal)),
        borderColor: cycles.map((c) => (isSlow(c) ? cssVar('--status-warning-ink', '#8a5a00') : normal)),
        borderWidth: cycles.map((c) => (isSlow(c) ? 2 : 0)),
        order: 2,
        maxBarThickness: 24,
      },
      {
        type: 'line' as const,
        label: tr('cycles.expectedLine'),
        data: cycles.map((c) => c.expectedCycleTime / 60_000),
        borderColor: cssVar('--text', '#1a1a1a'),
        backgroundColor: cssVar('--text', '#1a1a1a'),
        borderDash: [6, 4],
        pointRadius: 0,
        borderWidth: 2,
        stepped: true,
        order: 1,
      },
    ],
  };
  const options: ChartOptions<'bar' | 'line'> = {
    ...CHART_BASE,
    interaction: { mode: 'index', intersect: false, axis: 'x' },
    scales: {
      x: { ticks: { autoSkip: true, maxRotation: 0, maxTicksLimit: 8 } },
      y: { beginAtZero: true, title: { display: true, text: tr('cycles.durationAxis') } },
    },
    plugins: {
      legend: {
        position: 'bottom',
        labels: {
          boxWidth: 12,
          // The bar dataset has two colours: the legend names both.
          generateLabels: (chart) => [
            {
              text: tr('cycles.normal'),
              fillStyle: normal,
              strokeStyle: normal,
              lineWidth: 0,
              datasetIndex: 0,
            },
            {
              text: tr('cycles.slowBar'),
              fillStyle: warning,
              strokeStyle: cssVar('--status-warning-ink', '#8a5a00'),
              lineWidth: 2,
              datasetIndex: 0,
            },
            {
              text: tr('cycles.expectedLine'),
              fillStyle: 'transparent',
              strokeStyle: cssVar('--text', '#1a1a1a'),
              lineWidth: 2,
              lineDash: [6, 4],
              datasetIndex: 1,
              hidden: !chart.isDatasetVisible(1),
            },
          ],
        },
        onClick: () => undefined,
      },
      tooltip: {
        callbacks: {
          label: (ctx) => {
            const c = cycles[ctx.dataIndex];
            if (!c) return '';
            if (ctx.datasetIndex === 1)
              return `${tr('cycles.expectedLine')}: ${formatMinutes(c.expectedCycleTime)}`;
            return `${tr('cycles.col.duration')}: ${formatMinutes(c.duration)}${isSlow(c) ? ` (${tr('cycles.slow')})` : ''}`;
          },
        },
      },
    },
  };
  return (
    <ChartSection
      id="cycle-chart-heading"
      heading={tr('cycles.chart')}
      intro={tr('cycles.chartIntro')}
      label={tr('cycles.chartLabel')}
    >
      <Chart type="bar" data={data} options={options} aria-label={tr('cycles.chartLabel')} role="img" />
    </ChartSection>
  );
}

const formatMinutes = (ms: number): string => {
  const s = Math.round(ms / 1000);
  return `${String(Math.floor(s / 60))}:${String(s % 60).padStart(2, '0')}`;
};

function Grid({
  answer,
  selection,
  onlySlow,
  summarySlow,
  lz,
}: {
  answer: CyclesAnswer;
  selection: CyclesSelection;
  onlySlow: boolean;
  summarySlow: number;
  lz: LZ;
}) {
  const token = useUserToken(api);
  const rows = useMemo(() => cycleRows(answer.cycles, onlySlow), [answer, onlySlow]);
  const format = timeFormat(lz);
  return (
    <section className="report__list" aria-labelledby="grid-heading">
      <SectionHead id="grid-heading" heading={tr('cycles.grid')}>
        <CsvLink href={cyclesCsvHref(selection, token)} filename="cycles.csv" />
      </SectionHead>
      <p className="report__intro">{tr('cycles.gridIntro')}</p>
      <p className="report__intro" role="status">
        {tr('cycles.rowsTotal', { count: answer.cycles.length, slow: summarySlow })}
      </p>
      {rows.length === 0 ? (
        <p className="notice">{tr('cycles.noneSlow')}</p>
      ) : (
        <PlainTable
          label={tr('cycles.grid')}
          columns={[
            { label: tr('cycles.col.time') },
            { label: tr('cycles.col.duration'), num: true },
            { label: tr('cycles.col.expected'), num: true },
            { label: tr('cycles.col.ideal'), num: true },
            { label: tr('cycles.col.parts'), num: true },
            { label: tr('cycles.col.scrap'), num: true },
            { label: tr('cycles.col.nonConform'), num: true },
            { label: tr('cycles.col.operation') },
            { label: tr('cycles.col.actions') },
          ]}
        >
          {rows.map((r) => (
            <tr key={r.id} className={r.slow ? 'row--slow' : undefined}>
              <td className="num">{format.format(r.time)}</td>
              <td className="num-col num">
                <span className="cycle-duration">
                  {r.slow && (
                    <span title={r.over}>
                      <StatusBadge status="warning">{tr('cycles.slow')}</StatusBadge>
                    </span>
                  )}
                  {r.duration}
                </span>
              </td>
              <td className="num-col num">{r.expected}</td>
              <td className="num-col num">{r.ideal}</td>
              <td className="num-col num">{r.parts}</td>
              <td className="num-col num">{r.scrap}</td>
              <td className="num-col num">{r.nonConform}</td>
              <td>{r.operation}</td>
              <td>
                <RowActions row={r} selection={selection} />
              </td>
            </tr>
          ))}
        </PlainTable>
      )}
    </section>
  );
}

/**
 * reports-admin §2 Cycles report row actions: Go to Timeline (around the cycle; hidden past the 1-year link
 * horizon, §5), Reject Part and Correct Part (the scrap and correction forms, prefilled with the cycle's time
 * and parts, keeping this range in view).
 */
function RowActions({ row, selection }: { row: CycleRow; selection: CyclesSelection }) {
  const around = timelineAround({ start: row.start, end: row.time }, Date.now());
  const prefill = {
    adjustmenttime: row.time,
    qty: row.qty,
    start: selection.range.start,
    end: selection.range.end,
  };
  return (
    <span className="row-actions">
      {around && <Link to={machineTimelinePath(selection.machine, around)}>{tr('cycles.goToTimeline')}</Link>}
      <Link to={adjustmentHref('reject', selection.machine, prefill)}>{tr('cycles.rejectPart')}</Link>
      <Link to={adjustmentHref('correction', selection.machine, prefill)}>{tr('cycles.correctPart')}</Link>
    </span>
  );
}
