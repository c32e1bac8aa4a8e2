import {
  addTotalsInto,
  checkRange,
  efficiencyTotalsSeries,
  emptyTotals,
  epochMs,
  knownStateMsSeries,
  packRollups,
} from '@takt/domain';
import type {
  CompanyCalendar,
  EfficiencyTotals,
  RangeLimitedReport,
  ReportInterval,
  Rollup,
  RollupSeries,
} from '@takt/domain';
import { ApiError } from '../http/errors';
import type { Machine } from '../repositories/machines';
import { recomputingMachines } from '../repositories/reports';
import type { ServiceCtx } from './context';

// The report calls of live-operations §7 / reports-admin §7 (decision 0700). Numbers are sums of rollups
// (decision 0009) and the metric math of packages/domain; JSON carries exact numbers, display strings and
// CSV follow METRICS.md §6.

export interface Range {
  start: number;
  end: number;
}

export const rangeError = (field: string, code: string, message: string) =>
  new ApiError(400, 'VALIDATION_ERROR', message, [{ field, code, message }]);

/** live-operations §5/§9 maximum ranges, on the company's wall clock ('Select up to 7 days'). */
export function checkReportRange(calendar: CompanyCalendar, range: Range, report?: RangeLimitedReport): void {
  const check = checkRange(calendar, { start: epochMs(range.start), end: epochMs(range.end) }, report);
  if (!check.ok) throw rangeError('end', check.error, check.message);
}

export const machineRef = (m: Pick<Machine, 'id' | 'name'>) => ({ machineId: m.id, machineName: m.name });

/** A report answer's machines whose figures in its range are still being recomputed (decision 1004). */
export type Recomputing = Array<{ machineId: string; machineName: string }>;

/** The report's machines (in its order) among `ids`. */
export const recomputingOf = (
  machines: ReadonlyArray<Pick<Machine, 'id' | 'name'>>,
  ids: Iterable<string>,
): Recomputing => {
  const set = new Set(ids);
  return machines.filter((m) => set.has(m.id)).map(machineRef);
};

/** One query: the machines with a pending recompute in the range, as a report answer lists them. */
export async function loadRecomputing(
  ctx: ServiceCtx,
  machines: ReadonlyArray<Pick<Machine, 'id' | 'name'>>,
  range: Range,
) {
  return recomputingOf(
    machines,
    await recomputingMachines(
      ctx.scope,
      machines.map((m) => m.id),
      range,
    ),
  );
}

export const intervalLabel = (i: ReportInterval) => ({
  start: i.start,
  end: i.end,
  shopDate: i.shopDate,
  ...(i.shiftName !== undefined ? { shiftId: i.shiftId, shiftName: i.shiftName } : {}),
});

// The rows of a report's range: week and day rows for its whole days, hourly rows and the facts for the rest
// (decisions 0804, 1015, 1067, 1125).
export { DAY_ALIGNED_UNITS, reportRollups } from './report-rollups';
export type { ReportCells } from './report-rollups';

/** A series' totals by shift selection, range start, then end (see rollupTotals). */
type TotalsMemo = Map<string, Map<number, Array<{ end: number; t: EfficiencyTotals }>>>;
/**
 * The totals kept with each packed series (decision 1189): a series is never changed once packed, and the kept
 * ones (the week index's cells, a kept span's rows, their joins) are shared by every call at a stamp, so their
 * cells' totals are too. Weak: they go with the series. At most TOTALS_KEPT per series (then begun again).
 */
const totalsKept = new WeakMap<RollupSeries, { memo: TotalsMemo; n: number }>();
const TOTALS_KEPT = 20_000;

/**
 * Per-machine totals (METRICS.md §2–§3) of report cells from each machine's packed series (the cells read
 * packed, else its rows packed once with packRollups), summed once per (series, range, shift selection) and kept
 * with the series (shared between calls: never changed); sums over machines add those totals (addTotalsInto), so
 * no cell is summed from rows twice.
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
  // Memo by series, shift selection and range start (Map lookups, no key string per cell), then the few ranges of
  // that start (an interval and the whole range may share it) by end.
  const keys = new WeakMap<ReadonlySet<string>, string>();
  const shiftKey = (ids: ReadonlySet<string> | null) => {
    if (!ids) return '*';
    let k = keys.get(ids);
    if (k === undefined) keys.set(ids, (k = [...ids].sort().join(',')));
    return k;
  };
  const memoOf = (of: RollupSeries, shiftIds: ReadonlySet<string> | null, start: number) => {
    let kept = totalsKept.get(of);
    if (!kept || kept.n >= TOTALS_KEPT) totalsKept.set(of, (kept = { memo: new Map(), n: 0 }));
    const k = shiftKey(shiftIds);
    let bySelection = kept.memo.get(k);
    if (!bySelection) kept.memo.set(k, (bySelection = new Map()));
    let ofStart = bySelection.get(start);
    if (!ofStart) bySelection.set(start, (ofStart = []));
    return { ofStart, kept };
  };
  /** Totals of one machine over [start, end) in the selected shifts (null = no shift filter); shared: never change them. */
  const totals = (machineId: string, r: Range, shiftIds: ReadonlySet<string> | null): EfficiencyTotals => {
    const of = seriesOf(machineId);
    const { ofStart, kept } = memoOf(of, shiftIds, r.start);
    for (const e of ofStart) if (e.end === r.end) return e.t;
    const t = efficiencyTotalsSeries(of, { start: epochMs(r.start), end: epochMs(r.end), shiftIds });
    ofStart.push({ end: r.end, t });
    kept.n++;
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
