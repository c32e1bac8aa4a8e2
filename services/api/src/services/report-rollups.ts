import { createHash } from 'node:crypto';
import {
  addDowntimeByReasonInto,
  companyDayRange,
  epochMs,
  inShiftDowntimeByReason,
  joinSeries,
  packRollups,
  shopDateOf,
  splitAtDays,
  splitRange,
  storedUntil,
} from '@takt/domain';
import type {
  CompanyCalendar,
  DowntimeMs,
  RangeSplit,
  ReportIntervalUnit,
  Rollup,
  RollupSeries,
  TimeRange,
} from '@takt/domain';
import {
  indexedDowntimeByReason,
  indexedRollupCells,
  indexedRollups,
  rollupDirtyMarks,
} from '@takt/db/rollups';
import { noMarksBefore, reportCallScope } from '../repositories/config-cache';
import { rollupState } from '../repositories/reports';
import type { ServiceCtx } from './context';
import { buildFromFacts, groupBy } from './report-facts';
import { packedOf, spanReasons, spanRows } from './report-spans';
import type { SpanOf, SpanRows } from './report-spans';

// The rollup rows of a report's range (decisions 0700, 0804, 1015, 1067, 1125), for services/reports.ts.

interface Range {
  start: number;
  end: number;
}

/** Report interval units whose every cell edge is a company-day start (decision 0804). */
export const DAY_ALIGNED_UNITS: ReadonlySet<ReportIntervalUnit> = new Set([
  'day',
  'week',
  'month',
  'quarter',
]);

/** The cells of a day-aligned report: its interval unit and its intervals (sorted, covering the range). */
export interface ReportCells {
  unit: ReportIntervalUnit;
  intervals: readonly TimeRange[];
}

/** How one stored machine's range is read (decision 1125): hourly spans around its whole days' cells. */
interface StoredPlan {
  /** Its whole company days read from week and day rows: [days.start, cellsEnd); null: none. */
  cellsEnd: number | null;
  /** Its spans read from hourly rows, their cut buckets built from the facts (at most two, in time order). */
  spans: Array<{ span: Range; split: RangeSplit }>;
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
 * The cache token fingerprints what the stored rows depend on, so it changes whenever the numbers may have
 * (decision 0700).
 *
 * With `cells` day or coarser, whatever the range's edges (decision 1125, `splitAtDays`): the whole company
 * days of a stored machine's stored part are read from the week and day rows (one per machine × company
 * week or day × shift, decision 0804; loadRollupCells), each wholly inside one cell, which every sum over
 * whole cells and every shift selection adds exactly as it would the hourly rows; only the partial days at
 * the range's edges (a range starting 10:17) and the day its stored rows stop in are read from hourly rows
 * (plus the cut buckets from the facts). Those week and day rows carry empty per-reason maps; with `reasons`
 * the result's `downtimeByReason` is the in-shift downtime by reason over the range of all the machines in
 * the selected shifts (`reasons.shiftIds`; null: all shift time), from the database for the week and day
 * rows and from the rows for the rest.
 */
