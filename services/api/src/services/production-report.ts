import { efficiency, epochMs, oeeWaterfall, OEE_METRICS, reportIntervals } from '@takt/domain';
import type {
  CompanyCalendar,
  DowntimeMs,
  Efficiency,
  EfficiencyMetric,
  EfficiencyTotals,
  MetricPoint,
  OeeByMachineResponse,
  OeeByShiftResponse,
  OeeReportResponse,
  ProductionFigures,
  ProductionGroupBy,
  ProductionItem,
  ProductionMetric,
  ProductionResponse,
  RecomputingMachine,
  ReportInterval,
  ReportIntervalRef,
  ReportIntervalUnit,
  Rollup,
  ShiftValue,
} from '@takt/domain';
import { ApiError, notFound } from '../http/errors';
import { getAnnotationTypes } from '../repositories/annotation-types';
import { getJob } from '../repositories/jobs';
import type { Machine } from '../repositories/machines';
import { getMachine, listGroups } from '../repositories/machines';
import { reportCalendar, reportMachines, runsOverlapping } from '../repositories/reports';
import { reportCallScope } from '../repositories/config-cache';
import type { ServiceCtx } from './context';
import { recomputingOf, reportRollups, rollupTotals } from './reports';
import { shiftColors } from './shifts';

// The calls behind the OEE and utilization reports (reports-admin §2, §7; decision 0801). Every
// figure is a sum of stored rollups through the METRICS.md math of packages/domain: each machine's rows are
// packed once (packRollups) and summed once per (machine, interval, shift selection), then cells of groups
// and of all machines add those totals (addTotals), so no cell is summed from scratch.

interface Range {
  start: number;
  end: number;
}

/** A request as the routes validated it (defaults applied). */
export interface ProductionQuery extends Range {
  interval: ReportIntervalUnit;
  data: ProductionMetric[];
  filter: { machine?: string[] | undefined; machineGroup?: string | undefined; shift?: string[] | undefined };
  groupBy: ProductionGroupBy[];
  csv?: boolean | undefined;
}

export interface OeeByQuery extends Range {
  intervalType: ReportIntervalUnit;
  shifts?: string[] | undefined;
  efficiencyMetric: EfficiencyMetric;
  jobId?: string | undefined;
  machines?: string[] | undefined;
  group?: string | undefined;
}

