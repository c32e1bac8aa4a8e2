import { formatPercent } from '@takt/domain';
import type {
  EfficiencyMetric,
  OeeByRequest,
  ProductionGroupBy,
  ProductionRequest,
  ReportIntervalUnit,
  WaterfallStep,
} from '@takt/domain';
import type { AppliedRange, Horizon } from '@takt/ui';
import { arrayOf, boolean, nullable, number, object, oneOf, optional, parseWith, string, tr } from '@takt/ui';
import type { MessageKey } from '@takt/ui';
import { nextSort, recomputingCheck, sortRows } from '../reports/shared';
import type { DrillDown, Sort } from '../reports/shared';

// reports-admin §2 "OEE report" over GET /api/reports/oee, POST /api/reports/warehouse/production and
// POST /api/oee/byabstractshift (contract: packages/domain/src/schemas/production-report.ts). Pure: the page
// renders what these functions return, and they are tested without a browser.

export const OEE_METRICS = ['oee', 'ooe', 'teep', 'availability', 'performance', 'quality'] as const;
export type OeeMetric = (typeof OEE_METRICS)[number];
/** The metrics a per-shift matrix, the by-shift chart and the per-metric table offer (reports-admin §2). */
export const SHIFT_METRICS = ['oee', 'availability', 'performance', 'quality'] as const satisfies readonly (
  OeeMetric | EfficiencyMetric
)[];
export type ShiftMetric = (typeof SHIFT_METRICS)[number];
/** reports-admin §9 company-wide default horizons (hour, shift, day): the OEE report opens by day. */
export const DEFAULT_OEE_HORIZON: Horizon = 'day';

export const metricLabel = (m: OeeMetric): string => tr(`oee.metric.${m}`);

// ---- Formatting (reports-admin §9, METRICS.md §6): rounding happens only here

/** OEE tiles and list tables: one decimal; null (a zero denominator) shows '-'. */
export const pct = (fraction: number | null | undefined): string => {
  const v = formatPercent(fraction ?? null, 'oeeTable');
  return v === '-' ? v : `${v}%`;
};
/** Per-shift matrices: zero decimals. */
export const pct0 = (fraction: number | null | undefined): string => {
  const v = formatPercent(fraction ?? null, 'shiftMatrix');
  return v === '-' ? v : `${v}%`;
};
/** A fraction as a chart value (percent, one decimal), null where there is none. */
export const chartValue = (fraction: number | null | undefined): number | null =>
  fraction == null || !Number.isFinite(fraction) ? null : Math.round(fraction * 1000) / 10;

// ---- Answers (light checks: the API validates with the domain's zod schemas; these guard the screen)

const fraction = nullable(number);
const figuresShape = {
  oee: optional(fraction),
  ooe: optional(fraction),
  teep: optional(fraction),
  availability: optional(fraction),
  performance: optional(fraction),
  quality: optional(fraction),
  minExpectedPartTime: optional(nullable(number)),
  missingStandards: optional(boolean),
};
const intervalRef = { start: number, end: number, shopDate: string };
const UNITS = [
  'hour',
  'shift',
  'day',
  'week',
  'month',
  'quarter',
] as const satisfies readonly ReportIntervalUnit[];
const STEP_KEYS = [
  'allTime',
  'outsideShift',
  'shiftTime',
  'plannedDowntime',
  'plannedProductionTime',
  'availabilityLoss',
  'runTime',
  'performanceLoss',
  'qualityLoss',
  'fullyProductiveTime',
] as const satisfies readonly WaterfallStep['key'][];

const summaryCheck = object({
  range: object({ start: number, end: number }),
  interval: oneOf(UNITS),
  shiftFiltered: boolean,
  efficiency: object(figuresShape),
  intervals: arrayOf(object({ ...intervalRef, efficiency: object(figuresShape) })),
  waterfall: arrayOf(
    object({
      key: oneOf(STEP_KEYS),
      kind: oneOf(['total', 'loss'] as const),
      ms: number,
      reasonId: optional(string),
      reasonName: optional(string),
      link: optional(
        object({ report: oneOf(['downtime', 'cycles', 'quality'] as const), reasonId: optional(string) }),
      ),
    }),
  ),
  recomputing: recomputingCheck,
});
/** GET /api/reports/oee (OeeReportResponse, the fields this page reads). */
export type OeeSummary = ReturnType<typeof summaryCheck>;
export type OeeFigures = OeeSummary['efficiency'];
/** The domain's step type: a parsed step is one, and tests can build them from the contract directly. */
export type OeeStep = WaterfallStep;
export const parseOeeSummary = parseWith(summaryCheck);

