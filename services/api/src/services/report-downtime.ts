import {
  epochMs,
  formatDowntimeMinutes,
  formatWallTime,
  intersectSpans,
  NO_DATA_REASON,
  NO_DATA_REASON_NAME,
  noDataSpans,
  plannedLabel,
  shiftOccurrences,
  spansMs,
  subtractSpans,
  UNCATEGORIZED_REASON,
} from '@takt/domain';
import type { RangeLimitedReport, TimeSpan } from '@takt/domain';
import { toCsv } from '../http/csv';
import { notFound } from '../http/errors';
import { companySettings } from '../repositories/company';
import {
  activitiesOf,
  hiddenReasonIds,
  reportCalendar,
  reportMachines,
  runsOverlapping,
} from '../repositories/reports';
import { loadDowntimeFacts, loadRollupSources } from '@takt/db/rollups';
import type { ServiceCtx } from './context';
import type { DowntimeItem } from './downtime';
import { downtimeItemsOfMachines, matchesDowntimeCategory, piecesOfFacts, typeOfItem } from './downtime';
import { groupBy, monitoredFromOnce } from './report-facts';
import { checkReportRange, loadRecomputing } from './reports';
import type { Range } from './reports';
import { sharedAnswer } from './report-shared';
import { inReportThread } from './report-threads';
import { storedDowntimeFigures } from './report-downtime-stored';
import type { StoredDowntime } from './report-downtime-stored';

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
  /** METRICS.md §1 No data (UNAVAILABLE time no operator reason covers); hidden like planned downtime. */
  showNoData?: boolean | undefined;
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
  /** The periods it stands for (absent: 1): a machine's stored figures of a reason (decision 1193). */
  count?: number;
  machineId: string;
  machine: string;
  /** Annotation type id, or 'uncategorized' / 'nodata' (the Pareto's and the waterfall's reason key). */
  reasonId: string;
  reason: string;
  message: string | null;
  planned: boolean | null;
  annotationType: ReasonRef | null;
  /**
   * With areActivitiesEnabled (reports-admin §6 "activity columns show in downtime", decision 1087): the job
   * and the activity (setup stage, Setup or Production, as the timeline's activities) at the stop's start.
   */
  jobName?: string | null;
  activityTypeName?: string | null;
}

const UNCATEGORIZED = 'Uncategorized';

/** The job and activity at each period's start (decision 1087), from the runs and activities of the range. */
async function addActivities(ctx: ServiceCtx, periods: ReportPeriod[], machineIds: string[], range: Range) {
  const runs = await runsOverlapping(ctx.scope, machineIds, range);
  const activities = await activitiesOf(
    ctx.scope,
    runs.map((r) => r.id),
    range,
  );
  const within = (at: number, start: number, end: number | null) => start <= at && (end ?? Infinity) > at;
  // Each machine's runs and each run's activities in their read order, so the first match is the one a find
  // over all of them gave (a month's periods each searched every run, decision 1178).
  const runsOf = groupBy(runs, (r) => r.machineId);
  const activitiesOfRun = groupBy(activities, (a) => a.job_run_id);
  for (const p of periods) {
    const run = runsOf.get(p.machineId)?.find((r) => within(p.start, r.startAt, r.endAt));
    const act = run && activitiesOfRun.get(run.id)?.find((a) => within(p.start, a.start_at, a.end_at));
    p.jobName = run?.jobName ?? null;
    p.activityTypeName = run ? (act?.stage_name ?? (act?.setup === 1 ? 'Setup' : 'Production')) : null;
  }
}

interface Tally {
  count: number;
  duration: number;
  reasonId: string;
  annotationType: ReasonRef | null;
}

function tallyByReason(periods: readonly ReportPeriod[]): Tally[] {
  const by = new Map<string, Tally>();
  for (const p of periods) {
    const key = p.reasonId;
    const t = by.get(key) ?? { count: 0, duration: 0, reasonId: key, annotationType: p.annotationType };
    t.count += p.count ?? 1;
    t.duration += p.duration;
    by.set(key, t);
  }
  // Equal durations by reason key (decision 1193: the stored figures keep no first period of a reason).
  return [...by.values()].sort(
    (a, b) => b.duration - a.duration || (a.reasonId < b.reasonId ? -1 : a.reasonId > b.reasonId ? 1 : 0),
  );
}

const kindOf = (p: Pick<ReportPeriod, 'planned' | 'annotationType' | 'reasonId'>) =>
  p.planned === true
    ? 'planned'
    : p.annotationType
      ? 'unplanned'
      : p.reasonId === NO_DATA_REASON
        ? 'nodata'
        : 'uncategorized';

