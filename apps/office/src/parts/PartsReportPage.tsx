import { tr, useUserToken } from '@takt/ui';
import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Chart } from 'react-chartjs-2';
import { Link, useNavigate } from 'react-router';
import { api } from '../api';
import {
  ChartSection,
  CsvLink,
  PlainTable,
  pointerOnHover,
  ReportFrame,
  ReportPage,
  SectionHead,
  SummaryTiles,
  Tile,
} from '../components/ReportParts';
import type { ClockProps } from '../components/ReportParts';
import { machineCyclesHref, reportErrorText } from '../cycles/report';
import {
  DEFAULT_PARTS_HORIZON,
  parseParts,
  PARTS_HORIZONS,
  PARTS_MAX_DAYS,
  partsCsvHref,
  partsEmptyText,
  partsQuery,
  partsRows,
  partsTotals,
} from './report';
import type { PartsAnswer, PartsSelection } from './report';
import { CHART_BASE, colorAt, registerBarLineCharts } from '../reports/charts';
import {
  NO_SHIFTS,
  reportGet,
  useMachineNames,
  useReportOfPathMachine,
  useSettledCall,
} from '../reports/hooks';
import { intervalLabel, reportSubject, unsavedHorizons } from '../reports/shared';
import type { LZ } from '../reports/shared';
import { PATHS } from '../routes';

registerBarLineCharts();

const partsCall = reportGet('/api/reports/partGoals', partsQuery, parseParts, reportErrorText);

const HORIZONS = unsavedHorizons(DEFAULT_PARTS_HORIZON, PARTS_HORIZONS);

/** /machine/{id}/parts with the same dates. */
const machinePartsHref = (id: string, query: URLSearchParams): string => {
  const q = new URLSearchParams(query);
  q.delete('machine');
  q.delete('group');
  return `${PATHS.machineParts.replace(':id', encodeURIComponent(id))}?${q.toString()}`;
};

/**
 * /dashboard/parts?group&interval&start&end (the company Parts report) and /machine/{id}/parts (one
 * machine's), reports-admin §2 "Parts report: per-machine chart by hour, shift or day", at most 7 days;
 * CSV through /api/reports/partGoals?{query}&format=csv.
 */
export function PartsReportPage() {
  return <ReportPage title={tr('parts.title')} report={PartsReport} />;
}

function PartsReport({ clock, offsetMs }: ClockProps) {
  const { report, machineId } = useReportOfPathMachine({ clock, offsetMs, ...HORIZONS });
  const navigate = useNavigate();
  const { applied, lz, query, group } = report;
  const names = useMachineNames();
  const selection: PartsSelection = useMemo(
    () => ({ range: applied, group, machine: machineId }),
    [applied, group, machineId],
  );
  const { settled, answer, status } = useSettledCall(selection, partsCall);
  const subject = reportSubject(
    names,
    { group, machine: machineId },
    '',
    answer?.machines.find((m) => m.machineId === machineId)?.machineName,
  );
  const toAll = () => {
    const q = new URLSearchParams(query);
    void navigate(`${PATHS.parts}?${q.toString()}`);
  };
  return (
    <ReportFrame
      report={report}
      horizons={PARTS_HORIZONS}
      maxDays={PARTS_MAX_DAYS}
      title={subject ? tr('parts.machineTitle', { name: subject }) : tr('parts.title')}
      returnText={tr('parts.returnToReports')}
      {...(machineId ? { onReturn: toAll } : {})}
      groups={machineId ? [] : names.groups}
      // GET /api/reports/partGoals takes no shift filter (reports-admin §7); the shift horizon splits by shift.
      shifts={NO_SHIFTS}
      {...status}
      empty={answer ? partsEmptyText(answer) : null}
      recomputing={answer?.recomputing}
    >
      {answer && settled && answer.machines.length > 0 && (
        <Results answer={answer} selection={settled} lz={lz} query={query} single={machineId != null} />
      )}
    </ReportFrame>
  );
}