const entity = object({ id: string, name: string });
const productionCheck = object({
  range: object({ start: number, end: number }),
  interval: oneOf(UNITS),
  items: arrayOf(
    object({
      ...figuresShape,
      machine: optional(string),
      shift: optional(string),
      machineGroup: optional(string),
      interval: optional(number),
    }),
  ),
  entities: object({
    machines: arrayOf(entity),
    shifts: arrayOf(object({ id: string, name: string, color: nullable(string) })),
    machineGroups: arrayOf(entity),
    intervals: arrayOf(object(intervalRef)),
  }),
  aggregate: object(figuresShape),
  csv: optional(object({ url: string })),
});
/** POST /api/reports/warehouse/production (ProductionResponse). */
export type Production = ReturnType<typeof productionCheck>;
export const parseProduction = parseWith(productionCheck);

const shiftValues = arrayOf(object({ shift: string, value: fraction }));
const byShiftCheck = object({
  intervals: arrayOf(object(intervalRef)),
  shifts: arrayOf(object({ id: string, name: string, color: nullable(string) })),
  allMachines: object({
    intervalData: arrayOf(object({ start: number, value: fraction, shift: string })),
    byShift: shiftValues,
  }),
  machines: arrayOf(object({ machineId: string, name: string, byShift: shiftValues })),
  machineGroups: arrayOf(object({ id: string, name: string, byShift: shiftValues })),
});
/** POST /api/oee/byabstractshift (OeeByShiftResponse). */
export type ByShift = ReturnType<typeof byShiftCheck>;
export const parseByShift = parseWith(byShiftCheck);

// ---- Requests

/** What the page shows, from its URL (range, group, machine) and the stored shift filter. */
export interface OeeSelection extends DrillDown {
  range: AppliedRange;
  /** The shifts filtered to; empty = no filter (all shifts). */
  shifts: readonly string[];
}

/** GET /api/reports/oee: tiles, chart intervals and the loss waterfall. A machine wins over its group. */
export function summaryQuery(
  s: OeeSelection,
  interval: Horizon = s.range.interval,
): Record<string, string | number> {
  const q: Record<string, string | number> = { start: s.range.start, end: s.range.end, interval };
  if (s.machine) q.machineId = s.machine;
  else if (s.group) q.group = s.group;
  if (s.shifts.length) q.shifts = s.shifts.join(',');
  return q;
}

export type ListKind = 'shift' | 'machineGroup' | 'machine';

export function productionFilter(s: OeeSelection): NonNullable<ProductionRequest['filter']> {
  const filter: NonNullable<ProductionRequest['filter']> = {};
  if (s.machine) filter.machine = [s.machine];
  else if (s.group) filter.machineGroup = s.group;
  if (s.shifts.length) filter.shift = [...s.shifts];
  return filter;
}

/** One list's figures (with its CSV link) or, with `overTime`, its OEE per interval for the sparklines. */
export function listRequest(s: OeeSelection, kind: ListKind, overTime: boolean): ProductionRequest {
  const groupBy: ProductionGroupBy[] = overTime ? [kind, 'interval'] : [kind];
  return {
    start: s.range.start,
    end: s.range.end,
    interval: s.range.interval,
    data: overTime ? ['oee'] : [...OEE_METRICS],
    filter: productionFilter(s),
    groupBy,
    ...(overTime ? {} : { csv: true }),
  };
}

/** The per-shift figures of one metric: matrices, the by-shift chart and the per-metric table. */
export function byShiftRequest(
  s: OeeSelection,
  metric: ShiftMetric | 'inCycle',
  interval: Horizon,
): OeeByRequest {
  const r: OeeByRequest = {
    intervalType: interval,
    start: s.range.start,
    end: s.range.end,
    efficiencyMetric: metric,
  };
  if (s.shifts.length) r.shifts = [...s.shifts];
  if (s.machine) r.machines = [s.machine];
  else if (s.group) r.group = s.group;
  return r;
}

/** A CSV link carries the user token (reports-admin §7); null until there is a token. */
export function csvHref(url: string | undefined, token: string | null): string | null {
  if (!url || !token) return null;
  const u = new URL(url, 'http://relative.invalid');
  u.searchParams.set('token', token);
  return u.origin === 'http://relative.invalid' ? `${u.pathname}${u.search}` : u.toString();
}

// ---- Summary (reports-admin §2)

