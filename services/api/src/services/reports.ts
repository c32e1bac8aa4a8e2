import { createHash } from 'node:crypto';
import {
  addDowntimeByReasonInto,
  addTotalsInto,
  buildRollups,
  checkRange,
  efficiency,
  efficiencyTotalsSeries,
  emptyTotals,
  epochMs,
  formatDowntimeMinutes,
  formatInCycleHours,
  formatPercent,
  formatWallTime,
  inShiftDowntimeByReason,
  intersectSpans,
  isCompanyDayStart,
  knownStateMsSeries,
  packRollups,
  partsGoalCell,
  plannedLabel,
  reportIntervals,
  rollupBuckets,
  shiftOccurrences,
  showProgram,
  spansMs,
  subprogramWindow,
  utilizationCellOf,
} from '@takt/domain';
import type {
  CompanyCalendar,
  DowntimeMs,
  EfficiencyTotals,
  RangeLimitedReport,
  ReportInterval,
  ReportIntervalUnit,
  Rollup,
  RollupSeries,
  TimeRange,
  TimeSpan,
  UtilizationUnit,
} from '@takt/domain';
import { toCsv } from '../http/csv';
import { ApiError, notFound } from '../http/errors';
import type { Machine } from '../repositories/machines';
import {
  activitiesOf,
  correctionsIn,
  faultsOverlapping,
  hasSubprogramIn,
  hiddenReasonIds,
  jobNames,
  programsOverlapping,
  recomputingMachines,
  reportMachines,
  rollupState,
  runsOverlapping,
} from '../repositories/reports';
import { listStateIntervals } from '../repositories/state-intervals';
import {
  loadCalendar,
  loadRollupCells,
  loadRollupDayDowntimeByReason,
  loadRollups,
  loadRollupSource,
  loadRollupSources,
  rollupDirtyMarks,
} from '@takt/db/rollups';
import type { ServiceCtx } from './context';
import type { DowntimeItem } from './downtime';
import { downtimeItems, matchesDowntimeCategory } from './downtime';

// The report calls of live-operations §7 / reports-admin §7 (decision 0700). Numbers are sums of rollups
// (decision 0009) and the metric math of packages/domain; JSON carries exact numbers, display strings and
// CSV follow METRICS.md §6.

export interface Range {
  start: number;
  end: number;
}

const rangeError = (field: string, code: string, message: string) =>
  new ApiError(400, 'VALIDATION_ERROR', message, [{ field, code, message }]);

/** live-operations §5/§9 maximum ranges, on the company's wall clock ('Select up to 7 days'). */
function checkReportRange(calendar: CompanyCalendar, range: Range, report: RangeLimitedReport): void {
  const check = checkRange(calendar, { start: epochMs(range.start), end: epochMs(range.end) }, report);
  if (!check.ok) throw rangeError('end', check.error, check.message);
}

const machineRef = (m: Machine) => ({ machineId: m.id, machineName: m.name });

/** A report answer's machines whose figures in its range are still being recomputed (decision 1004). */
export type Recomputing = Array<{ machineId: string; machineName: string }>;

/** The report's machines (in its order) among `ids`. */
export const recomputingOf = (machines: readonly Machine[], ids: Iterable<string>): Recomputing => {
  const set = new Set(ids);
  return machines.filter((m) => set.has(m.id)).map(machineRef);
};

/** One query: the machines with a pending recompute in the range, as a report answer lists them. */
export async function loadRecomputing(ctx: ServiceCtx, machines: readonly Machine[], range: Range) {
  return recomputingOf(
    machines,
    await recomputingMachines(
      ctx.scope,
      machines.map((m) => m.id),
      range,
    ),
  );
}

const intervalLabel = (i: ReportInterval) => ({
  start: i.start,
  end: i.end,
  shopDate: i.shopDate,
  ...(i.shiftName !== undefined ? { shiftId: i.shiftId, shiftName: i.shiftName } : {}),
});

/** Report interval units whose every cell edge is a company-day start (decision 0804). */
const DAY_ALIGNED_UNITS: ReadonlySet<ReportIntervalUnit> = new Set(['day', 'week', 'month', 'quarter']);

/**
 * Whether a report can be summed from the day rows (decision 0804): its cells are days or coarser and the
 * range starts and ends on company-day starts, so each day row falls wholly inside the cell its buckets do.
 */
