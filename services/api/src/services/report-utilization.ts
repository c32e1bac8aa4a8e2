import {
  efficiency,
  epochMs,
  formatInCycleHours,
  formatPercent,
  reportIntervals,
  utilizationCellOf,
} from '@takt/domain';
import type {
  EfficiencyTotals,
  ReportInterval,
  ReportIntervalUnit,
  UtilizationCell,
  UtilizationUnit,
} from '@takt/domain';
import { toCsv } from '../http/csv';
import { notFound } from '../http/errors';
import { reportCalendar, reportMachines } from '../repositories/reports';
import type { ServiceCtx } from './context';
import { machineRef, recomputingOf, intervalLabel, reportRollups, rollupTotals } from './reports';
import type { Range } from './reports';
import { sharedAnswer } from './report-shared';
import { inReportThread } from './report-threads';

// ---------------------------------------------------------------------------------------------------------
// GET /api/reports/utilization

export interface UtilizationQuery extends Range {
  interval: ReportIntervalUnit;
  unit: UtilizationUnit;
  group?: string | undefined;
  machineId?: string | undefined;
  /** A shift filter: only the selected shifts' time (reports-admin §2 shift filter). */
  shifts?: string[] | undefined;
}

export const NO_UTILIZATION_DATA = 'No utilization data in this range.';

export async function computeUtilizationReport(ctx: ServiceCtx, q: UtilizationQuery) {
  const [calendar, machines] = await Promise.all([reportCalendar(ctx.scope), reportMachines(ctx.scope, q)]);
  const range = { start: epochMs(q.start), end: epochMs(q.end) };
  const ids = machines.map((m) => m.id);
  const intervals = reportIntervals(calendar, range, q.interval);
  const shiftIds = q.shifts?.length ? new Set(q.shifts) : null;
  if (q.shifts?.some((id) => !calendar.shifts.some((s) => s.id === id))) throw notFound('Shift');
  const { rows, series, cacheToken, recomputing } = await reportRollups(ctx, calendar, ids, range, {
    useStored: true,
    key: `utilization:${q.interval}`,
    cells: { unit: q.interval, intervals },
  });
  // Every cell a sum of packed per-machine totals (as the OEE calls); with a shift filter, every duration is
  // the selected shifts' time (METRICS.md §2 T_all).
  const { totals, sum, known } = rollupTotals(rows, series);
  // One literal per cell, in intervalLabel's then utilizationCellOf's key order (the same JSON): spreading the two
  // into a third object was most of a year's 5,300 cells (decision 1185).
  const cellsOf = (total: (i: ReportInterval) => EfficiencyTotals) =>
    intervals.map((i): ReturnType<typeof intervalLabel> & UtilizationCell => {
      const c = utilizationCellOf(total(i), q.unit);
      return i.shiftName !== undefined
        ? {
            start: i.start,
            end: i.end,
            shopDate: i.shopDate,
            shiftId: i.shiftId,
            shiftName: i.shiftName,
            inCycleMs: c.inCycleMs,
            durationMs: c.durationMs,
            inCycle: c.inCycle,
            value: c.value,
          }
        : {
            start: i.start,
            end: i.end,
            shopDate: i.shopDate,
            inCycleMs: c.inCycleMs,
            durationMs: c.durationMs,
            inCycle: c.inCycle,
            value: c.value,
          };
    });

  const machineContextErrors: Array<{ machineId: string; machineName: string; message: string }> = [];
  const list = machines.map((m) => {
    const t = totals(m.id, range, shiftIds);
    if (known(m.id, range, shiftIds) === 0)
      machineContextErrors.push({ ...machineRef(m), message: NO_UTILIZATION_DATA });
    const e = efficiency(t, { shiftFiltered: shiftIds !== null });
    return {
      ...machineRef(m),
      ...utilizationCellOf(t, q.unit),
      spindleRotating: e.spindleRotating,
      inCut: e.inCut,
      // reports-admin §3 Report machine `oee`: the Efficiency aggregate of the range (fractions), the same
      // METRICS.md §3 figures the tile and the card show as percents for their window.
      oee: e,
      intervals: cellsOf((i) => totals(m.id, i, shiftIds)),
    };
  });
  const total = utilizationCellOf(sum(ids, range, shiftIds), q.unit);
  return {
    range,
    interval: q.interval,
    unit: q.unit,
    shiftFiltered: shiftIds !== null,
    intervals: intervals.map(intervalLabel),
    machines: list,
    machineAggregate: { ...total, intervals: cellsOf((i) => sum(ids, i, shiftIds)) },
    machineContextErrors,
    cacheToken,
    recomputing: recomputingOf(machines, recomputing),
    // reports-admin §9: utilization percents with 0 decimals; null when there is no time.
    InCyclePerc: total.inCycle === null ? null : Number(formatPercent(total.inCycle, 'utilization')),
    InCycleSeconds: total.inCycleMs / 1000,
  };
}

/** computeUtilizationReport, its answer shared with the same call's other callers (decision 1148). */
export const utilizationReport = (ctx: ServiceCtx, q: UtilizationQuery) =>
  sharedAnswer(ctx, 'utilization', q, q, (at) =>
    inReportThread(at, { call: 'utilization', q }, () => computeUtilizationReport(at, q)),
  );

/**
 * The utilization report's Machines list as CSV (reports-admin §2 Utilization report): one row per machine
 * (in-cycle, spindle-rotating, in-cut) and an All Machines row (in-cycle only, as the panel heading shows it);
 * percents with 0 decimals (§9), '-' without time.
 */
export function utilizationCsv(report: Awaited<ReturnType<typeof utilizationReport>>): string {
  const pct = (v: number | null) => formatPercent(v, 'utilization');
  return toCsv(
    ['Name', 'In-Cycle (%)', 'Spindle-Rotating (%)', 'In-Cut (%)', 'In-Cycle (h)'],
    [
      ...report.machines.map((m) => [
        m.machineName,
        pct(m.inCycle),
        pct(m.spindleRotating),
        pct(m.inCut),
        formatInCycleHours(m.inCycleMs),
      ]),
      [
        'All Machines',
        pct(report.machineAggregate.inCycle),
        '-',
        '-',
        formatInCycleHours(report.machineAggregate.inCycleMs),
      ],
    ],
  );
}