/** 'OEE Report for {group name | All Machines | machine name}'. */
export function reportTitle(
  d: DrillDown,
  names: { group?: string | undefined; machine?: string | undefined },
): string {
  const subject = d.machine ? (names.machine ?? '…') : d.group ? (names.group ?? '…') : tr('oee.allMachines');
  return tr('oee.title', { name: subject });
}

/** 'No OEE data in this range.' when no tile has a value. */
export const isEmpty = (s: OeeSummary): boolean => OEE_METRICS.every((m) => s.efficiency[m] == null);

/** The six tiles; with a shift filter OOE and TEEP are hidden (they have no meaning for part of the day). */
export const tileMetrics = (shiftFiltered: boolean): OeeMetric[] =>
  OEE_METRICS.filter((m) => !shiftFiltered || (m !== 'ooe' && m !== 'teep'));

/**
 * METRICS.md §3: run time or a run without operation standards (missingStandards, or minExpectedPartTime 0)
 * makes Performance unreliable (decision 1002).
 */
export const showsStandardsWarning = (
  f: Pick<OeeFigures, 'minExpectedPartTime'> & { missingStandards?: boolean | undefined },
): boolean => f.missingStandards === true || f.minExpectedPartTime === 0;

// ---- Chart (reports-admin §2 chart dropdown)

export const CHART_TYPES = ['components', 'compare', 'byShift'] as const;
export type ChartType = (typeof CHART_TYPES)[number];
export const chartTypeLabel = (c: ChartType): string => tr(`oee.chart.${c}`);

/** 'Compare OEE, OOE and TEEP' is not offered while shift-filtered. */
export const chartTypes = (shiftFiltered: boolean): ChartType[] =>
  CHART_TYPES.filter((c) => !shiftFiltered || c !== 'compare');

export interface Series {
  label: string;
  values: (number | null)[];
  /** Index into the nine chart colours, or a shift's own colour. */
  color: number | string;
}

/** The datasets of 'All OEE Components' and 'Compare OEE, OOE and TEEP' over the summary's intervals. */
export function summarySeries(chart: Exclude<ChartType, 'byShift'>, s: OeeSummary): Series[] {
  const metrics: OeeMetric[] =
    chart === 'components' ? ['oee', 'availability', 'performance', 'quality'] : ['oee', 'ooe', 'teep'];
  return metrics.map((m, i) => ({
    label: metricLabel(m),
    values: s.intervals.map((c) => chartValue(c.efficiency[m])),
    color: i,
  }));
}

/** 'Compare … by Shift': one dataset per shift, the chosen metric over the intervals. */
export function byShiftSeries(b: ByShift): {
  labels: { start: number; shopDate: string }[];
  series: Series[];
} {
  const series = b.shifts.map((sh, i) => {
    const byStart = new Map(
      b.allMachines.intervalData.filter((p) => p.shift === sh.id).map((p) => [p.start, p.value]),
    );
    return {
      label: sh.name,
      values: b.intervals.map((c) => chartValue(byStart.get(c.start))),
      color: sh.color ?? i,
    };
  });
  return { labels: b.intervals, series };
}

// ---- Lists (reports-admin §2 "List table")

export const LIST_TITLE: Record<ListKind, MessageKey> = {
  shift: 'oee.shifts',
  machineGroup: 'oee.machineGroups',
  machine: 'oee.machines',
};

/** Shifts only if shift data exists; groups only if group data exists and no group or machine is chosen. */
export function visibleLists(d: DrillDown, hasData: Record<ListKind, boolean>): ListKind[] {
  const out: ListKind[] = [];
  if (hasData.shift) out.push('shift');
  if (hasData.machineGroup && !d.group && !d.machine) out.push('machineGroup');
  out.push('machine');
  return out;
}

/** Name, OEE, OOE, TEEP (not for shifts or when shift-filtered), Availability, Performance, Quality. */
export function listColumns(kind: ListKind, shiftFiltered: boolean): OeeMetric[] {
  return tileMetrics(shiftFiltered || kind === 'shift');
}

export interface ListRow {
  id: string;
  name: string;
  figures: Partial<Record<OeeMetric, number | null>>;
  /** OEE per interval, percent (one decimal), null where there is none. */
  overTime: (number | null)[];
}

const entitiesOf = (p: Production, kind: ListKind): { id: string; name: string }[] =>
  kind === 'machine' ? p.entities.machines : kind === 'shift' ? p.entities.shifts : p.entities.machineGroups;