export function readsDayRows(calendar: CompanyCalendar, range: Range, unit: ReportIntervalUnit | undefined) {
  return (
    unit !== undefined &&
    DAY_ALIGNED_UNITS.has(unit) &&
    isCompanyDayStart(calendar, epochMs(range.start)) &&
    isCompanyDayStart(calendar, epochMs(range.end))
  );
}

/** The cells of a day-aligned report: its interval unit and its intervals (sorted, covering the range). */
export interface ReportCells {
  unit: ReportIntervalUnit;
  intervals: readonly TimeRange[];
}

/**
 * The machines' rollups over the range. Stored rows are used unless `cache` is off, the machine has a
 * pending dirty mark inside the range (late data or an edit not yet recomputed) or its rows stop before the
 * range does (the live end of today): then its rows are built from the stored facts now, with the same
 * domain code the recompute uses. The cache token fingerprints
 * what the stored rows depend on, so it changes whenever the numbers may have (decision 0700).
 *
 * With `cells` day or coarser and a range on company-day starts, stored machines are read from the week
 * and day rows (one per machine × company week or day × shift, decision 0804; loadRollupCells), each
 * wholly inside one cell, which every sum over whole cells (a cell, the range) and every shift selection
 * adds exactly as it would the hourly rows. Those rows carry empty per-reason
 * maps; with `reasons` the result's `downtimeByReason` is the in-shift downtime by reason over the range of
 * all the machines in the selected shifts (`reasons.shiftIds`; null: all shift time), from the database
 * for the stored machines and from the rows for the others.
 */
export async function reportRollups(
  ctx: ServiceCtx,
  calendar: CompanyCalendar,
  machineIds: readonly string[],
  range: Range,
  opts: {
    useStored: boolean;
    key: string;
    cells?: ReportCells;
    reasons?: { shiftIds: ReadonlySet<string> | null };
  },
): Promise<{
  rows: Map<string, Rollup[]>;
  /** The stored machines read as cells, packed; those machines' `rows` stay empty. */
  series: Map<string, RollupSeries>;
  cacheToken: string;
  downtimeByReason: Record<string, DowntimeMs>;
  /** The machines with a pending dirty mark before the range's end: figures being recomputed (decision 1004). */
  recomputing: string[];
}> {
  const cells = opts.useStored && readsDayRows(calendar, range, opts.cells?.unit) ? opts.cells : undefined;
  const rows = new Map<string, Rollup[]>(machineIds.map((id) => [id, []]));
  let state: { computedAt: Map<string, number>; dirty: Map<string, number> };
  let storedRows: Rollup[] = [];
  let series = new Map<string, RollupSeries>();
  // The reasons of every machine read alongside the cells (in parallel on PostgreSQL); read again for the
  // stored machines alone if some turn out to be built from facts (below).
  const reasonsOf = (ids: readonly string[]) =>
    loadRollupDayDowntimeByReason(ctx.scope, {
      machineIds: ids,
      ...range,
      shiftIds: opts.reasons!.shiftIds,
      clock: calendar,
    });
  let storedReasons: Promise<Record<string, DowntimeMs>> | null = null;
  if (cells) {
    // One scan gives the cells and the computed-at of every machine; those that turn out not covered
    // (below) drop theirs.
    if (opts.reasons) {
      storedReasons = reasonsOf(machineIds);
      storedReasons.catch(() => undefined); // awaited below; a failure before then is not unhandled
    }
    const [summed, dirty] = await Promise.all([
      loadRollupCells(ctx.scope, {
        machineIds,
        ...range,
        cellStarts: cells.intervals.map((i) => i.start),
        clock: calendar,
      }),
      rollupDirtyMarks(ctx.scope, machineIds),
    ]);
    state = { computedAt: summed.computedAt, dirty };
    series = summed.series;
  } else {
    state = await rollupState(ctx.scope, machineIds, range);
  }
  const freshEnd = Math.min(range.end, ctx.now);
  // Stored rows serve a machine only when they cover the range: computed after its end (rows stop at the
  // time they were computed) and no change pending inside it.
  const covered = (id: string) =>
    (state.computedAt.get(id) ?? Number.NEGATIVE_INFINITY) >= freshEnd &&
    (state.dirty.get(id) ?? Number.POSITIVE_INFINITY) >= range.end;
  const fresh = machineIds.filter((id) => !opts.useStored || !covered(id));
  const freshSet = new Set(fresh);
  const stored = machineIds.filter((id) => !freshSet.has(id));
  if (!cells) storedRows = await loadRollups(ctx.scope, { machineIds: stored, ...range });
  for (const r of storedRows) rows.get(r.machineId)!.push(r);
  for (const id of fresh) series.delete(id);
  if (fresh.length > 0 && freshEnd > range.start) {
    const span = { start: epochMs(range.start), end: epochMs(freshEnd) };
    // Machine ids come from reportMachines (the caller's company), so the bare db sees only its rows.
    const sources = await loadRollupSources(ctx.scope.db, fresh, span);
    const buckets = rollupBuckets(calendar, span);
    for (const id of fresh) rows.set(id, buildRollups(sources.get(id)!, buckets));
  }
  let downtimeByReason: Record<string, DowntimeMs> = {};
  if (opts.reasons) {
    const filter = { start: epochMs(range.start), end: epochMs(range.end), shiftIds: opts.reasons.shiftIds };
    // Machines read as cells have no rows here: their reasons come from the database.
    downtimeByReason = inShiftDowntimeByReason(
      machineIds.flatMap((id) => rows.get(id)!),
      filter,
    );
    if (storedReasons) {
      const all = await storedReasons;
      addDowntimeByReasonInto(downtimeByReason, fresh.length === 0 ? all : await reasonsOf(stored));
    }
  }
  const fingerprint = JSON.stringify([
    ctx.scope.companyId,
    opts.key,
    machineIds,
    range,
    [...state.computedAt].sort(),
    [...state.dirty].sort(),
    fresh,
  ]);
  return {
    rows,
    series,
    cacheToken: createHash('sha256').update(fingerprint).digest('hex').slice(0, 20),
    downtimeByReason,
    recomputing: machineIds.filter((id) => (state.dirty.get(id) ?? Number.POSITIVE_INFINITY) < range.end),
  };
}