/** The report's reason filter: an annotation type id, 'uncategorized' or 'nodata' (decision 1011). */
const matchesReason = (
  p: Pick<ReportPeriod, 'reasonId' | 'annotationType'>,
  categoryId: string | undefined,
) =>
  categoryId === undefined ||
  (categoryId === NO_DATA_REASON
    ? p.reasonId === NO_DATA_REASON
    : p.reasonId !== NO_DATA_REASON && matchesDowntimeCategory(p.annotationType, categoryId));

/** The report's filters (reports-admin §7): hidden reasons, the reason filter, the planned-value switches. */
function shown(p: ReportPeriod, q: DowntimeReportQuery, hidden: ReadonlySet<string>): boolean {
  if (p.annotationType && hidden.has(p.annotationType.id)) return false;
  if (!matchesReason(p, q.categoryId)) return false;
  const kind = kindOf(p);
  if (kind === 'planned') return q.showPlanned;
  if (kind === 'unplanned') return q.showUnplanned;
  if (kind === 'uncategorized') return q.showUncategorized;
  return q.showNoData !== false;
}

/**
 * The stored figures as report rows (decision 1193): one a machine, reason and planned value, standing for its
 * `count` periods (never listed: the stored path serves the figures alone), filtered as every period is.
 */
function storedPeriods(
  stored: StoredDowntime,
  machines: ReadonlyArray<{ id: string; name: string }>,
  range: { start: number; end: number },
  q: DowntimeReportQuery,
  hidden: ReadonlySet<string>,
): ReportPeriod[] {
  const out: ReportPeriod[] = [];
  for (const m of machines) {
    const figures = stored.figures.get(m.id);
    if (!figures) continue;
    for (const [reasonId, f] of Object.entries(figures)) {
      const type = stored.types.get(reasonId) ?? null;
      const parts: Array<[boolean, number, number]> = [
        [true, f.plannedMs, f.planned],
        [false, f.unplannedMs, f.unplanned],
      ];
      for (const [planned, duration, count] of parts) {
        if (duration <= 0) continue;
        const period: ReportPeriod = {
          ...range,
          duration,
          count,
          machineId: m.id,
          machine: m.name,
          reasonId,
          reason: type?.name ?? (reasonId === NO_DATA_REASON ? NO_DATA_REASON_NAME : UNCATEGORIZED),
          message: null,
          planned: type ? planned : null,
          annotationType: typeOfItem(type),
        };
        if (shown(period, q, hidden)) out.push(period);
      }
    }
  }
  return out;
}

/**
 * True when none of the machines has an ACTIVE state row beginning in [from, to): then loadDowntimeFacts over a
 * range ending at `from` reads the same rows as over one ending at `to` (the bounds of each machine end where
 * its next run after the range's end begins, or nowhere), so the facts of the longer range serve both.
 */
async function noRunBegins(ctx: ServiceCtx, ids: readonly string[], from: number, to: number) {
  if (ids.length === 0 || !(from < to)) return true;
  const row = await ctx.scope.db
    .selectFrom('state_intervals')
    .select('machine_id')
    .where('company_id', '=', ctx.scope.companyId)
    .where('machine_id', 'in', [...ids])
    .where('state', '=', 'ACTIVE')
    .where('start_at', '>=', from)
    .where('start_at', '<', to)
    .limit(1)
    .executeTakeFirst();
  return row === undefined;
}

/**
 * Company-wide downtime (reports-admin §2): each machine's periods as the workcenter list computes them
 * (setup left out, live-operations §5), clipped to the range, then to the selected shifts and, with
 * onlyScheduled, to job-run time; filtered by planned value, reason and hidden reasons. The No data of
 * METRICS.md §1 (UNAVAILABLE time in monitored life no operator reason covers, domain noDataSpans: what the
 * rollups count) is taken out of the uncategorized periods and listed as its own rows (decision 1011).
 */