export async function reportRollups(
  callCtx: ServiceCtx,
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
   * The machines read partly from week and day rows, packed: their hourly and built rows before and after
   * those; their `rows` hold only the hourly and built ones.
   */
  series: Map<string, RollupSeries>;
  cacheToken: string;
  downtimeByReason: Record<string, DowntimeMs>;
  /** The machines with a pending dirty mark before the range's end: figures being recomputed (decision 1004). */
  recomputing: string[];
}> {
  // The company's week rows stamp read once for the call's reads of the week index, partial days and spans (decision 1197).
  const ctx = { ...callCtx, scope: reportCallScope(callCtx.scope) };
  const cells =
    opts.useStored && opts.cells && DAY_ALIGNED_UNITS.has(opts.cells.unit) ? opts.cells : undefined;
  const daySplit = cells ? splitAtDays(calendar, range) : null;
  const days = daySplit?.days ?? null;
  /** The report's cell starts inside [from, to), `from` first: what decides which weeks are whole. */
  const cellStarts = (from: number, to: number) => [
    from,
    ...cells!.intervals.map((i) => i.start as number).filter((t) => t > from && t < to),
  ];
  const rows = new Map<string, Rollup[]>(machineIds.map((id) => [id, []]));
  let state: { computedAt: Map<string, number>; dirty: Map<string, number> };
  /** Hourly rows already read over the partial days (decision 1157): hourlyRows takes its spans from them. */
  let edgeRows: ReadonlyArray<{ span: Range; rows: Rollup[] }> = [];
  let daySeries = new Map<string, RollupSeries>();
  // Whole weeks from the company's week index, the rest from day rows (decisions 1157, 1166).
  const reasonsOf = (ids: readonly string[], over: Range) =>
    indexedDowntimeByReason(ctx.scope, {
      machineIds: ids,
      ...over,
      shiftIds: opts.reasons!.shiftIds,
      clock: calendar,
    });
  // The reasons of every machine's whole days up to where a machine whose rows hold to now reads them from the
  // cells (`reasonsEnd`, decision 1214: today's start when the range's whole days reach past now), read alongside
  // the cells (in parallel on PostgreSQL); read again for fewer machines or days if some turn out to be built from
  // the facts or their rows stop earlier (below).
  let storedReasons: Promise<Record<string, DowntimeMs>> | null = null;
  const reasonsEnd = days ? storedPlan(calendar, range, days, Math.min(range.end, ctx.now)).cellsEnd : null;
  if (days) {
    if (opts.reasons && reasonsEnd !== null) {
      storedReasons = reasonsOf(machineIds, { start: days.start, end: reasonsEnd });
      storedReasons.catch(() => undefined); // awaited below; a failure before then is not unhandled
    }
    // One scan gives the cells and the computed-at of every machine's whole days; the partial days' rows
    // give theirs (a day is recomputed whole, its rows in one transaction with its day and week rows).
    const edgeSpans = [daySplit!.head, daySplit!.tail].filter((s): s is Range => s !== null);
    // The partial days' hourly rows are read here once, for their computed-at and for hourlyRows below.
    const edgeComputed = new Map<string, number>();
    const [summed, dirty] = await Promise.all([
      indexedRollupCells(ctx.scope, {
        machineIds,
        ...days,
        cellStarts: cellStarts(days.start, days.end),
        clock: calendar,
      }),
      // Decision 1251: none pending before the range's end at the call's version (the marks are judged against it).
      noMarksBefore(ctx.scope, range.end)
        ? new Map<string, number>()
        : rollupDirtyMarks(ctx.scope, machineIds),
      Promise.all(
        edgeSpans.map(async (span) => ({
          span,
          // Kept while the company's week rows stamp holds: the other calls over this range read them once.
          rows: await indexedRollups(ctx.scope, {
            machineIds: [...machineIds],
            ...span,
            computedAt: edgeComputed,
          }),
        })),
      ).then((read) => (edgeRows = read)),
    ]);
    const computedAt = new Map(summed.computedAt);
    for (const [id, at] of edgeComputed) computedAt.set(id, Math.max(at, computedAt.get(id) ?? at));
    state = { computedAt, dirty };
    daySeries = summed.series;
  } else {
    state = await rollupState(ctx.scope, machineIds, range);
  }
  const freshEnd = Math.min(range.end, ctx.now);
  // Decision 1067: each machine's stored rows serve the range up to where they stop holding (its pending
  // dirty mark or where they were computed up to, at a bucket start), and only the rest is built from the
  // facts. While ingest runs every machine has a mark minutes old, so a year's range reads the year's stored
  // rows and builds minutes.
  const until = new Map<string, number>();
  for (const id of machineIds)
    until.set(
      id,
      opts.useStored
        ? storedUntil(calendar, freshEnd, state.dirty.get(id), state.computedAt.get(id))
        : Number.NEGATIVE_INFINITY,
    );
  const fresh = machineIds.filter((id) => until.get(id)! < freshEnd && until.get(id)! <= range.start);
  const plans = new Map<string, StoredPlan>();
  // Machines stored up to the same point share one plan: its spans' buckets are computed once, not per machine.
  const planOf = new Map<number, StoredPlan>();
  if (freshEnd > range.start)
    for (const id of machineIds) {
      if (fresh.includes(id)) continue;
      const at = until.get(id)!;
      let plan = planOf.get(at);
      if (!plan) planOf.set(at, (plan = storedPlan(calendar, range, days, at)));
      if (plan.cellsEnd === null) daySeries.delete(id);
      plans.set(id, plan);
    }
  const hourly = await hourlyRows(ctx, calendar, plans, edgeRows);
  /** Each stored machine's kept spans (shared between calls: never changed). */
  const spansOf = new Map<string, Array<{ span: Range; rows: SpanRows }>>();
  let gaps = false;
  for (const [id, spans] of hourly) {
    if (spans) {
      spansOf.set(id, spans);
      rows.set(
        id,
        spans.flatMap((s) => s.rows.rows.get(id)!),
      );
    } else {
      gaps = true;
      // A gap in the stored hourly rows (a day left partly computed, decision 1016): built from the facts.
      fresh.push(id);
      plans.delete(id);
      until.set(id, Number.NEGATIVE_INFINITY);
    }
  }
  for (const id of fresh) daySeries.delete(id);
  const stored = [...plans.keys()];
  const withCells = stored.filter((id) => plans.get(id)!.cellsEnd !== null);
  if (days) {
    // Whole days whose rows stop before the range's last one: the cells summed again up to their end (one
    // query per distinct day, usually today's start for every machine while ingest runs).
    const short = withCells.filter((id) => plans.get(id)!.cellsEnd! < days.end);
    for (const [end, ids] of groupBy(short, (id) => plans.get(id)!.cellsEnd!)) {
      const prefix = await indexedRollupCells(ctx.scope, {
        machineIds: ids,
        start: days.start,
        end,
        cellStarts: cellStarts(days.start, end),
        clock: calendar,
      });
      for (const id of ids) daySeries.set(id, prefix.series.get(id) ?? packRollups([]));
    }
  }
  /** The rows built from the facts after a stored machine's stored rows (a live range's minutes since its mark). */
  const builtAfter = new Map<string, readonly Rollup[]>();
  if (freshEnd > range.start) {
    // Machine ids come from reportMachines (the caller's company), so the bare db sees only its rows.
    // Annotations are judged at now (METRICS.md §5), as the stored rows and the edges are.
    const tailed = stored.filter((id) => until.get(id)! < freshEnd);
    const spans: Array<[number, string[]]> = [
      ...(fresh.length > 0 ? [[range.start, fresh] as [number, string[]]] : []),
      ...groupBy(tailed, (id) => until.get(id)!),
    ];
    for (const [from, ids] of spans) {
      const built = await buildFromFacts(ctx, calendar, ids, { start: from, end: freshEnd });
      for (const id of ids) {
        if (fresh.includes(id)) rows.set(id, [...built.get(id)!]);
        else {
          rows.get(id)!.push(...built.get(id)!);
          builtAfter.set(id, built.get(id)!);
        }
      }
    }
  }
  const series = new Map<string, RollupSeries>();
  for (const id of withCells) {
    // Its hourly rows before the cells (the head span) and after them (the tail span, then the rows built from
    // the facts after its stored rows), each packed once per kept span when nothing is added to it.
    const cellsStart = days!.start;
    const spans = spansOf.get(id)!;
    const built = builtAfter.get(id) ?? [];
    const packed = (parts: Array<{ rows: SpanRows }>, extra: readonly Rollup[]) =>
      parts.length === 1 && extra.length === 0
        ? packedOf(parts[0]!.rows, id)
        : packRollups([...parts.flatMap((p) => p.rows.rows.get(id)!), ...extra]);
    const before = packed(
      spans.filter((s) => s.span.start < cellsStart),
      built.filter((r) => r.start < cellsStart),
    );
    const after = packed(
      spans.filter((s) => s.span.start >= cellsStart),
      built.filter((r) => r.start >= cellsStart),
    );
    series.set(id, joinKept(joinKept(before, daySeries.get(id)!), after));
  }
  let downtimeByReason: Record<string, DowntimeMs> = {};
  if (opts.reasons) {
    const shiftIds = opts.reasons.shiftIds;
    const filter = { start: epochMs(range.start), end: epochMs(range.end), shiftIds };
    // The week and day rows carry no reasons: theirs come from the database. The kept spans' own sums when every
    // machine of each span is stored (sums of whole milliseconds: the order they are added in changes nothing).
    if (gaps)
      downtimeByReason = inShiftDowntimeByReason(
        machineIds.flatMap((id) => rows.get(id)!),
        filter,
      );
    else {
      const seen = new Set<SpanRows>();
      for (const spans of spansOf.values())
        for (const s of spans) {
          if (seen.has(s.rows)) continue;
          seen.add(s.rows);
          addDowntimeByReasonInto(downtimeByReason, spanReasons(s.rows, s.span, shiftIds));
        }
      const built = [...fresh.flatMap((id) => rows.get(id)!), ...[...builtAfter.values()].flat()];
      addDowntimeByReasonInto(downtimeByReason, inShiftDowntimeByReason(built, filter));
    }
    if (days) {
      const all = await storedReasons;
      const whole = withCells.filter((id) => plans.get(id)!.cellsEnd === days.end);
      if (
        all &&
        withCells.length === machineIds.length &&
        withCells.every((id) => plans.get(id)!.cellsEnd === reasonsEnd)
      )
        addDowntimeByReasonInto(downtimeByReason, all);
      else {
        if (whole.length > 0) addDowntimeByReasonInto(downtimeByReason, await reasonsOf(whole, days!));
        const short = withCells.filter((id) => plans.get(id)!.cellsEnd! < days!.end);
        for (const [end, ids] of groupBy(short, (id) => plans.get(id)!.cellsEnd!))
          addDowntimeByReasonInto(downtimeByReason, await reasonsOf(ids, { start: days!.start, end }));
      }
    }
  }
  // The token is made when a caller reads it (the utilization report's answer names it; the OEE calls do not): the
  // fingerprint of 100 machines' entries was a millisecond of each call.
  const fingerprint = () =>
    JSON.stringify([
      ctx.scope.companyId,
      opts.key,
      machineIds,
      range,
      [...state.computedAt].sort(byKey),
      [...state.dirty].sort(byKey),
      fresh,
      [...until].sort(byKey),
    ]);
  return {
    rows,
    series,
    get cacheToken() {
      return createHash('sha256').update(fingerprint()).digest('hex').slice(0, 20);
    },
    downtimeByReason,
    recomputing: machineIds.filter((id) => (state.dirty.get(id) ?? Number.POSITIVE_INFINITY) < range.end),
  };
}