/**
 * Per-machine totals (METRICS.md §2–§3) of report cells from each machine's packed series (the cells read
 * packed, else its rows packed once with packRollups), summed once per (machine, range, shift selection),
 * memoized; sums over machines add those totals (addTotalsInto), so no cell is summed from rows twice.
 */
export function rollupTotals(
  rows: ReadonlyMap<string, readonly Rollup[]>,
  packed: ReadonlyMap<string, RollupSeries>,
) {
  const series = new Map(packed);
  const seriesOf = (machineId: string) => {
    let s = series.get(machineId);
    if (!s) series.set(machineId, (s = packRollups(rows.get(machineId) ?? [])));
    return s;
  };
  // Memo by shift selection, machine and range start (Map lookups, no key string per cell), then the few
  // ranges of that start (an interval and the whole range may share it) by end.
  const memo = new Map<string, Map<string, Map<number, Array<{ end: number; t: EfficiencyTotals }>>>>();
  const keys = new WeakMap<ReadonlySet<string>, string>();
  const shiftKey = (ids: ReadonlySet<string> | null) => {
    if (!ids) return '*';
    let k = keys.get(ids);
    if (k === undefined) keys.set(ids, (k = [...ids].sort().join(',')));
    return k;
  };
  const memoOf = (machineId: string, shiftIds: ReadonlySet<string> | null, start: number) => {
    const k = shiftKey(shiftIds);
    let bySelection = memo.get(k);
    if (!bySelection) memo.set(k, (bySelection = new Map()));
    let byMachine = bySelection.get(machineId);
    if (!byMachine) bySelection.set(machineId, (byMachine = new Map()));
    let ofStart = byMachine.get(start);
    if (!ofStart) byMachine.set(start, (ofStart = []));
    return ofStart;
  };
  /** Totals of one machine over [start, end) in the selected shifts (null = no shift filter). */
  const totals = (machineId: string, r: Range, shiftIds: ReadonlySet<string> | null): EfficiencyTotals => {
    const ofStart = memoOf(machineId, shiftIds, r.start);
    for (const e of ofStart) if (e.end === r.end) return e.t;
    const t = efficiencyTotalsSeries(seriesOf(machineId), {
      start: epochMs(r.start),
      end: epochMs(r.end),
      shiftIds,
    });
    ofStart.push({ end: r.end, t });
    return t;
  };
  /** Σ totals over machines (a new object; the memoized totals stay as they are). */
  const sum = (machineIds: Iterable<string>, r: Range, shiftIds: ReadonlySet<string> | null) => {
    const t = emptyTotals();
    for (const id of machineIds) addTotalsInto(t, totals(id, r, shiftIds));
    return t;
  };
  /** Σ time in any machine state of one machine over [start, end) in the selected shifts. */
  const known = (machineId: string, r: Range, shiftIds: ReadonlySet<string> | null) =>
    knownStateMsSeries(seriesOf(machineId), { start: epochMs(r.start), end: epochMs(r.end), shiftIds });
  return { totals, sum, known };
}

