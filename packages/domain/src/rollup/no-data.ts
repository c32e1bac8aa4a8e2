import type { TimeSpan } from '../reports/report-cells';
import type { RollupSource } from './build';
import { firstEndingAfter, statesOfLife } from './build';

// METRICS.md §1 No data: the UNAVAILABLE time inside a machine's monitored life that no operator reason
// covers. The rollups count it under NO_DATA_REASON (build.ts); the downtime report, the timeline and the
// tiles list these spans, so every screen shows the same No data total for the same machine and range.

/** `spans` (sorted, disjoint) without the time `cut` (sorted, disjoint) covers. */
export function subtractSpans(spans: readonly TimeSpan[], cut: readonly TimeSpan[]): TimeSpan[] {
  const out: TimeSpan[] = [];
  // The cuts ending at or before the first span's start are skipped in one binary search: a month of a machine's
  // periods each cut by its No data was a walk from the first cut per period (decision 1178).
  let j = spans.length === 0 ? 0 : firstEndingAfter(cut, (spans[0] as TimeSpan).start);
  for (const s of spans) {
    let from = s.start;
    while (j < cut.length && (cut[j] as TimeSpan).end <= from) j++;
    for (let k = j; k < cut.length && (cut[k] as TimeSpan).start < s.end; k++) {
      const c = cut[k] as TimeSpan;
      if (c.start > from) out.push({ start: from, end: c.start });
      from = Math.max(from, c.end);
    }
    if (s.end > from) out.push({ start: from, end: s.end });
  }
  return out;
}

/**
 * The machine's No data over [from, to): UNAVAILABLE time (or time without a stored state) inside its
 * monitored life, less the time annotations with a reason cover (decision 1010: the operator's reason wins;
 * a split without a reason is no reason). Sorted, disjoint, neighbours merged.
 */
export function noDataSpans(source: RollupSource, from: number, to: number): TimeSpan[] {
  const unavailable: TimeSpan[] = [];
  for (const iv of statesOfLife(source, from, to)) {
    if (iv.state !== 'UNAVAILABLE') continue;
    const last = unavailable[unavailable.length - 1];
    if (last && last.end === iv.start) last.end = iv.end;
    else unavailable.push({ start: iv.start, end: iv.end });
  }
  const reasoned = (source.annotations ?? [])
    .filter((a) => a.reasonId !== null && a.end > a.start)
    .map((a) => ({ start: a.start as number, end: a.end as number }))
    .sort((a, b) => a.start - b.start);
  // Annotations of one machine do not overlap (the period engine splits them); merge defensively.
  const cut: TimeSpan[] = [];
  for (const a of reasoned) {
    const last = cut[cut.length - 1];
    if (last && a.start <= last.end) last.end = Math.max(last.end, a.end);
    else cut.push(a);
  }
  return subtractSpans(unavailable, cut);
}

/** One piece of a downtime period cut at the No data spans (decision 1060). */
export interface NoDataCut extends TimeSpan {
  noData: boolean;
}

/**
 * A downtime period [start, end) cut at the boundaries of the machine's No data spans (`noData`, sorted and
 * disjoint, from noDataSpans): its pieces in time order, each either wholly No data or wholly not, adding
 * up to the period. The downtime list shows an uncategorized period this way (decision 1060), so its No data
 * part reads No data there as it does in the rollups and the downtime report.
 */
export function cutAtNoData(start: number, end: number, noData: readonly TimeSpan[]): NoDataCut[] {
  const out: NoDataCut[] = [];
  let from = start;
  // From the first span ending after `start` (a binary search; the ones before it are all skipped).
  for (let i = firstEndingAfter(noData, start); i < noData.length; i++) {
    const s = noData[i] as TimeSpan;
    if (s.end <= from) continue;
    if (s.start >= end) break;
    if (s.start > from) out.push({ start: from, end: s.start, noData: false });
    const to = Math.min(s.end, end);
    out.push({ start: Math.max(s.start, from), end: to, noData: true });
    from = to;
  }
  if (end > from || out.length === 0) out.push({ start: from, end, noData: false });
  return out;
}