/** Map entries in the order of their keys (machine ids: as a sort of the entries as text orders them). */
const byKey = (a: readonly [string, number], b: readonly [string, number]) =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;

/**
 * Joins of kept series (decision 1189): a machine's kept span and kept cells give the same joined series to every
 * call at a stamp, so the totals kept with it (rollupTotals) serve them all. Weak: they go with their parts.
 */
const joined = new WeakMap<RollupSeries, WeakMap<RollupSeries, RollupSeries>>();

/** joinSeries(a, b), the same object for the same two series (never changed, as both parts are). */
function joinKept(a: RollupSeries, b: RollupSeries): RollupSeries {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  let withA = joined.get(a);
  if (!withA) joined.set(a, (withA = new WeakMap()));
  let out = withA.get(b);
  if (!out) withA.set(b, (out = joinSeries(a, b)));
  return out;
}

/**
 * How a stored machine's part of the range, [range.start, until), is read (decision 1125): its whole company
 * days (`days`, when the report's cells allow) up to the company day `until` falls in from the week and day
 * rows, the rest (the partial day before them, the day `until` falls in) from hourly rows. Without whole days
 * all of it is hourly.
 */
function storedPlan(calendar: CompanyCalendar, range: Range, days: Range | null, until: number): StoredPlan {
  const end = Math.min(until, range.end);
  const spanOf = (from: number, to: number) =>
    to > from
      ? [
          {
            span: { start: from, end: to },
            split: splitRange(calendar, { start: epochMs(from), end: epochMs(to) }),
          },
        ]
      : [];
  if (days) {
    const dayOfEnd =
      end >= days.end ? days.end : companyDayRange(calendar, shopDateOf(calendar, epochMs(end))).start;
    const cellsEnd = Math.min(dayOfEnd, days.end);
    if (cellsEnd > days.start)
      return { cellsEnd, spans: [...spanOf(range.start, days.start), ...spanOf(cellsEnd, end)] };
  }
  return { cellsEnd: null, spans: spanOf(range.start, end) };
}