async function computeDowntimeReport(
  ctx: ServiceCtx,
  q: DowntimeReportQuery,
  limit: RangeLimitedReport | null,
  /** false: the periods are not kept (the figures only), so they need no job or activity. */
  list = true,
) {
  const calendar = await reportCalendar(ctx.scope);
  const range = { start: q.start, end: q.end };
  checkReportRange(calendar, range, limit ?? undefined);
  const machines = await reportMachines(ctx.scope, q);
  const until = Math.min(q.end, ctx.now);
  const shiftIds = q.shifts?.length ? q.shifts : null;
  const unknownShift = shiftIds?.find((id) => !calendar.shifts.some((s) => s.id === id));
  if (unknownShift !== undefined) throw notFound('Shift');
  // Decision 1193: the figures alone (no list, no job-run clip) of the machines whose stored rows answer them
  // exactly; the other machines' from their states, below.
  const stored =
    list || q.onlyScheduled
      ? null
      : await storedDowntimeFigures(
          ctx,
          calendar,
          machines.map((m) => m.id),
          { start: q.start, until },
          shiftIds,
        );
  const fromStates = stored ? machines.filter((m) => !stored.figures.has(m.id)) : machines;
  const ids = fromStates.map((m) => m.id);
  // Every machine's state rows, annotations and reasons in a fixed number of queries (decision 1147): what
  // splits their downtime into periods, and what their No data up to now is judged on: read once, also for a
  // range reaching past now, unless a run begins between now and its end (decision 1160).
  const [facts, sameFacts] = await Promise.all([
    loadDowntimeFacts(ctx.scope, ids, range),
    until === q.end ? true : noRunBegins(ctx, ids, until, q.end),
  ]);
  // The facts split into pieces once, for the No data reads and the list (decision 1172), when both read them.
  const pieces = sameFacts ? piecesOfFacts(ids, facts) : undefined;
  // Where their monitored life starts, as the call's other reads take it (decision 1256: shared at its instant).
  const life = ids.length > 0 ? await monitoredFromOnce(ctx, ids) : undefined;
  const [hidden, runs, recomputing, sources, settings] = await Promise.all([
    q.includeHidden ? Promise.resolve(new Set<string>()) : hiddenReasonIds(ctx.scope),
    q.onlyScheduled ? runsOverlapping(ctx.scope, ids, range) : Promise.resolve([]),
    loadRecomputing(ctx, machines, range),
    loadRollupSources(
      ctx.scope,
      ids,
      { start: q.start, end: until },
      { now: ctx.now, downtimeOnly: true, ...(pieces ? { facts, pieces } : {}), ...(life ? { life } : {}) },
    ),
    companySettings(ctx.scope),
  ]);
  const shiftSpans: TimeSpan[] | null = shiftIds
    ? shiftOccurrences(
        calendar,
        calendar.shifts.filter((s) => shiftIds.includes(s.id)),
        epochMs(q.start),
        epochMs(q.end),
      )
    : null;

  const scheduledRuns = groupBy(runs, (r) => r.machineId);
  const noDataOf = new Map<string, TimeSpan[]>();
  for (const m of fromStates) {
    const source = sources.get(m.id);
    noDataOf.set(m.id, source ? noDataSpans(source, q.start, until) : []);
  }
  const itemsOf = await downtimeItemsOfMachines(ctx, fromStates, {
    start: q.start,
    end: q.end,
    pinToBounds: true,
    noData: noDataOf,
    facts,
    ...(pieces ? { pieces } : {}),
  });
  const periods: ReportPeriod[] = [];
  for (const m of fromStates) {
    const noData = noDataOf.get(m.id)!;
    const items = itemsOf.get(m.id)!;
    const scheduled = (scheduledRuns.get(m.id) ?? []).map((r) => ({
      start: r.startAt,
      end: r.endAt ?? ctx.now,
    }));
    /** A row of the report: `spans` (sorted) clipped to the selected shifts and scheduled time. */
    const add = (raw: TimeSpan[], row: Omit<ReportPeriod, 'start' | 'end' | 'duration'>) => {
      let spans = raw;
      if (shiftSpans) spans = intersectSpans(spans, shiftSpans);
      if (q.onlyScheduled) spans = intersectSpans(spans, scheduled);
      const duration = spansMs(spans);
      if (duration <= 0) return;
      const period: ReportPeriod = {
        start: spans[0]!.start,
        end: spans[spans.length - 1]!.end,
        duration,
        ...row,
      };
      if (shown(period, q, hidden)) periods.push(period);
    };
    for (const it of items) {
      // The list's No data pieces (decision 1060) are the spans listed below, clipped like every row.
      if (it.setup || it.noData) continue;
      const spans: TimeSpan[] = [
        { start: Math.max(it.start, q.start), end: Math.min(it.end ?? ctx.now, until) },
      ];
      const type = it.annotationType;
      add(type ? spans : subtractSpans(spans, noData), {
        machineId: m.id,
        machine: m.name,
        reasonId: type?.id ?? UNCATEGORIZED_REASON,
        reason: type?.name ?? UNCATEGORIZED,
        message: it.message,
        planned: it.planned,
        annotationType: type,
      });
    }
    for (const span of noData)
      add([span], {
        machineId: m.id,
        machine: m.name,
        reasonId: NO_DATA_REASON,
        reason: NO_DATA_REASON_NAME,
        message: null,
        planned: null,
        annotationType: null,
      });
  }
  periods.sort((a, b) => a.start - b.start || a.machine.localeCompare(b.machine));
  if (stored) periods.push(...storedPeriods(stored, machines, { start: q.start, end: until }, q, hidden));
  const activities = settings.activitiesEnabled;
  if (activities && list)
    await addActivities(
      ctx,
      periods,
      machines.map((m) => m.id),
      range,
    );

  // One pass each over the sorted periods (a month of 100 machines lists ~50,000): the sums by kind, and each
  // machine's periods in the same order as the whole list (a filter per machine was 100 passes).
  const sums = { planned: 0, unplanned: 0, uncategorized: 0, nodata: 0 };
  const periodsOf = new Map<string, ReportPeriod[]>();
  for (const p of periods) {
    sums[kindOf(p)] += p.duration;
    const mine = periodsOf.get(p.machineId);
    if (mine) mine.push(p);
    else periodsOf.set(p.machineId, [p]);
  }
  const duration = periods.reduce((t, p) => t + p.duration, 0);
  return {
    range,
    // The Pareto by reason, longest first.
    data: tallyByReason(periods).map((t) => ({
      ...t,
      reason: t.annotationType?.name ?? (t.reasonId === NO_DATA_REASON ? NO_DATA_REASON_NAME : UNCATEGORIZED),
      minutes: formatDowntimeMinutes(t.duration),
    })),
    summary: {
      count: periods.reduce((n, p) => n + (p.count ?? 1), 0),
      duration,
      minutes: formatDowntimeMinutes(duration),
      plannedDuration: sums.planned,
      unplannedDuration: sums.unplanned,
      uncategorizedDuration: sums.uncategorized,
      noDataDuration: sums.nodata,
    },
    byMachine: machines
      .map((m) => ({
        machineId: m.id,
        machine: m.name,
        downtime: tallyByReason(periodsOf.get(m.id) ?? []),
      }))
      .filter((m) => m.downtime.length > 0),
    ...(q.detail ? { items: periods } : {}),
    recomputing,
    /** The company's areActivitiesEnabled: the items carry jobName and activityTypeName. */
    activities,
    periods,
  };
}