// ---------------------------------------------------------------------------------------------------------
// GET /api/reports/partGoals

export interface PartGoalsQuery extends Range {
  interval: ReportIntervalUnit;
  group?: string | undefined;
  machineId?: string | undefined;
  cache: boolean;
}

export async function partGoalsReport(ctx: ServiceCtx, q: PartGoalsQuery) {
  const calendar = await loadCalendar(ctx.scope.db, ctx.scope.companyId);
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
        parts: cells.reduce((t, c) => t + c.parts, 0),
        goal: goals.length ? goals.reduce((t, c) => t + (c.goal ?? 0), 0) : null,
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

export async function utilizationReport(ctx: ServiceCtx, q: UtilizationQuery) {
  const [calendar, machines] = await Promise.all([
    loadCalendar(ctx.scope.db, ctx.scope.companyId),
    reportMachines(ctx.scope, q),
  ]);
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
  const cellsOf = (total: (i: ReportInterval) => EfficiencyTotals) =>
    intervals.map((i) => ({ ...intervalLabel(i), ...utilizationCellOf(total(i), q.unit) }));

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

// ---------------------------------------------------------------------------------------------------------
// GET /api/reports/cycles

export interface CyclesQuery extends Range {
  machineId: string;
}

export async function cyclesReport(ctx: ServiceCtx, q: CyclesQuery) {
  const [machine] = await reportMachines(ctx.scope, { machineId: q.machineId });
  const range = { start: q.start, end: q.end };
  const source = await loadRollupSource(ctx.scope.db, machine!.id, range);
  const cycles = (source.cycles ?? []).filter((c) => c.end >= q.start && c.end < q.end);
  const rejects = (source.adjustments ?? []).filter((a) => a.rejectBehavior !== null);
  const names = await jobNames(
    ctx.scope,
    cycles.flatMap((c) => (c.jobId ? [c.jobId] : [])),
  );
  return {
    range,
    ...machineRef(machine!),
    cycles: cycles.map((c) => {
      // A reject belongs to the cycle it was made on (its time within the cycle, end included).
      const mine = rejects.filter((a) => a.adjustmenttime >= c.start && a.adjustmenttime <= c.end);
      const count = (behavior: 'scrap' | 'nonconform') =>
        mine.filter((a) => a.rejectBehavior === behavior).reduce((t, a) => t + a.scrapcount, 0);
      return {
        timestamp: c.end,
        start: c.start,
        duration: c.duration,
        expectedCycleTime: c.expectedCycleTime,
        idealCycleTime: c.idealCycleTime,
        parts: c.parts,
        scraps: count('scrap'),
        nonconforms: count('nonconform'),
        setup: c.setup,
        job: c.jobId ? { id: c.jobId, name: names.get(c.jobId) ?? '' } : null,
      };
    }),
  };
}

/** The cycles grid (live-operations §2): times on the company's wall clock, durations in ms (§9). */
export function cyclesCsv(report: Awaited<ReturnType<typeof cyclesReport>>, timezone: string): string {
  return toCsv(
    ['Time', 'Duration', 'Expected', 'Ideal', 'Parts', 'Scrap', 'Non-Conform', 'Operation'],
    report.cycles.map((c) => [
      formatWallTime(timezone, c.timestamp),
      c.duration,
      c.expectedCycleTime,
      c.idealCycleTime,
      c.parts,
      c.scraps,
      c.nonconforms,
      c.job?.name ?? '',
    ]),
  );
}

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

// ---------------------------------------------------------------------------------------------------------
// GET /api/reports/operation (the machine timeline) and /api/reports/subprograms

export interface TimelineQuery extends Range {
  machineId: string;
  includeSetup?: boolean | undefined;
  instances?: boolean | undefined;
}

const pinned = (range: Range, start: number, end: number) => {
  const pinnedStart = Math.max(start, range.start);
  const pinnedEnd = Math.min(end, range.end);
  return { pinnedStart, pinnedEnd, pinnedDuration: Math.max(0, pinnedEnd - pinnedStart) };
};

export async function timelineReport(ctx: ServiceCtx, q: TimelineQuery) {
  const calendar = await loadCalendar(ctx.scope.db, ctx.scope.companyId);
  const range = { start: q.start, end: q.end };
  checkReportRange(calendar, range, 'timeline');
  const [machine] = await reportMachines(ctx.scope, { machineId: q.machineId });
  const id = machine!.id;
  const includeSetup = q.includeSetup !== false;
  const windowMs = q.end - q.start;
  const [states, source, programs, runs, resets, faults, hasSubprogram] = await Promise.all([
    listStateIntervals(ctx.scope, id, q.start, q.end),
    loadRollupSource(ctx.scope.db, id, range),
    programsOverlapping(ctx.scope, id, range, 0),
    runsOverlapping(ctx.scope, [id], range),
    correctionsIn(ctx.scope, id, range),
    faultsOverlapping(ctx.scope, id, range),
    hasSubprogramIn(ctx.scope, id, range),
  ]);
  const activities = await activitiesOf(
    ctx.scope,
    runs.map((r) => r.id),
    range,
  );
  const runById = new Map(runs.map((r) => [r.id, r]));
  /** A lane item: its own times (an open one lasts until now) and the times pinned to the window. */
  const lane = (start: number, end: number | null) => {
    const until = end ?? ctx.now;
    return { start, end, duration: until - start, ...pinned(range, start, until) };
  };
  return {
    range,
    start: q.start,
    end: q.end,
    cycleEvents: states.map((s) => ({ value: s.state, ...lane(s.start, s.end) })),
    // live-operations §9: a program shows individually only when it lasts 1/150 of the window (instances
    // lists every one).
    programs: programs
      .map((p) => ({ name: p.name, ...lane(p.start_at, p.end_at) }))
      .filter((p) => q.instances === true || showProgram(p.pinnedDuration, windowMs)),
    parts: (source.cycles ?? [])
      .filter((c) => c.end >= q.start && c.end < q.end && (includeSetup || !c.setup))
      // The cycle's duration lets the timeline judge slow and fast parts (live-operations §9).
      .map((c) => ({
        start: c.end,
        duration: c.duration,
        parts: c.parts,
        expectedCycleTime: c.expectedCycleTime,
        setup: c.setup,
      })),
    runs: runs.map((r) => ({
      jobId: r.jobId,
      jobName: r.jobName,
      start: r.startAt,
      end: r.endAt,
      jsgId: r.id,
    })),
    activities: activities
      .filter((a) => includeSetup || a.setup !== 1)
      .map((a) => ({
        activityRef: a.id,
        activitySetRef: a.job_run_id,
        activityTypeName: a.stage_name ?? (a.setup === 1 ? 'Setup' : 'Production'),
        jobName: runById.get(a.job_run_id)?.jobName ?? '',
        activityMode: a.setup === 1 ? 'setup' : 'production',
        startAt: a.start_at,
        endAt: a.end_at,
      })),
    resets: resets.map((r) => ({
      resetdate: r.adjustment_time,
      message: r.message,
      count: r.count,
      account: { displayName: r.display_name ?? r.created_by ?? '' },
    })),
    faults: faults.map((f) => ({
      start: f.start_at,
      end: f.end_at,
      duration: (f.end_at ?? ctx.now) - f.start_at,
      value: f.value,
      nativecode: f.nativecode,
      type: f.type,
    })),
    hasSubprogram,
  };
}

export const SUBPROGRAM_WINDOW_TOO_LONG = 'Sub-programs load for windows of at most 2 hours.';

/** live-operations §9: sub-programs load when the window is at most 2 hours, padded to a 2-hour span. */
export async function subprogramsReport(ctx: ServiceCtx, q: Range & { machineId: string }) {
  const window = subprogramWindow(q.start, q.end);
  if (!window) throw rangeError('end', 'RANGE_TOO_LONG', SUBPROGRAM_WINDOW_TOO_LONG);
  const [machine] = await reportMachines(ctx.scope, { machineId: q.machineId });
  const rows = await programsOverlapping(ctx.scope, machine!.id, window, 1);
  return {
    range: window,
    subprograms: rows.map((p) => ({
      name: p.name,
      start: p.start_at,
      end: p.end_at,
      duration: (p.end_at ?? ctx.now) - p.start_at,
    })),
  };
}
