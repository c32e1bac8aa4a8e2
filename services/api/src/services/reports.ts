import { createHash } from 'node:crypto';
import {
  addDowntimeByReasonInto,
  addTotalsInto,
  buildRollups,
  checkRange,
  coversWhole,
  companyDayRange,
  efficiencyTotalsSeries,
  emptyTotals,
  epochMs,
  inShiftDowntimeByReason,
  isCompanyDayStart,
  joinSeries,
  knownStateMsSeries,
  packRollups,
  rollupsOfRange,
  shopDateOf,
  splitRange,
  storedUntil,
} from '@takt/domain';
import type {
  Bucket,
  CompanyCalendar,
  DowntimeMs,
  EfficiencyTotals,
  RangeLimitedReport,
  ReportInterval,
  ReportIntervalUnit,
  Rollup,
  RollupSeries,
  TimeRange,
} from '@takt/domain';
import { ApiError } from '../http/errors';
import type { Machine } from '../repositories/machines';
import { recomputingMachines, rollupState } from '../repositories/reports';
import {
  loadRollupCells,
  loadRollupDayDowntimeByReason,
  loadRollups,
  loadRollupSources,
  rollupDirtyMarks,
} from '@takt/db/rollups';
import type { ServiceCtx } from './context';
import { buildFromFacts, groupBy } from './report-facts';

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

