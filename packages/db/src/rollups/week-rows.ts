import { newSeries, packSeriesRows, SERIES_COLUMNS } from '@takt/domain';
import type { RollupSeries, SeriesRow } from '@takt/domain';
import type { Ranges } from './days';

// The week index's rows packed (week-index.ts, decision 1233): each machine's week rows kept as a packed series and
// their computed_at, instead of a JSON tuple a row (a year of 100 machines: ~16,000 arrays and their boxed numbers,
// which the collector copied at every cold load), and a report's cells packed from them and the partial weeks'
// day rows in one pass.

/** A week or day row with its computed_at after the SeriesRow's fields (seriesRows' tuples). */
export type IndexedRow = readonly [...SeriesRow, number];

/** A machine's week rows by start, packed, with each row's computed_at. */
export interface MachineWeeks {
  readonly series: RollupSeries;
  readonly computedAt: Float64Array;
}

/** A machine's rows (sorted by start) packed. */
export function packWeeks(rows: readonly IndexedRow[]): MachineWeeks {
  const computedAt = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) computedAt[i] = rows[i]![14];
  return { series: packSeriesRows(rows as unknown as SeriesRow[]), computedAt };
}

/** The first index of `starts` (sorted) at or after `t`. */
export function firstAtOrAfterIn(starts: Float64Array, t: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A machine's cells: its day rows (any order) and its week rows starting in `weeks` (ranges in time order, none
 * overlapping a day row), packed by start as packSeriesRows packs the day rows and the weeks' rows sorted together
 * (a stable sort: the same rows in the same order), and their latest computed_at; null when there are none. Whole
 * weeks alone (a range without partial weeks) are views of the index's columns, no copy.
 */
export function packCells(
  dayRows: readonly IndexedRow[],
  w: MachineWeeks | undefined,
  weeks: Ranges,
): { series: RollupSeries; latest: number } | null {
  const spans: Array<[number, number]> = [];
  let latest = Number.NEGATIVE_INFINITY;
  let n = dayRows.length;
  if (w)
    for (const r of weeks) {
      const from = firstAtOrAfterIn(w.series.start, r.start);
      const to = firstAtOrAfterIn(w.series.start, r.end);
      if (to <= from) continue;
      spans.push([from, to]);
      n += to - from;
      for (let i = from; i < to; i++) if (w.computedAt[i]! > latest) latest = w.computedAt[i]!;
    }
  if (n === 0) return null;
  for (const r of dayRows) if (r[14] > latest) latest = r[14];
  if (dayRows.length === 0 && spans.length === 1) return { series: viewOf(w!.series, ...spans[0]!), latest };
  if (spans.length === 0) return { series: packSeriesRows(sortedByStart(dayRows)), latest };
  const days = sortedByStart(dayRows);
  const out = newSeries(n);
  const slots = new Map<string, number>();
  const slotOf = (id: string | null) => {
    if (id === null) return -1;
    let k = slots.get(id);
    if (k === undefined) slots.set(id, (k = out.shiftIds.push(id) - 1));
    return k;
  };
  const s = w!.series;
  let d = 0;
  let at = 0;
  const dayRow = (r: SeriesRow) => {
    out.shift[at] = slotOf(r[0]);
    out.start[at] = r[1];
    out.end[at] = r[2];
    out.duration[at] = r[3];
    out.active[at] = r[4];
    out.known[at] = r[5];
    out.spindle[at] = r[6];
    out.inCut[at] = r[7];
    out.plannedDowntime[at] = r[8];
    out.ideal[at] = r[9];
    out.total[at] = r[10];
    out.rejected[at] = r[11];
    out.minExpected[at] = r[12] ?? Number.NaN;
    out.standardRun[at] = r[13];
    at++;
  };
  for (const [from, to] of spans) {
    while (d < days.length && days[d]![1] < s.start[from]!) dayRow(days[d++]!);
    // The span's columns copied whole, its shifts renumbered.
    for (const c of SERIES_COLUMNS) out[c].set(s[c].subarray(from, to), at);
    for (let i = from; i < to; i++, at++)
      out.shift[at] = s.shift[i]! < 0 ? -1 : slotOf(s.shiftIds[s.shift[i]!]!);
  }
  while (d < days.length) dayRow(days[d++]!);
  return { series: out, latest };
}

/** Rows [from, to) of a series as views of its columns (shared: neither is ever changed). */
function viewOf(s: RollupSeries, from: number, to: number): RollupSeries {
  const cols = Object.fromEntries(SERIES_COLUMNS.map((c) => [c, s[c].subarray(from, to)])) as Record<
    (typeof SERIES_COLUMNS)[number],
    Float64Array
  >;
  return { ...cols, length: to - from, shift: s.shift.subarray(from, to), shiftIds: s.shiftIds };
}

/** The rows sorted by start (a stable sort of a copy, as the cells always were). */
const sortedByStart = (rows: readonly IndexedRow[]): SeriesRow[] =>
  [...rows].sort((a, b) => a[1] - b[1]) as unknown as SeriesRow[];