export interface OeeReportQuery extends Range {
  interval: ReportIntervalUnit;
  group?: string | undefined;
  machineId?: string | undefined;
  shifts?: string[] | undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Limits (decision 0801): the spec names no maximum range for these reports; their quick links reach a year
// (Last 12 months, Last year). Without a limit a range from 1970 by hour is half a million cells.

/** At most two years (plus a leap day and a DST hour) … */
export const MAX_REPORT_RANGE_MS = 731 * 86_400_000 + 3_600_000;
export const RANGE_TOO_LONG_MESSAGE = 'Select up to 2 years';
/** … and at most this many intervals (hour horizon: about 83 days). */
export const MAX_REPORT_INTERVALS = 2000;
export const TOO_MANY_INTERVALS_MESSAGE = `Select a longer interval: at most ${MAX_REPORT_INTERVALS} intervals`;

const limitError = (field: string, code: string, message: string) =>
  new ApiError(400, 'VALIDATION_ERROR', message, [{ field, code, message }]);

function checkLimits(range: Range): void {
  if (range.end - range.start > MAX_REPORT_RANGE_MS)
    throw limitError('end', 'RANGE_TOO_LONG', RANGE_TOO_LONG_MESSAGE);
}

/** The report intervals of the range, refused when there would be too many. */
function intervalsOf(calendar: CompanyCalendar, range: Range, unit: ReportIntervalUnit): ReportInterval[] {
  const intervals = reportIntervals(calendar, { start: epochMs(range.start), end: epochMs(range.end) }, unit);
  if (intervals.length > MAX_REPORT_INTERVALS)
    throw limitError('interval', 'TOO_MANY_INTERVALS', TOO_MANY_INTERVALS_MESSAGE);
  return intervals;
}

// ---------------------------------------------------------------------------------------------------------
// Loading and summing

/** One report's machines, calendar, selected shifts and rollups, with the per-machine totals memoized. */
interface ReportData {
  calendar: CompanyCalendar;
  /** The report intervals of the range. */
  intervals: ReportInterval[];
  machines: Machine[];
  /** The shift filter (null: all time). */
  shiftFilter: ReadonlySet<string> | null;
  /** Rows of the machines not read as packed cells (see reportRollups). */
  rows: Map<string, Rollup[]>;
  /** In-shift downtime by reason over the range, all machines, selected shifts (only when asked for). */
  downtimeByReason: Record<string, DowntimeMs>;
  /** The machines whose figures in the range are being recomputed (decision 1004). */
  recomputing: RecomputingMachine[];
  /** Totals of one machine over [start, end) in the selected shifts (null = no shift filter). */
  totals(machineId: string, range: Range, shiftIds: ReadonlySet<string> | null): EfficiencyTotals;
  /** Σ totals over machines. */
  sum(machineIds: Iterable<string>, range: Range, shiftIds: ReadonlySet<string> | null): EfficiencyTotals;
}

/**
 * The report's machines: the listed ones (each must be the caller's company's, else 404 like every
 * report), those of a group, or all in service; both filters together keep the listed machines of the group.
 */
async function selectMachines(
  ctx: ServiceCtx,
  filter: { machineIds?: readonly string[] | undefined; group?: string | undefined },
): Promise<Machine[]> {
  const listed = await reportMachines(ctx.scope, { group: filter.group });
  if (!filter.machineIds?.length) return listed;
  const out: Machine[] = [];
  for (const id of new Set(filter.machineIds)) {
    const inList = listed.find((m) => m.id === id);
    if (inList) {
      out.push(inList);
      continue;
    }
    // A decommissioned machine of the company can still be reported; another company's id is 404.
    const m = await getMachine(ctx.scope, id);
    if (!m) throw notFound('Machine');
    if (!filter.group) out.push(m);
  }
  return out;
}

/** The shift filter's ids, each a shift of the caller's company (else 404, as GET /api/reports/downtime). */
function shiftFilterOf(calendar: CompanyCalendar, ids: readonly string[] | undefined): Set<string> | null {
  if (!ids?.length) return null;
  if (ids.some((id) => !calendar.shifts.some((s) => s.id === id))) throw notFound('Shift');
  return new Set(ids);
}

/**
 * A report call's context and its first reads started at once (decision 1240): the company's week rows stamp for the
 * call (oneCallScope) and its calendar, beside the machines' read, instead of one after the other (on PostgreSQL each
 * a round trip through the pool, a wait for a core at every one on a loaded machine).
 */
function beginCall(ctx: ServiceCtx): { call: ServiceCtx; calendar: Promise<CompanyCalendar> } {
  const call = { ...ctx, scope: reportCallScope(ctx.scope, { readStamp: true }) };
  return { call, calendar: reportCalendar(call.scope) };
}

async function loadReportData(
  ctx: ServiceCtx,
  calendar: CompanyCalendar,
  range: Range,
  machines: Machine[],
  shifts: readonly string[] | undefined,
  unit: ReportIntervalUnit,
  key: string,
  reasons = false,
): Promise<ReportData> {
  const shiftFilter = shiftFilterOf(calendar, shifts);
  // Before any rollup is read or built.
  const intervals = intervalsOf(calendar, range, unit);
  const ids = machines.map((m) => m.id);
  // Week and day rows when the cells allow (decision 0804); reasons only for the waterfall.
  const { rows, series, downtimeByReason, recomputing } = await reportRollups(ctx, calendar, ids, range, {
    useStored: true,
    key,
    cells: { unit, intervals },
    ...(reasons ? { reasons: { shiftIds: shiftFilter } } : {}),
  });
  return {
    calendar,
    intervals,
    machines,
    shiftFilter,
    rows,
    downtimeByReason,
    recomputing: recomputingOf(machines, recomputing),
    ...rollupTotals(rows, series),
  };
}

const intervalRef = (i: ReportInterval): ReportIntervalRef => ({
  start: i.start,
  end: i.end,
  shopDate: i.shopDate,
});

/** The efficiency metric of one cell. */
const metricOf = (e: Efficiency, metric: EfficiencyMetric): number | null => e[metric];

// ---------------------------------------------------------------------------------------------------------
// POST /api/reports/warehouse/production

export const OEE_SET: ReadonlySet<string> = new Set(OEE_METRICS);
/** Whether a request asks for an OEE metric (FullProduct, decision 0801) rather than utilization only. */
export const asksForOee = (data: readonly string[]) => data.some((m) => OEE_SET.has(m));

const FILTERED = { shiftFiltered: true };
const UNFILTERED = { shiftFiltered: false };

/**
 * Writes the figures of `data` into `out` (an item holding its keys, or an empty object), in the answer's key
 * order: minExpectedPartTime, missingStandards, then `data` in request order (decision 1170: no figures object
 * spread into each item).
 */
function figuresInto<T extends object>(
  out: T,
  t: EfficiencyTotals,
  data: readonly ProductionMetric[],
  shiftFiltered: boolean,
): T & ProductionFigures {
  const e = efficiency(t, shiftFiltered ? FILTERED : UNFILTERED);
  const f = out as T & ProductionFigures;
  f.minExpectedPartTime = e.minExpectedPartTime;
  f.missingStandards = e.missingStandards;
  for (const m of data) {
    switch (m) {
      case 'timeInCut':
        f[m] = t.inCutMs;
        break;
      case 'timeInCycle':
        f[m] = t.inCycleMs;
        break;
      case 'timeSpindleRotating':
        f[m] = t.spindleMs;
        break;
      case 'allTime':
        f[m] = t.allTimeMs;
        break;
      case 'utilizationRate':
        f[m] = e.inCycle;
        break;
      default:
        f[m] = e[m];
    }
  }
  return f;
}

/** One value of a groupBy dimension: the item keys it sets and how it narrows machines or time. */
interface DimKey {
  /** The item's keys in groupBy order, set one by one on a fresh object (decision 1170: no spreads). */
  keys: ReadonlyArray<readonly [ProductionGroupBy, string | number]>;
  machineIds?: ReadonlySet<string> | undefined;
  range?: Range | undefined;
  shiftIds?: ReadonlySet<string> | undefined;
}

export async function productionReport(ctx: ServiceCtx, q: ProductionQuery): Promise<ProductionResponse> {
  const range = { start: q.start, end: q.end };
  checkLimits(range);
  const { call, calendar } = beginCall(ctx);
  const [selectedMachines, cal, allGroups, colors] = await Promise.all([
    selectMachines(call, { machineIds: q.filter.machine, group: q.filter.machineGroup }),
    calendar,
    listGroups(call.scope),
    shiftColors(call),
  ]);
  const data = await loadReportData(
    call,
    cal,
    range,
    selectedMachines,
    q.filter.shift,
    q.interval,
    `production:${q.interval}`,
  );
  const { machines, shiftFilter, intervals } = data;
  const selectedIds = machines.map((m) => m.id);
  const selected = new Set(selectedIds);
  const groups = allGroups
    .map((g) => ({ ...g, machineIds: g.machineIds.filter((id) => selected.has(id)) }))
    .filter((g) => g.machineIds.length > 0);
  const shifts = colors.filter((s) => !shiftFilter || shiftFilter.has(s.id));

  const dimKeys = (dim: ProductionGroupBy): DimKey[] => {
    switch (dim) {
      case 'machine':
        return machines.map((m) => ({ keys: [['machine', m.id]], machineIds: new Set([m.id]) }));
      case 'machineGroup':
        return groups.map((g) => ({ keys: [['machineGroup', g.id]], machineIds: new Set(g.machineIds) }));
      case 'shift':
        return shifts.map((s) => ({ keys: [['shift', s.id]], shiftIds: new Set([s.id]) }));
      case 'interval':
        return intervals.map((i) => ({
          keys: [['interval', i.start]],
          range: { start: i.start, end: i.end },
        }));
    }
  };
  const combine = (a: DimKey, b: DimKey): DimKey | null => {
    let machineIds = a.machineIds ?? b.machineIds;
    if (a.machineIds && b.machineIds)
      machineIds = new Set([...a.machineIds].filter((id) => b.machineIds!.has(id)));
    if (machineIds && machineIds.size === 0) return null;
    let shiftIds = a.shiftIds ?? b.shiftIds;
    if (a.shiftIds && b.shiftIds) shiftIds = new Set([...a.shiftIds].filter((id) => b.shiftIds!.has(id)));
    const r = a.range && b.range ? undefined : (a.range ?? b.range);
    return { keys: [...a.keys, ...b.keys], machineIds, range: r, shiftIds };
  };
  const dims = [...new Set(q.groupBy)];
  let cells: DimKey[] = [];
  if (dims.length === 1) cells = dimKeys(dims[0]!);
  else if (dims.length === 2) {
    const second = dimKeys(dims[1]!);
    for (const a of dimKeys(dims[0]!))
      for (const b of second) {
        const c = combine(a, b);
        if (c) cells.push(c);
      }
  }
  const items: ProductionItem[] = cells.map((c) => {
    // A shift cell is shift time only: OOE and TEEP are null there as with the filter (METRICS.md §3).
    const shiftIds = c.shiftIds ?? shiftFilter;
    // One machine's cell is its memoized totals as they are (decision 1236, as oeeByMachine's: the same numbers
    // without a copy a cell; figuresInto only reads them).
    const t =
      c.machineIds?.size === 1
        ? data.totals(c.machineIds.values().next().value!, c.range ?? range, shiftIds)
        : data.sum(c.machineIds ?? selectedIds, c.range ?? range, shiftIds);
    const item: Record<string, string | number> = {};
    for (const [k, v] of c.keys) item[k] = v;
    return figuresInto(item, t, q.data, shiftIds !== null);
  });
  return {
    range,
    interval: q.interval,
    items,
    entities: {
      machines: machines.map((m) => ({ id: m.id, name: m.name })),
      shifts,
      machineGroups: groups.map((g) => ({ id: g.id, name: g.name })),
      intervals: intervals.map(intervalRef),
    },
    aggregate: figuresInto({}, data.sum(selectedIds, range, shiftFilter), q.data, shiftFilter !== null),
    recomputing: data.recomputing,
  };
}

// ---------------------------------------------------------------------------------------------------------
// POST /api/oee/bymachine and /api/oee/byabstractshift

/**
 * The machines of a by-machine/by-shift call. `jobId` keeps the machines that ran the job in the range
 * (rollups carry no job dimension, decision 0802); a job of another company is 404.
 */
async function oeeByData(ctx: ServiceCtx, q: OeeByQuery, key: string) {
  const range = { start: q.start, end: q.end };
  checkLimits(range);
  const { call, calendar } = beginCall(ctx);
  const [listed, cal] = await Promise.all([
    selectMachines(call, { machineIds: q.machines, group: q.group }),
    calendar,
  ]);
  let machines = listed;
  if (q.jobId) {
    if (!(await getJob(ctx.scope, q.jobId))) throw notFound('Job');
    const runs = await runsOverlapping(
      ctx.scope,
      machines.map((m) => m.id),
      range,
    );
    const ran = new Set(runs.filter((r) => r.jobId === q.jobId).map((r) => r.machineId));
    machines = machines.filter((m) => ran.has(m.id));
  }
  return { range, data: await loadReportData(call, cal, range, machines, q.shifts, q.intervalType, key) };
}

export async function oeeByMachine(ctx: ServiceCtx, q: OeeByQuery): Promise<OeeByMachineResponse> {
  const { range, data } = await oeeByData(ctx, q, `oeeByMachine:${q.intervalType}`);
  const intervals = data.intervals;
  const opts = { shiftFiltered: data.shiftFilter !== null };
  // One machine's cell is its memoized totals as they are: Σ over one machine is the same numbers, without a copy
  // per cell (efficiency only reads them; decision 1185).
  const value = (ids: readonly string[], r: Range) =>
    metricOf(
      efficiency(
        ids.length === 1 ? data.totals(ids[0]!, r, data.shiftFilter) : data.sum(ids, r, data.shiftFilter),
        opts,
      ),
      q.efficiencyMetric,
    );
  const series = (ids: readonly string[]) => ({
    intervalData: intervals.map((i): MetricPoint => ({ start: i.start, value: value(ids, i) })),
    value: value(ids, range),
  });
  const all = data.machines.map((m) => m.id);
  return {
    intervals: intervals.map(intervalRef),
    allMachines: series(all),
    machines: data.machines.map((m) => ({ machineId: m.id, name: m.name, ...series([m.id]) })),
    recomputing: data.recomputing,
  };
}

export async function oeeByShift(ctx: ServiceCtx, q: OeeByQuery): Promise<OeeByShiftResponse> {
  const [{ range, data }, colors, allGroups] = await Promise.all([
    oeeByData(ctx, q, `oeeByShift:${q.intervalType}`),
    shiftColors(ctx),
    listGroups(ctx.scope),
  ]);
  const intervals = data.intervals;
  const shifts = colors.filter((s) => !data.shiftFilter || data.shiftFilter.has(s.id));
  const selected = new Set(data.machines.map((m) => m.id));
  // A shift's cell is shift time only: OOE and TEEP are null (METRICS.md §3).
  const only = new Map(shifts.map((s) => [s.id, new Set([s.id])]));
  const value = (ids: Iterable<string>, r: Range, shiftId: string) =>
    metricOf(efficiency(data.sum(ids, r, only.get(shiftId)!), { shiftFiltered: true }), q.efficiencyMetric);
  const byShift = (ids: readonly string[]): ShiftValue[] =>
    shifts.map((s) => ({ shift: s.id, value: value(ids, range, s.id) }));
  const all = [...selected];
  const groups = allGroups
    .map((g) => ({ ...g, machineIds: g.machineIds.filter((id) => selected.has(id)) }))
    .filter((g) => g.machineIds.length > 0);
  return {
    intervals: intervals.map(intervalRef),
    shifts,
    allMachines: {
      intervalData: intervals.flatMap((i) =>
        shifts.map((s) => ({ start: i.start, shift: s.id, value: value(all, i, s.id) })),
      ),
      byShift: byShift(all),
    },
    machines: data.machines.map((m) => ({ machineId: m.id, name: m.name, byShift: byShift([m.id]) })),
    machineGroups: groups.map((g) => ({ id: g.id, name: g.name, byShift: byShift(g.machineIds) })),
    recomputing: data.recomputing,
  };
}

// ---------------------------------------------------------------------------------------------------------
// GET /api/reports/oee

export async function oeeReport(ctx: ServiceCtx, q: OeeReportQuery): Promise<OeeReportResponse> {
  const range = { start: q.start, end: q.end };
  checkLimits(range);
  const { call, calendar } = beginCall(ctx);
  const [machines, cal] = await Promise.all([
    reportMachines(call.scope, { machineId: q.machineId, group: q.group }),
    calendar,
  ]);
  const data = await loadReportData(
    call,
    cal,
    range,
    machines,
    q.shifts,
    q.interval,
    `oee:${q.interval}`,
    true,
  );
  const filtered = data.shiftFilter !== null;
  const ids = data.machines.map((m) => m.id);
  // The waterfall's totals are the range's cell; its downtime by reason comes with the rows.
  const totals = data.sum(ids, range, data.shiftFilter);
  const byReason = data.downtimeByReason;
  const types = await getAnnotationTypes(call.scope, Object.keys(byReason));
  const intervals = data.intervals;
  return {
    range,
    interval: q.interval,
    shiftFiltered: filtered,
    efficiency: efficiency(totals, { shiftFiltered: filtered }),
    intervals: intervals.map((i) => ({
      ...intervalRef(i),
      efficiency: efficiency(data.sum(ids, i, data.shiftFilter), { shiftFiltered: filtered }),
    })),
    waterfall: oeeWaterfall({
      totals,
      downtimeByReason: byReason,
      reasonNames: new Map([...types].map(([id, t]) => [id, t.name])),
    }),
    recomputing: data.recomputing,
  };
}
