import { downtimeListItems } from '@takt/domain';
import type { DowntimeEntry } from '../offline/optimistic';
import type { ShiftBounds } from './shift';

// live-operations §2, §4, §5: the "Categorize Downtime" list, split into Current Shift and Previous Shift, with
// the domain's list rules (setup excluded, short and categorized periods hidden unless shown).

export interface ListFilters {
  onlyLong: boolean;
  onlyUncategorized: boolean;
  showCategorized: boolean;
  showShort: boolean;
}

export const DEFAULT_FILTERS: ListFilters = {
  onlyLong: false,
  onlyUncategorized: false,
  showCategorized: true,
  showShort: false,
};

export interface ListRow {
  entry: DowntimeEntry;
  durationMs: number;
  categorized: boolean;
  selectable: boolean;
}

/**
 * The company's filter duration (downtime_list_filter_duration, §5: at or below it a period is short). Before
 * the flags were first pulled on this device, the longest period the server marked short stands in for it.
 */
export function filterDurationOf(
  entries: readonly DowntimeEntry[],
  flagMs: number | null,
  now: number,
): number {
  if (flagMs != null) return flagMs;
  let max = 0;
  for (const e of entries) if (e.short) max = Math.max(max, (e.end ?? now) - e.start);
  return max;
}

export function downtimeSections(
  entries: readonly DowntimeEntry[],
  now: number,
  bounds: Pick<ShiftBounds, 'currentStart' | 'previousStart'>,
  filters: ListFilters,
  filterDurationMs: number,
  /** The company's long-downtime threshold ("Only Long Downtimes"); the filter duration when null. */
  longDowntimeMs: number | null = null,
): { current: ListRow[]; previous: ListRow[] } {
  const rows = downtimeListItems(entries, now, {
    filterDurationMs,
    longDowntimeMs: longDowntimeMs ?? filterDurationMs,
    showShort: filters.showShort,
    showCategorized: filters.showCategorized,
    onlyUncategorized: filters.onlyUncategorized,
    onlyLong: filters.onlyLong,
  }).map((i) => ({
    entry: i.period,
    durationMs: i.durationMs,
    categorized: i.categorized,
    selectable: i.selectable,
  }));
  // Newest first: the operator looks for what just happened.
  rows.sort((a, b) => b.entry.start - a.entry.start);
  const { currentStart, previousStart } = bounds;
  if (currentStart == null) return { current: rows, previous: [] };
  // A period belongs to the section it ended in; one that ended before the previous shift began is older than
  // the previous shift and not listed.
  const end = (r: ListRow) => r.entry.end ?? now;
  return {
    current: rows.filter((r) => end(r) > currentStart),
    previous: rows.filter((r) => end(r) <= currentStart && end(r) > previousStart),
  };
}

/** The downtime going on now (end null), if any, not counting setup. */
export const liveDowntime = (entries: readonly DowntimeEntry[]): DowntimeEntry | null =>
  entries.find((e) => e.end === null && !e.setup) ?? null;

/** Total downtime in the list's window (the card's total-downtime button). */
export const totalDowntimeMs = (entries: readonly DowntimeEntry[], now: number): number =>
  entries.reduce((s, e) => (e.setup ? s : s + Math.max(0, (e.end ?? now) - e.start)), 0);