/** The rows of one list: figures from the list call, sparkline points from its per-interval call. */
export function listRows(kind: ListKind, figures: Production, overTime: Production | null): ListRow[] {
  const names = new Map(entitiesOf(figures, kind).map((e) => [e.id, e.name]));
  if (overTime) for (const e of entitiesOf(overTime, kind)) if (!names.has(e.id)) names.set(e.id, e.name);
  const intervals = overTime?.entities.intervals ?? [];
  return figures.items.flatMap((item) => {
    const id = item[kind];
    if (id == null) return [];
    const points = new Map(
      (overTime?.items ?? []).filter((p) => p[kind] === id).map((p) => [p.interval, p.oee]),
    );
    const row: ListRow = {
      id,
      name: names.get(id) ?? id,
      figures: Object.fromEntries(OEE_METRICS.map((m) => [m, item[m] ?? null])),
      overTime: intervals.map((c) => chartValue(points.get(c.start))),
    };
    return [row];
  });
}

export type ListColumn = 'name' | OeeMetric;
export type ListSort = Sort<ListColumn>;
export const DEFAULT_LIST_SORT: ListSort = { key: 'name', direction: 'ascending' };

export const sortList = (rows: readonly ListRow[], sort: ListSort): ListRow[] =>
  sortRows(
    rows,
    sort,
    (r) => r.name,
    (r, key: OeeMetric) => r.figures[key],
  );
export const nextListSort = (s: ListSort, key: ListColumn): ListSort => nextSort(s, key);

/** reports-admin §2: Summary, or a per-shift matrix of one metric (non-shift lists with more than one item). */
export type ListView = 'summary' | ShiftMetric;
export const offersMatrix = (kind: ListKind, rowCount: number): boolean => kind !== 'shift' && rowCount > 1;
export const listViewLabel = (v: ListView): string =>
  v === 'summary' ? tr('oee.view.summary') : tr('oee.view.matrix', { metric: metricLabel(v) });

export interface Matrix {
  shifts: { id: string; name: string }[];
  rows: { id: string; name: string; values: Record<string, number | null> }[];
}

/** One row per machine (or group), one column per shift; the values are fractions, shown with zero decimals. */
export function matrix(kind: Exclude<ListKind, 'shift'>, b: ByShift): Matrix {
  const source =
    kind === 'machine'
      ? b.machines.map((m) => ({ id: m.machineId, name: m.name, byShift: m.byShift }))
      : b.machineGroups;
  return {
    shifts: b.shifts.map((s) => ({ id: s.id, name: s.name })),
    rows: source.map((r) => ({
      id: r.id,
      name: r.name,
      values: Object.fromEntries(r.byShift.map((v) => [v.shift, v.value])),
    })),
  };
}

export const sortMatrix = (rows: Matrix['rows'], sort: Sort<string>): Matrix['rows'] =>
  sortRows(
    rows,
    sort,
    (r) => r.name,
    (r, key) => r.values[key],
  );

// ---- Summary table by interval (reports-admin §2)

/** The table is by day or week: the report's own interval when it is one of them, else by day. */
export type TableInterval = 'day' | 'week';
export const defaultTableInterval = (h: Horizon): TableInterval => (h === 'week' ? 'week' : 'day');
export type TableMode = 'all' | ShiftMetric;

export interface SummaryTable {
  columns: string[];
  rows: { key: number; start: number; shopDate: string; cells: string[] }[];
}

/** 'all' mode: date, OEE, availability, performance, quality (one decimal). */
export function allComponentsTable(s: OeeSummary): SummaryTable {
  const metrics: OeeMetric[] = ['oee', 'availability', 'performance', 'quality'];
  return {
    columns: metrics.map(metricLabel),
    rows: s.intervals.map((c) => ({
      key: c.start,
      start: c.start,
      shopDate: c.shopDate,
      cells: metrics.map((m) => pct(c.efficiency[m])),
    })),
  };
}

/** Per-metric mode: one column per shift (zero decimals, as per-shift matrices). */
export function perShiftTable(b: ByShift): SummaryTable {
  const value = new Map(b.allMachines.intervalData.map((p) => [`${p.start}|${p.shift}`, p.value]));
  return {
    columns: b.shifts.map((s) => s.name),
    rows: b.intervals.map((c) => ({
      key: c.start,
      start: c.start,
      shopDate: c.shopDate,
      cells: b.shifts.map((s) => pct0(value.get(`${c.start}|${s.id}`))),
    })),
  };
}
