import { formatDowntimeMinutes, plannedLabel } from '@takt/domain';
import type { AppliedRange, Horizon } from '@takt/ui';
import { arrayOf, boolean, nullable, number, object, optional, parseWith, string, tr } from '@takt/ui';
import { failureText, recomputingCheck } from '../reports/shared';
import { PATHS } from '../routes';

// reports-admin §2 "Downtime report (company-wide)" and /machine/{id}/downtime over GET /api/reports/downtime
// (reports-admin §7). Pure: the page renders what these functions return, tested without a browser.

/** reports-admin §9: company-wide default horizons hour, shift, day; the picker offers hour and day. */
export const DOWNTIME_HORIZONS: readonly Horizon[] = ['hour', 'day'];
export const DEFAULT_DOWNTIME_HORIZON: Horizon = 'day';
/** reports-admin §5, §9: the downtime report's maximum range. */
export const DOWNTIME_MAX_DAYS = 31;
/** The `reason` URL value of periods without a downtime reason (they have no annotation type id). */
export const UNCATEGORIZED = 'uncategorized';
/** The `reason` URL value of No data (METRICS.md §1 UNAVAILABLE time no operator reason covers, decision 1011). */
export const NO_DATA = 'nodata';

const reasonRef = object({ id: string, name: string });
const tally = {
  count: number,
  duration: number,
  // An annotation type id, 'uncategorized' or 'nodata' (decision 1011).
  reasonId: string,
  annotationType: nullable(reasonRef),
};
const answerCheck = object({
  range: object({ start: number, end: number }),
  recomputing: recomputingCheck,
  data: arrayOf(object({ ...tally, reason: string })),
  summary: object({
    count: number,
    duration: number,
    plannedDuration: number,
    unplannedDuration: number,
    uncategorizedDuration: number,
    noDataDuration: number,
  }),
  byMachine: arrayOf(object({ machineId: string, machine: string, downtime: arrayOf(object(tally)) })),
  items: optional(
    arrayOf(
      object({
        start: number,
        end: number,
        duration: number,
        machineId: string,
        machine: string,
        reasonId: string,
        reason: string,
        message: nullable(string),
        planned: nullable(boolean),
        annotationType: nullable(reasonRef),
        // With `activities` (decision 1087): the job and activity at the stop's start.
        jobName: optional(nullable(string)),
        activityTypeName: optional(nullable(string)),
      }),
    ),
  ),
  /** The company's areActivitiesEnabled: "activity columns show in downtime" (reports-admin §6). */
  activities: optional(boolean),
});
export type DowntimeAnswer = ReturnType<typeof answerCheck>;
export type DowntimePeriod = NonNullable<DowntimeAnswer['items']>[number];
export const parseDowntime = parseWith(answerCheck);

/**
 * Which kinds of downtime the report shows (GET /api/reports/downtime showPlanned/showUnplanned/
 * showUncategorized/showNoData).
 */
export interface Kinds {
  planned: boolean;
  unplanned: boolean;
  uncategorized: boolean;
  noData: boolean;
}
export const KIND_KEYS = ['planned', 'unplanned', 'uncategorized', 'noData'] as const;

/** What the page asks, from its URL. */
export interface DowntimeSelection {
  range: AppliedRange;
  group: string | null;
  /** /machine/{id}/downtime: one machine. */
  machine: string | null;
  /** The shifts filtered to; empty = no filter. */
  shifts: readonly string[];
  kinds: Kinds;
}

/** The toggles live in the URL as `hide=planned,uncategorized`, so a default view has a short URL. */
export function readKinds(q: URLSearchParams): Kinds {
  const hidden = new Set((q.get('hide') ?? '').split(','));
  return {
    planned: !hidden.has('planned'),
    unplanned: !hidden.has('unplanned'),
    uncategorized: !hidden.has('uncategorized'),
    noData: !hidden.has('noData'),
  };
}
export function writeKinds(q: URLSearchParams, kinds: Kinds): URLSearchParams {
  const next = new URLSearchParams(q);
  const hidden = KIND_KEYS.filter((k) => !kinds[k]);
  if (hidden.length) next.set('hide', hidden.join(','));
  else next.delete('hide');
  return next;
}