/**
 * The stored machines' spans of hourly rows (report-spans.ts): each distinct span read once for the machines whose
 * plan has it (the range's head is every stored machine's; tails differ by where their rows stop), kept under
 * the company's week rows stamp (decision 1185), taking its stored rows from `readBefore` when it holds them (the
 * partial days read for their computed-at). Per machine its spans in time order, or null when its stored rows
 * leave a gap in one (decision 1016).
 */
async function hourlyRows(
  ctx: ServiceCtx,
  calendar: CompanyCalendar,
  plans: ReadonlyMap<string, StoredPlan>,
  readBefore: ReadonlyArray<{ span: Range; rows: Rollup[] }>,
): Promise<Map<string, Array<{ span: Range; rows: SpanRows }> | null>> {
  const spans = new Map<string, SpanOf>();
  const keyOf = (span: Range) => `${span.start}:${span.end}`;
  for (const [id, plan] of plans)
    for (const { span, split } of plan.spans) {
      const seen = spans.get(keyOf(span));
      if (seen) seen.ids.push(id);
      else spans.set(keyOf(span), { span, split, ids: [id] });
    }
  const list = [...spans.values()];
  const read = await Promise.all(list.map((of) => spanRows(ctx, calendar, of, readBefore)));
  const readOf = new Map(list.map((of, i) => [keyOf(of.span), read[i]!]));
  const out = new Map<string, Array<{ span: Range; rows: SpanRows }> | null>();
  for (const [id, plan] of plans) {
    const mine: Array<{ span: Range; rows: SpanRows }> = [];
    for (const { span } of plan.spans) {
      const rows = readOf.get(keyOf(span))!;
      if (rows.rows.get(id) === null) break;
      mine.push({ span, rows });
    }
    out.set(id, mine.length === plan.spans.length ? mine : null);
  }
  return out;
}