/** Report interval units whose every cell edge is a company-day start (decision 0804). */
export const DAY_ALIGNED_UNITS: ReadonlySet<ReportIntervalUnit> = new Set([
  'day',
  'week',
  'month',
  'quarter',
]);

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
 * The machines' rollups over the range. Stored rows are used unless `cache` is off, up to where each
 * machine's rows stop holding (decision 1067, `storedUntil`): its pending dirty mark (late data, an edit, or
 * simply live ingest, which keeps a mark minutes old on every machine) or where its rows were computed up
 * to, taken back to a bucket start. Its rows from there to the range's end (or now) are built from the
 * stored facts now, with the same domain code the recompute uses; a machine with nothing stored before that
 * point is built wholly from the facts. Either way no row straddles the range's edges: the stored part is
 * its whole stored buckets plus the bucket the range's start cuts (and the one "now" cuts, when the rows
 * hold to the end), built from the facts over their part inside it (decision 1015), so any range and every
 * cell in it sums exactly its own time, and the figures are those of building it all from the facts.
 * The cache token fingerprints
 * what the stored rows depend on, so it changes whenever the numbers may have (decision 0700).
 *
 * With `cells` day or coarser and a range on company-day starts, stored machines are read from the week
 * and day rows (one per machine × company week or day × shift, decision 0804; loadRollupCells), each
 * wholly inside one cell, which every sum over whole cells (a cell, the range) and every shift selection
 * adds exactly as it would the hourly rows. Those rows carry empty per-reason
 * maps; with `reasons` the result's `downtimeByReason` is the in-shift downtime by reason over the range of
 * all the machines in the selected shifts (`reasons.shiftIds`; null: all shift time), from the database
 * for the stored machines and from the rows for the others. On day rows a machine's stored part ends at a
 * company-day start (day rows are whole days): the day its mark falls in is built from the facts.
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
  /**
   * The stored machines read as cells, packed, with their built tail (decision 1067) packed after them;
   * those machines' `rows` hold only that tail.
   */
  series: Map<string, RollupSeries>;
  cacheToken: string;
  downtimeByReason: Record<string, DowntimeMs>;
  /** The machines with a pending dirty mark before the range's end: figures being recomputed (decision 1004). */
  recomputing: string[];
}> {
  const cells = opts.useStored && readsDayRows(calendar, range, opts.cells?.unit) ? opts.cells : undefined;
  const rows = new Map<string, Rollup[]>(machineIds.map((id) => [id, []]));
  let state: { computedAt: Map<string, number>; dirty: Map<string, number> };
  let series = new Map<string, RollupSeries>();
  // The reasons of every machine read alongside the cells (in parallel on PostgreSQL); read again for the
  // stored machines alone if some turn out to be built from facts (below).
  const reasonsOf = (ids: readonly string[], over: Range = range) =>
    loadRollupDayDowntimeByReason(ctx.scope, {
      machineIds: ids,
      ...over,
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
  // Decision 1067: each machine's stored rows serve the range up to where they stop holding (its pending
  // dirty mark or where they were computed up to, at a bucket start; on day rows at a company-day start),
  // and only the rest is built from the facts. While ingest runs every machine has a mark minutes old, so
  // a 30-day range reads 30 days of stored rows and builds minutes.
  const until = new Map<string, number>();
  /** On day rows: where the machine's hourly rows hold, from its `until` (a day start) on. */
  const hourUntil = new Map<string, number>();
  for (const id of machineIds) {
    let u = opts.useStored
      ? storedUntil(calendar, freshEnd, state.dirty.get(id), state.computedAt.get(id))
      : Number.NEGATIVE_INFINITY;
    if (cells && u < freshEnd && u > range.start) {
      hourUntil.set(id, u);
      u = companyDayRange(calendar, shopDateOf(calendar, epochMs(u))).start;
    }
    until.set(id, u);
  }
  const fresh = machineIds.filter((id) => until.get(id)! < freshEnd && until.get(id)! <= range.start);
  const freshSet = new Set(fresh);
  const stored = machineIds.filter((id) => !freshSet.has(id));
  /** Stored machines whose tail [until, freshEnd) is built from the facts. */
  const tailOf = (id: string) => (until.get(id)! < freshEnd ? until.get(id)! : null);
  if (!cells && stored.length > 0 && freshEnd > range.start) {
    // Decision 1015: the whole stored buckets inside the machine's stored prefix, and the (at most two)
    // buckets its edges cut (19:05, a mid-minute instant, now) built from the facts over their part inside
    // it, so any range has exact figures and rows never straddle its edges. A prefix ending before the
    // range's end ends on a bucket edge, so it cuts a bucket at its start only.
    const splits = new Map(
      stored.map((id) => [
        id,
        splitRange(calendar, { start: epochMs(range.start), end: epochMs(until.get(id)!) }),
      ]),
    );
    const wholes = [...splits.values()].flatMap((s) => (s.whole ? [s.whole] : []));
    const edgeIds = new Map<string, { edge: Bucket; ids: string[] }>();
    for (const [id, s] of splits)
      for (const e of s.edges) {
        const k = `${e.start}:${e.end}`;
        const seen = edgeIds.get(k);
        if (seen) seen.ids.push(id);
        else edgeIds.set(k, { edge: e, ids: [id] });
      }
    const edgeList = [...edgeIds.values()];
    const [whole, edgeSources] = await Promise.all([
      wholes.length > 0
        ? loadRollups(ctx.scope, {
            machineIds: stored,
            start: Math.min(...wholes.map((w) => w.start)),
            end: Math.max(...wholes.map((w) => w.end)),
          })
        : [],
      // Machine ids come from reportMachines (the caller's company), so the bare db sees only its rows.
      Promise.all(edgeList.map((e) => loadRollupSources(ctx.scope.db, e.ids, e.edge, { now: ctx.now }))),
    ]);
    const sourceOf = new Map(edgeList.map((e, i) => [`${e.edge.start}:${e.edge.end}`, edgeSources[i]!]));
    const wholeOf = new Map<string, Rollup[]>(stored.map((id) => [id, []]));
    for (const r of whole) wholeOf.get(r.machineId)!.push(r);
    for (const id of stored) {
      const split = splits.get(id)!;
      // A gap in the stored rows (a day left partly computed, decision 1016): built from the facts instead.
      if (!coversWhole(split, wholeOf.get(id)!)) {
        fresh.push(id);
        until.set(id, Number.NEGATIVE_INFINITY);
        continue;
      }
      rows.set(
        id,
        rollupsOfRange(split, wholeOf.get(id)!, (edges) =>
          edges.flatMap((e) => buildRollups(sourceOf.get(`${e.start}:${e.end}`)!.get(id)!, [e])),
        ),
      );
    }
  }
  for (const id of fresh) series.delete(id);
  const tailed = stored.filter((id) => !fresh.includes(id) && tailOf(id) !== null);
  /** Where each tailed machine's rows start being built from the facts. */
  const factsFrom = new Map(tailed.map((id) => [id, tailOf(id)!]));
  if (cells && tailed.length > 0) {
    // The day rows of a machine with a tail stop at its company day: its cells are summed again up to
    // there (one query per distinct day, usually today's start for all of them).
    for (const [from, ids] of groupBy(tailed, (id) => tailOf(id)!)) {
      const prefix = await loadRollupCells(ctx.scope, {
        machineIds: ids,
        start: range.start,
        end: from,
        cellStarts: cells.intervals.filter((i) => i.start < from).map((i) => i.start),
        clock: calendar,
      });
      for (const id of ids) series.set(id, prefix.series.get(id) ?? packRollups([]));
    }
    // That day up to where its hourly rows hold is read from them (a report by day ending today reads today's
    // hours, not its facts); a gap in them leaves the machine's day to the facts.
    const hourly = tailed.filter((id) => (hourUntil.get(id) ?? Number.NEGATIVE_INFINITY) > tailOf(id)!);
    if (hourly.length > 0) {
      const hours = groupBy(
        await loadRollups(ctx.scope, {
          machineIds: hourly,
          start: Math.min(...hourly.map((id) => tailOf(id)!)),
          end: Math.max(...hourly.map((id) => hourUntil.get(id)!)),
        }),
        (r) => r.machineId,
      );
      for (const id of hourly) {
        const split = splitRange(calendar, { start: epochMs(tailOf(id)!), end: epochMs(hourUntil.get(id)!) });
        const mine = hours.get(id) ?? [];
        if (split.edges.length > 0 || !coversWhole(split, mine)) continue;
        rows.set(
          id,
          rollupsOfRange(split, mine, () => []),
        );
        factsFrom.set(id, hourUntil.get(id)!);
      }
    }
  }
  if (freshEnd > range.start) {
    // Machine ids come from reportMachines (the caller's company), so the bare db sees only its rows.
    // Annotations are judged at now (METRICS.md §5), as the stored rows and the edges are.
    const spans: Array<[number, string[]]> = [
      ...(fresh.length > 0 ? [[range.start, fresh] as [number, string[]]] : []),
      ...groupBy(tailed, (id) => factsFrom.get(id)!),
    ];
    for (const [from, ids] of spans) {
      const built = await buildFromFacts(ctx, calendar, ids, { start: from, end: freshEnd });
      for (const id of ids) {
        const tail = built.get(id)!;
        if (fresh.includes(id)) rows.set(id, tail);
        else {
          rows.get(id)!.push(...tail);
          const prefix = series.get(id);
          if (prefix) series.set(id, joinSeries(prefix, packRollups(rows.get(id)!)));
        }
      }
    }
  }
  let downtimeByReason: Record<string, DowntimeMs> = {};
  if (opts.reasons) {
    const filter = { start: epochMs(range.start), end: epochMs(range.end), shiftIds: opts.reasons.shiftIds };
    // Machines read as cells have no rows here (only their built tails): their reasons come from the database.
    downtimeByReason = inShiftDowntimeByReason(
      machineIds.flatMap((id) => rows.get(id)!),
      filter,
    );
    if (storedReasons) {
      const all = await storedReasons;
      const whole = stored.filter((id) => !fresh.includes(id) && tailOf(id) === null);
      if (whole.length === stored.length && fresh.length === 0)
        addDowntimeByReasonInto(downtimeByReason, all);
      else {
        if (whole.length > 0) addDowntimeByReasonInto(downtimeByReason, await reasonsOf(whole));
        for (const [from, ids] of groupBy(tailed, (id) => tailOf(id)!))
          addDowntimeByReasonInto(downtimeByReason, await reasonsOf(ids, { start: range.start, end: from }));
      }
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
    [...until].sort(),
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