/**
 * `shifttime=1` (a link from an OEE waterfall step): only shift time, as the waterfall counts downtime (METRICS.md
 * §2: losses are inside shift time). With every shift ticked (no filter) the report then asks for all the shifts
 * (`shifts` = every selectable one) instead of all time, so the list adds up to the bar (issue 27 point 2).
 */
export const readShiftTime = (q: URLSearchParams): boolean => q.get('shifttime') === '1';
export function shiftsToAsk(
  filter: readonly string[] | null,
  options: ReadonlyArray<{ id: string }> | null,
  shiftTime: boolean,
): readonly string[] | null {
  if (filter === null || !shiftTime || filter.length > 0) return filter;
  return (options ?? []).map((o) => o.id);
}

/** The reason drilled into (`reason` = an annotation type id or 'uncategorized'), null for all. */
export const readReason = (q: URLSearchParams): string | null => q.get('reason') || null;
export function writeReason(q: URLSearchParams, reason: string | null): URLSearchParams {
  const next = new URLSearchParams(q);
  if (reason) next.set('reason', reason);
  else next.delete('reason');
  return next;
}

/** The query of GET /api/reports/downtime: every period (detail) for the charts and the grid. */
export function downtimeQuery(s: DowntimeSelection): Record<string, string | number> {
  const q: Record<string, string | number> = {
    start: s.range.start,
    end: s.range.end,
    detail: 'true',
    showPlanned: String(s.kinds.planned),
    showUnplanned: String(s.kinds.unplanned),
    showUncategorized: String(s.kinds.uncategorized),
    showNoData: String(s.kinds.noData),
  };
  if (s.machine) q.machineId = s.machine;
  else if (s.group) q.group = s.group;
  if (s.shifts.length) q.shifts = s.shifts.join(',');
  return q;
}

/**
 * The CSV of the grid on screen (format=csv, reports-admin §7), narrowed to the reason drilled into, with the
 * user token; null until there is a token.
 */
export function downtimeCsvHref(
  s: DowntimeSelection,
  reason: string | null,
  token: string | null,
): string | null {
  if (!token) return null;
  const q = new URLSearchParams(
    Object.entries(downtimeQuery(s)).map(([k, v]) => [k, String(v)] as [string, string]),
  );
  q.delete('detail');
  // categoryId=uncategorized selects the periods without a reason (decision 0812).
  if (reason) q.set('categoryId', reason);
  q.set('format', 'csv');
  q.set('token', token);
  return `/api/reports/downtime?${q.toString()}`;
}

/** A reason's key: its annotation type id, 'uncategorized' or 'nodata'. */
export const reasonKey = (t: {
  reasonId?: string | undefined;
  annotationType: { id: string } | null;
}): string => t.annotationType?.id ?? t.reasonId ?? UNCATEGORIZED;
export const reasonName = (t: { reasonId: string; annotationType: { name: string } | null }): string =>
  t.annotationType?.name ?? (t.reasonId === NO_DATA ? tr('downtime.noData') : tr('downtime.uncategorized'));

/** reports-admin §9: downtime minutes with 2 decimals. */
export const minutes = (ms: number): string => formatDowntimeMinutes(ms);

export interface ParetoBar {
  key: string;
  name: string;
  minutes: number;
  count: number;
  /** Accumulated share of all downtime, 0..100. */
  cumulative: number;
}

/** The pareto by reason, longest first, with the accumulated percent line. */
export function paretoBars(a: Pick<DowntimeAnswer, 'data' | 'summary'>): ParetoBar[] {
  const total = a.summary.duration;
  let sum = 0;
  return a.data.map((d) => {
    sum += d.duration;
    return {
      key: reasonKey(d),
      name: reasonName(d),
      minutes: Number(minutes(d.duration)),
      count: d.count,
      cumulative: total > 0 ? Math.round((sum / total) * 1000) / 10 : 0,
    };
  });
}

