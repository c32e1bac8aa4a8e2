import {
  buildRollups,
  coversWhole,
  epochMs,
  inShiftDowntimeByReason,
  lifeCoverFrom,
  packRollups,
  rollupsOfRange,
} from '@takt/domain';
import type { CompanyCalendar, DowntimeMs, RangeSplit, Rollup, RollupSeries } from '@takt/domain';
import { keptWithStamp, loadDowntimeFacts, loadRollups, loadRollupSources } from '@takt/db/rollups';
import type { ServiceCtx } from './context';
import { monitoredFromOnce } from './report-facts';

// The hourly spans of a report's range (decision 1125: the partial days at its edges, and the day its stored rows
// stop in), for reportRollups (report-rollups.ts). Decision 1185: each span's rows, its cut buckets built from the
// facts, are kept under the company's week rows stamp like the hourly rows they are built from (decision 1183),
// with each machine's rows packed and the span's downtime by reason once per shift selection.

interface Range {
  start: number;
  end: number;
}

/** One span of the range, split into its stored buckets and its cut ones (splitRange), and the machines it is read for. */
export interface SpanOf {
  span: Range;
  split: RangeSplit;
  ids: string[];
}

/**
 * The rows of one span of the range for its machines, shared read-only between the calls over it; `packed` and
 * `reasons` are memos filled (mutated) on first use.
 */
export interface SpanRows {
  /** Each machine's rows of the span, by start; null: its stored rows leave a gap there (decision 1016). */
  rows: ReadonlyMap<string, readonly Rollup[] | null>;
  /**
   * The `now` the cut buckets' planned downtime was judged at when it depends on now (an open annotation, METRICS.md
   * §5: a live plannedWithLimit period turns "Exceeded Limit"); null when it does not. Not kept when not null.
   */
  now: number | null;
  packed: Map<string, RollupSeries>;
  reasons: Map<string, Record<string, DowntimeMs>>;
}

/** What one kept row of a span is taken to hold (its share of the hourly row, its packed columns, a built row). */
const SPAN_ROW_BYTES = 1_000;

/**
 * The span's rows for its machines: its whole buckets from the stored hourly rows (from `readBefore`, the partial
 * days already read, when it holds them) and its cut buckets built from the facts over their part inside it
 * (decision 1015); kept while the company's week rows stamp holds (keptWithStamp). Every change of a fact in a
 * span comes with a dirty mark before it, which takes the machine out of the span's machines (storedUntil) until
 * the worker's recompute moves the stamp, so the key (span, cut buckets, machines) with the stamp is a key of the
 * facts read too. Rows judged at another call's now (see SpanRows.now) are built again for this call.
 */
export async function spanRows(
  ctx: ServiceCtx,
  calendar: CompanyCalendar,
  of: SpanOf,
  readBefore: ReadonlyArray<{ span: Range; rows: readonly Rollup[] }>,
): Promise<SpanRows> {
  const { span, split, ids } = of;
  const kept = await keptWithStamp(
    ctx.scope,
    ['span', span.start, span.end, ...split.edges.map((e) => `${e.start}-${e.end}-${e.shiftId}`), '', ...ids],
    (r) => {
      let n = 0;
      for (const rows of r.rows.values()) n += rows?.length ?? 0;
      return n * SPAN_ROW_BYTES;
    },
    () => readSpan(ctx, calendar, of, readBefore),
    (r) => r.now === null,
  );
  if (kept.now === null || kept.now === ctx.now) return kept;
  return readSpan(ctx, calendar, of, readBefore);
}

async function readSpan(
  ctx: ServiceCtx,
  calendar: CompanyCalendar,
  { split, ids }: SpanOf,
  readBefore: ReadonlyArray<{ span: Range; rows: readonly Rollup[] }>,
): Promise<SpanRows> {
  const whole = split.whole;
  // The machines' monitored life, one read a call for every span's edges and the built ranges (decision 1197).
  const life = split.edges.length > 0 ? await monitoredFromOnce(ctx, ids) : undefined;
  const [stored, edges] = await Promise.all([
    readWhole(ctx, ids, whole, readBefore),
    // The facts of the caller's company only (decision 1186: the same machine id under another company is another machine).
    Promise.all(
      split.edges.map(async (edge) => {
        const facts = await loadDowntimeFacts(ctx.scope, ids, edge);
        const sources = await loadRollupSources(ctx.scope, ids, edge, { now: ctx.now, facts, life });
        return { edge, sources, open: facts.annotations.some((a) => a.end === null) };
      }),
    ),
  ]);
  const byMachine = new Map<string, Rollup[]>();
  for (const r of stored) {
    const list = byMachine.get(r.machineId);
    if (list) list.push(r);
    else byMachine.set(r.machineId, [r]);
  }
  // Decision 1201: rows that do not cover the span from its start are checked again from the bucket holding the
  // machine's monitored start (the life read once a call, only when some machine's rows leave the span's start
  // uncovered): a span reaching before a machine's life, a new plant's "this year", reads its stored rows.
  const short = new Set(ids.filter((id) => !coversWhole(split, byMachine.get(id) ?? [])));
  const lifeOf = short.size > 0 ? (life ?? (await monitoredFromOnce(ctx, [...short]))) : undefined;
  const rows = new Map<string, Rollup[] | null>();
  for (const id of ids) {
    const mine = byMachine.get(id) ?? [];
    const covered =
      !short.has(id) || coversWhole(split, mine, lifeCoverFrom(calendar, lifeOf!.get(id) ?? null));
    rows.set(
      id,
      covered
        ? rollupsOfRange(split, mine, () => edges.flatMap((e) => buildRollups(e.sources.get(id)!, [e.edge])))
        : null,
    );
  }
  return {
    rows,
    now: edges.some((e) => e.open) ? ctx.now : null,
    packed: new Map(),
    reasons: new Map(),
  };
}

/** The machines' stored hourly rows overlapping `whole`, as loadRollups gives them (none without a whole part). */
async function readWhole(
  ctx: ServiceCtx,
  ids: string[],
  whole: Range | null,
  readBefore: ReadonlyArray<{ span: Range; rows: readonly Rollup[] }>,
): Promise<readonly Rollup[]> {
  if (!whole) return [];
  const within = readBefore.find((r) => r.span.start <= whole.start && whole.end <= r.span.end);
  if (within) return within.rows.filter((r) => r.end > whole.start && r.start < whole.end);
  return loadRollups(ctx.scope, { machineIds: ids, ...whole });
}

/** A machine's rows of the span packed (memoized in the span). */
export function packedOf(s: SpanRows, machineId: string): RollupSeries {
  let packed = s.packed.get(machineId);
  if (!packed) s.packed.set(machineId, (packed = packRollups(s.rows.get(machineId) ?? [])));
  return packed;
}

/**
 * The in-shift downtime by reason of every machine's rows of the span in the selected shifts (null: all shift
 * time), memoized in the span by selection. Shared: the caller adds it into its own sums, never changes it.
 */
export function spanReasons(
  s: SpanRows,
  span: Range,
  shiftIds: ReadonlySet<string> | null,
): Readonly<Record<string, DowntimeMs>> {
  const key = shiftIds ? [...shiftIds].sort().join(',') : '*';
  let sums = s.reasons.get(key);
  if (!sums) {
    const all: Rollup[] = [];
    for (const rows of s.rows.values()) if (rows) all.push(...rows);
    sums = inShiftDowntimeByReason(all, { start: epochMs(span.start), end: epochMs(span.end), shiftIds });
    s.reasons.set(key, sums);
  }
  return sums;
}