function Results({
  answer,
  selection,
  lz,
  query,
  single,
}: {
  answer: PartsAnswer;
  selection: PartsSelection;
  lz: LZ;
  query: URLSearchParams;
  single: boolean;
}) {
  const token = useUserToken(api);
  const totals = useMemo(() => partsTotals(answer.machines), [answer]);
  const rows = useMemo(() => partsRows(answer.machines), [answer]);
  return (
    <>
      <SummaryTiles label={tr('parts.summaryLabel')}>
        <Tile label={tr('parts.good')} value={String(totals.parts)} />
        {/* Like with like (decision 1021): the goal against the good parts made where it was set. */}
        <Tile
          label={tr('parts.goalParts')}
          value={totals.goal == null ? '-' : String(totals.goalParts)}
          hint={tr('parts.goalPartsHint')}
        />
        <Tile label={tr('parts.goal')} value={totals.goal == null ? '-' : String(totals.goal)} />
        <Tile label={tr('parts.percent')} value={totals.percent} />
      </SummaryTiles>
      {totals.goal == null && <p className="notice">{tr('parts.noGoal')}</p>}
      <PartsChart answer={answer} selection={selection} lz={lz} />
      <section className="report__list" aria-labelledby="parts-list-heading">
        <SectionHead id="parts-list-heading" heading={tr('parts.list')}>
          <CsvLink href={partsCsvHref(selection, token)} filename="part-goals.csv" />
        </SectionHead>
        <PlainTable
          label={tr('parts.list')}
          columns={[
            { label: tr('parts.col.machine') },
            { label: tr('parts.col.parts'), num: true },
            { label: tr('parts.col.goal'), num: true },
            { label: tr('parts.col.percent'), num: true },
            { label: tr('parts.col.delta'), num: true },
          ]}
        >
          {rows.map((r) => (
            <tr key={r.machineId}>
              <td>
                {single ? r.machine : <Link to={machinePartsHref(r.machineId, query)}>{r.machine}</Link>}
              </td>
              <td className="num-col num">
                {/* Drill-down (issue 27 point 2): the machine's cycles and adjustments of the range add up to it. */}
                <Link to={machineCyclesHref(r.machineId, selection.range)}>{r.parts}</Link>
              </td>
              <td className="num-col num">{r.goal}</td>
              <td className="num-col num">{r.percent}</td>
              <td className={`num-col num${r.behind ? ' parts-behind' : ''}`}>{r.delta}</td>
            </tr>
          ))}
        </PlainTable>
      </section>
    </>
  );
}

/** Good parts per interval, one stacked colour per machine, with the goal of all of them as a line. */
function PartsChart({ answer, selection, lz }: { answer: PartsAnswer; selection: PartsSelection; lz: LZ }) {
  const navigate = useNavigate();
  const labels = answer.intervals.map((i) => {
    const label = intervalLabel(i, selection.range.interval, lz);
    return i.shiftName ? `${label} ${i.shiftName}` : label;
  });
  const goals = answer.intervals.map((_, k) => {
    const cells = answer.machines.map((m) => m.intervals[k]?.goal ?? null).filter((g) => g != null);
    return cells.length ? Math.round(cells.reduce((t, g) => t + g, 0)) : null;
  });
  const data: ChartData<'bar' | 'line', Array<number | null>, string> = {
    labels,
    datasets: [
      ...answer.machines.map((m, i) => ({
        type: 'bar' as const,
        label: m.machineName,
        data: m.intervals.map((c) => Math.round(c.parts)),
        backgroundColor: colorAt(i),
        stack: 'parts',
        order: 2,
        maxBarThickness: 40,
      })),
      ...(goals.some((g) => g != null)
        ? [
            {
              type: 'line' as const,
              label: tr('parts.goalLine'),
              data: goals,
              borderColor: 'rgb(26, 26, 26)',
              backgroundColor: 'rgb(26, 26, 26)',
              borderDash: [6, 4],
              borderWidth: 2,
              pointRadius: 2,
              order: 1,
            },
          ]
        : []),
    ],
  };
  const options: ChartOptions<'bar' | 'line'> = {
    ...CHART_BASE,
    interaction: { mode: 'index', intersect: false, axis: 'x' },
    scales: {
      x: { stacked: true, ticks: { autoSkip: true, maxRotation: 0, maxTicksLimit: 10 } },
      y: { stacked: true, beginAtZero: true, title: { display: true, text: tr('parts.good') } },
    },
    plugins: { legend: { position: 'bottom', labels: { boxWidth: 12 } } },
    // A machine's bar opens its Cycles report over that interval, whose good parts are the bar (decision 1020).
    onClick: (_e, elements) => {
      const hit = elements[0];
      const machine = hit ? answer.machines[hit.datasetIndex] : undefined;
      const cell = hit ? machine?.intervals[hit.index] : undefined;
      if (machine && cell)
        void navigate(machineCyclesHref(machine.machineId, { start: cell.start, end: cell.end }));
    },
    onHover: pointerOnHover(),
  };
  const heading = tr('parts.chart', { interval: tr(`horizon.${selection.range.interval}`).toLowerCase() });
  return (
    <ChartSection id="parts-chart-heading" heading={heading} label={tr('parts.chartLabel')}>
      <Chart type="bar" data={data} options={options} aria-label={tr('parts.chartLabel')} role="img" />
    </ChartSection>
  );
}