export interface StackedChart {
  machines: { id: string; name: string }[];
  /** One series per reason, in pareto order: minutes per machine. */
  series: { key: string; name: string; values: number[] }[];
}

/** Downtime by machine, stacked by reason (longest machines first); only `reason` when drilled in. */
export function stackedByMachine(
  a: Pick<DowntimeAnswer, 'data' | 'byMachine'>,
  reason: string | null,
): StackedChart {
  const reasons = a.data.filter((d) => !reason || reasonKey(d) === reason);
  const total = (m: DowntimeAnswer['byMachine'][number]) =>
    m.downtime.filter((d) => !reason || reasonKey(d) === reason).reduce((t, d) => t + d.duration, 0);
  const rows = a.byMachine
    .filter((m) => total(m) > 0)
    .sort((x, y) => total(y) - total(x) || x.machine.localeCompare(y.machine));
  return {
    machines: rows.map((m) => ({ id: m.machineId, name: m.machine })),
    series: reasons.map((r) => ({
      key: reasonKey(r),
      name: reasonName(r),
      values: rows.map((m) => {
        const d = m.downtime.find((x) => reasonKey(x) === reasonKey(r));
        return d ? Number(minutes(d.duration)) : 0;
      }),
    })),
  };
}

export interface GridRow {
  id: string;
  start: number;
  /** The stop's end (null: still down), for the timeline around it. */
  end: number | null;
  minutes: string;
  machineId: string;
  machine: string;
  reason: string;
  message: string;
  /** reports-admin §4: Planned, Unplanned or Exceeded Limit; empty without a reason (as in the CSV). */
  planned: string;
  /** With activities on (decision 1087): the job and activity at the stop's start, empty outside a run. */
  job: string;
  activity: string;
}

/** The grid (Start, Duration, Machine, Reason, Message, Planned) in time order, narrowed to `reason`. */
export function gridRows(items: readonly DowntimePeriod[], reason: string | null): GridRow[] {
  return items
    .filter((p) => !reason || reasonKey(p) === reason)
    .map((p, i) => ({
      id: `${p.machineId}-${String(p.start)}-${String(i)}`,
      start: p.start,
      end: p.end,
      minutes: minutes(p.duration),
      machineId: p.machineId,
      machine: p.machine,
      reason: reasonName(p),
      message: p.message ?? '',
      planned: p.annotationType ? plannedLabel(p.planned) : '',
      job: p.jobName ?? '',
      activity: p.activityTypeName ?? '',
    }));
}

/** Total minutes of the rows shown (2 decimals). */
export const totalMinutes = (items: readonly DowntimePeriod[], reason: string | null): string =>
  minutes(items.filter((p) => !reason || reasonKey(p) === reason).reduce((t, p) => t + p.duration, 0));

/** /machine/{id}/downtime?start&end (reports-admin §2), keeping the reason drilled into. */
export function machineDowntimeHref(id: string, range: AppliedRange, reason: string | null): string {
  const q = new URLSearchParams({
    interval: range.interval,
    start: String(range.start),
    end: String(range.end),
  });
  // The range keeps its quick-link name ("Last week") on the machine's page.
  if (range.quicklink) q.set('quicklink', range.quicklink);
  if (reason) q.set('reason', reason);
  return `/machine/${encodeURIComponent(id)}/downtime?${q.toString()}`;
}

/** The company Downtime report for the same range (the machine page's way back). */
export function companyDowntimeHref(search: string): string {
  const q = new URLSearchParams(search);
  return `${PATHS.downtime}?${q.toString()}`;
}

/**
 * reports-admin §8: "downtime reasons report shows the server message or 'An error occurred with your
 * request.'"
 */
export const downtimeErrorText = (err: unknown): string =>
  failureText(err, tr('downtimeReport.requestError'));
