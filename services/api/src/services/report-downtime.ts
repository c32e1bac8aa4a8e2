import {
  epochMs,
  formatDowntimeMinutes,
  formatWallTime,
  intersectSpans,
  plannedLabel,
  shiftOccurrences,
  spansMs,
} from '@takt/domain';
import type { TimeSpan } from '@takt/domain';
import { toCsv } from '../http/csv';
import { notFound } from '../http/errors';
import { hiddenReasonIds, reportMachines, runsOverlapping } from '../repositories/reports';
import { loadCalendar } from '@takt/db/rollups';
import type { ServiceCtx } from './context';
import type { DowntimeItem } from './downtime';
import { downtimeItems, matchesDowntimeCategory } from './downtime';
import { checkReportRange, loadRecomputing } from './reports';
import type { Range } from './reports';

// ---------------------------------------------------------------------------------------------------------
// GET /api/reports/downtime

export interface DowntimeReportQuery extends Range {
  shifts?: string[] | undefined;
  group?: string | undefined;
  machineId?: string | undefined;
  onlyScheduled?: boolean | undefined;
  showPlanned: boolean;
  showUnplanned: boolean;
  showUncategorized: boolean;
  includeHidden?: boolean | undefined;
  categoryId?: string | undefined;
  detail?: boolean | undefined;
}

type ReasonRef = NonNullable<DowntimeItem['annotationType']>;

interface ReportPeriod {
  start: number;
  end: number;
  /** Time inside the range (and the selected shifts / scheduled time). */
  duration: number;
  machineId: string;
  machine: string;
  reason: string;
  message: string | null;
  planned: boolean | null;
  annotationType: ReasonRef | null;
}

const UNCATEGORIZED = 'Uncategorized';

interface Tally {
  count: number;
  duration: number;
  annotationType: ReasonRef | null;
}

function tallyByReason(periods: readonly ReportPeriod[]): Tally[] {
  const by = new Map<string, Tally>();
  for (const p of periods) {
    const key = p.annotationType?.id ?? '';
    const t = by.get(key) ?? { count: 0, duration: 0, annotationType: p.annotationType };
    t.count += 1;
    t.duration += p.duration;
    by.set(key, t);
  }
  return [...by.values()].sort((a, b) => b.duration - a.duration);
}

const kindOf = (p: Pick<ReportPeriod, 'planned' | 'annotationType'>) =>
  p.planned === true ? 'planned' : p.annotationType ? 'unplanned' : 'uncategorized';

/**
 * Company-wide downtime (reports-admin §2): each machine's periods as the workcenter list computes them
 * (setup left out, live-operations §5), clipped to the range, then to the selected shifts and, with
 * onlyScheduled, to job-run time; filtered by planned value, reason and hidden reasons.
 */
export async function downtimeReport(ctx: ServiceCtx, q: DowntimeReportQuery) {
  const calendar = await loadCalendar(ctx.scope.db, ctx.scope.companyId);
  const range = { start: q.start, end: q.end };
  checkReportRange(calendar, range, 'downtime');
  const machines = await reportMachines(ctx.scope, q);
  const until = Math.min(q.end, ctx.now);
  const [hidden, runs, recomputing] = await Promise.all([
    q.includeHidden ? Promise.resolve(new Set<string>()) : hiddenReasonIds(ctx.scope),
    q.onlyScheduled
      ? runsOverlapping(
          ctx.scope,
          machines.map((m) => m.id),
          range,
        )
      : Promise.resolve([]),
    loadRecomputing(ctx, machines, range),
  ]);
  const shiftIds = q.shifts?.length ? q.shifts : null;
  const unknownShift = shiftIds?.find((id) => !calendar.shifts.some((s) => s.id === id));
  if (unknownShift !== undefined) throw notFound('Shift');
  const shiftSpans: TimeSpan[] | null = shiftIds
    ? shiftOccurrences(
        calendar,
        calendar.shifts.filter((s) => shiftIds.includes(s.id)),
        epochMs(q.start),
        epochMs(q.end),
      )
    : null;

  const periods: ReportPeriod[] = [];
  for (const m of machines) {
    const items = await downtimeItems(ctx, m, { start: q.start, end: q.end, pinToBounds: true });
    const scheduled = runs
      .filter((r) => r.machineId === m.id)
      .map((r) => ({ start: r.startAt, end: r.endAt ?? ctx.now }));
    for (const it of items) {
      if (it.setup) continue;
      let spans: TimeSpan[] = [
        { start: Math.max(it.start, q.start), end: Math.min(it.end ?? ctx.now, until) },
      ];
      if (shiftSpans) spans = intersectSpans(spans, shiftSpans);
      if (q.onlyScheduled) spans = intersectSpans(spans, scheduled);
      const duration = spansMs(spans);
      if (duration <= 0) continue;
      const type = it.annotationType;
      if (type && hidden.has(type.id)) continue;
      if (!matchesDowntimeCategory(type, q.categoryId)) continue;
      const period: ReportPeriod = {
        start: spans[0]!.start,
        end: spans[spans.length - 1]!.end,
        duration,
        machineId: m.id,
        machine: m.name,
        reason: type?.name ?? UNCATEGORIZED,
        message: it.message,
        planned: it.planned,
        annotationType: type,
      };
      const kind = kindOf(period);
      if (kind === 'planned' && !q.showPlanned) continue;
      if (kind === 'unplanned' && !q.showUnplanned) continue;
      if (kind === 'uncategorized' && !q.showUncategorized) continue;
      periods.push(period);
    }
  }
  periods.sort((a, b) => a.start - b.start || a.machine.localeCompare(b.machine));

  const sumOf = (kind: string) =>
    periods.filter((p) => kindOf(p) === kind).reduce((t, p) => t + p.duration, 0);
  const duration = periods.reduce((t, p) => t + p.duration, 0);
  return {
    range,
    // The Pareto by reason, longest first.
    data: tallyByReason(periods).map((t) => ({
      ...t,
      reason: t.annotationType?.name ?? UNCATEGORIZED,
      minutes: formatDowntimeMinutes(t.duration),
    })),
    summary: {
      count: periods.length,
      duration,
      minutes: formatDowntimeMinutes(duration),
      plannedDuration: sumOf('planned'),
      unplannedDuration: sumOf('unplanned'),
      uncategorizedDuration: sumOf('uncategorized'),
    },
    byMachine: machines
      .map((m) => ({
        machineId: m.id,
        machine: m.name,
        downtime: tallyByReason(periods.filter((p) => p.machineId === m.id)),
      }))
      .filter((m) => m.downtime.length > 0),
    ...(q.detail ? { items: periods } : {}),
    recomputing,
    periods,
  };
}

/** The downtime grid (reports-admin §2): Start, Duration (minutes, 2 decimals), Machine, Reason, Message, Planned. */
export function downtimeCsv(periods: readonly ReportPeriod[], timezone: string): string {
  return toCsv(
    ['Start', 'Duration', 'Machine', 'Reason', 'Message', 'Planned'],
    periods.map((p) => [
      formatWallTime(timezone, p.start),
      formatDowntimeMinutes(p.duration),
      p.machine,
      p.reason,
      p.message ?? '',
      p.annotationType ? plannedLabel(p.planned) : '',
    ]),
  );
}