/**
 * computeDowntimeReport, its answer shared with the same call's other callers (decision 1148). `list` false (the
 * report's JSON without detail): the answer keeps the figures only, `periods` empty, so a month of 100 machines
 * (tens of thousands of periods, more than a shared answer may weigh) is small enough to be shared (decision 1160).
 */
export const downtimeReport = (
  ctx: ServiceCtx,
  q: DowntimeReportQuery,
  /** The maximum range: the report's 31 days; the timeline list's day; the warehouse call's two years (1096). */
  limit: RangeLimitedReport | null = 'downtime',
  list = true,
) => {
  const keep = list || q.detail === true;
  return sharedAnswer(ctx, `downtime:${limit}${keep ? '' : ':figures'}`, q, q, (at) =>
    inReportThread(at, { call: 'downtime', q, limit, keep }, () => downtimeAnswer(at, q, limit, keep)),
  );
};

/** The downtime report's answer (downtimeReport's computation, here or in a report thread, decision 1253). */
export async function downtimeAnswer(
  ctx: ServiceCtx,
  q: DowntimeReportQuery,
  limit: RangeLimitedReport | null,
  keep: boolean,
) {
  const report = await computeDowntimeReport(ctx, q, limit, keep);
  return keep ? report : { ...report, periods: [] as ReportPeriod[] };
}

/**
 * The downtime grid (reports-admin §2): Start, Duration (minutes, 2 decimals), Machine, Reason, Message, Planned;
 * with activities on, Job and Activity too (decision 1087).
 */
export function downtimeCsv(periods: readonly ReportPeriod[], timezone: string, activities = false): string {
  return toCsv(
    [
      'Start',
      'Duration',
      'Machine',
      'Reason',
      'Message',
      'Planned',
      ...(activities ? ['Job', 'Activity'] : []),
    ],
    periods.map((p) => [
      formatWallTime(timezone, p.start),
      formatDowntimeMinutes(p.duration),
      p.machine,
      p.reason,
      p.message ?? '',
      p.annotationType ? plannedLabel(p.planned) : '',
      ...(activities ? [p.jobName ?? '', p.activityTypeName ?? ''] : []),
    ]),
  );
}
