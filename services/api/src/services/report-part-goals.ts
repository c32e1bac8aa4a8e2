import {
  epochMs,
  formatWallTime,
  goodParts,
  partsGoalCell,
  reportIntervals,
  sumSortedRollups,
} from '@takt/domain';
import type { ReportIntervalUnit } from '@takt/domain';
import { toCsv } from '../http/csv';
import { reportCalendar, reportMachines, runsOverlapping } from '../repositories/reports';
import type { ServiceCtx } from './context';
import { checkReportRange, machineRef, recomputingOf, intervalLabel, reportRollups } from './reports';
import type { Range } from './reports';

// ---------------------------------------------------------------------------------------------------------
// GET /api/reports/partGoals

export interface PartGoalsQuery extends Range {
  interval: ReportIntervalUnit;
  group?: string | undefined;
  machineId?: string | undefined;
  cache: boolean;
}

export async function partGoalsReport(ctx: ServiceCtx, q: PartGoalsQuery) {
  const calendar = await reportCalendar(ctx.scope);
  const range = { start: q.start, end: q.end };
  checkReportRange(calendar, range, 'parts');
  const machines = await reportMachines(ctx.scope, q);
  const ids = machines.map((m) => m.id);
  const intervals = reportIntervals(calendar, { start: epochMs(q.start), end: epochMs(q.end) }, q.interval);
  const [{ rows, cacheToken, recomputing }, runs] = await Promise.all([
    reportRollups(ctx, calendar, ids, range, { useStored: q.cache, key: `partGoals:${q.interval}` }),
    runsOverlapping(ctx.scope, ids, range),
  ]);
  return {
    range,
    interval: q.interval,
    intervals: intervals.map(intervalLabel),
    machines: machines.map((m) => {
      const mine = rows.get(m.id)!;
      const goalRuns = runs
        .filter((r) => r.machineId === m.id)
        .map((r) => ({ ...r, productionStart: r.setupEnd, end: r.endAt }));
      const cells = intervals.map((i) => ({
        ...intervalLabel(i),
        ...partsGoalCell(mine, goalRuns, i, ctx.now),
      }));
      const goals = cells.filter((c) => c.goal !== null);
      return {
        ...machineRef(m),
        // The range's good parts in one sum (METRICS.md §3), as the tablet, the job report and the cycles
        // list count a range: a reject in one interval of parts made in the one before takes them off once.
        parts: goodParts(sumSortedRollups(mine, { start: epochMs(q.start), end: epochMs(q.end) })),
        goal: goals.length ? goals.reduce((t, c) => t + (c.goal ?? 0), 0) : null,
        // Like with like (decision 1021): the good parts of the intervals that have a goal, against it.
        goalParts: goals.reduce((t, c) => t + c.parts, 0),
        intervals: cells,
      };
    }),
    cacheToken,
    recomputing: recomputingOf(machines, recomputing),
  };
}

export type PartGoalsReport = Awaited<ReturnType<typeof partGoalsReport>>;

/** One row per machine and interval; times on the company's wall clock, parts whole. */
export function partGoalsCsv(report: PartGoalsReport, timezone: string): string {
  return toCsv(
    ['Machine', 'Start', 'End', 'Parts', 'Goal'],
    report.machines.flatMap((m) =>
      m.intervals.map((i) => [
        m.machineName,
        formatWallTime(timezone, i.start),
        formatWallTime(timezone, i.end),
        i.parts,
        i.goal,
      ]),
    ),
  );
}
