import { newSeries, packSeriesRows, SERIES_COLUMNS } from '@takt/domain';
import type { RollupSeries, SeriesRow } from '@takt/domain';
import type { CompanyScope } from '../scope';
import { seriesRows } from './cell-reads';
import type { Ranges } from './cell-reads';

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

/**
 * The week rows of `machineIds` (all the company's when null; starting in `ranges` when given), by machine, packed (decision 1233): seriesRows' JSON
 * array a machine, its tuples sorted by start (a stable sort, as the index always sorted them) and packed at once, so
 * the tuples die young instead of being kept. (One JSON array a column instead was tried: no faster on SQLite, and on
 * PostgreSQL a json_agg a column cost the database more than the tuples' parse saved.) `since`: a machine's rows
 * starting before its value are left out (decision 1242: those in its packs), a machine left out when none is left.
 */
export async function readWeeks(
  scope: CompanyScope,
  machineIds: readonly string[] | null,
  ranges: Ranges | null = null,
  since?: (machineId: string) => number,
): Promise<Map<string, MachineWeeks>> {
  const out = new Map<string, MachineWeeks>();
  for (const p of await seriesRows(scope, 'rollup_weeks', machineIds, ranges)) {
    let rows = JSON.parse(p.rows) as IndexedRow[];
    if (since) {
      const from = since(p.machine_id);
      rows = rows.filter((r) => r[1] >= from);
      if (rows.length === 0) continue;
    }
    rows.sort((a, b) => a[1] - b[1]);
    const computedAt = new Float64Array(rows.length);
    for (let i = 0; i < rows.length; i++) computedAt[i] = rows[i]![14];
    out.set(p.machine_id, { series: packSeriesRows(rows as unknown as SeriesRow[]), computedAt });
  }
  return out;
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
  // The day rows packed, then each piece (day rows before a span, the span) copied column by column, its shifts
  // renumbered as they come (as packSeriesRows numbers them).
  const days = packSeriesRows(sortedByStart(dayRows));
  const out = newSeries(n);
  const slots = new Map<string, number>();
  let at = 0;
  const copy = (src: RollupSeries, from: number, to: number) => {
    for (const c of SERIES_COLUMNS) out[c].set(src[c].subarray(from, to), at);
    for (let i = from; i < to; i++, at++) {
      const id = src.shift[i]! < 0 ? null : src.shiftIds[src.shift[i]!]!;
      let slot = id === null ? -1 : slots.get(id);
      if (slot === undefined) slots.set(id!, (slot = out.shiftIds.push(id!) - 1));
      out.shift[at] = slot;
    }
  };
  const s = w!.series;
  let d = 0;
  for (const [from, to] of spans) {
    const before = firstAtOrAfterIn(days.start, s.start[from]!);
    copy(days, d, before);
    d = before;
    copy(s, from, to);
  }
  copy(days, d, days.length);
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
