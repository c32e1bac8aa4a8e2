import { sql } from 'kysely';
import { packSeriesRows } from '@takt/domain';
import type { RollupSeries, SeriesRow } from '@takt/domain';
import type { CompanyScope } from '../scope';
import { loadRollupCells, seriesRows, weeksAndDays } from './days';
import type { Ranges } from './days';
import { recomputesNoted } from './version';

// Decision 1157: a company's stored week rows kept in memory per database handle, so a report's whole weeks
// (a year by week: 100 machines × 53 weeks × shifts, ~16,000 rows) are sliced from memory instead of read
// from the database at every call; its partial weeks still come from the day rows (a few thousand at most).
// The index is good while its stamp holds: the count, latest and sum of computed_at of the company's week rows
// (one walk of the (company_id, computed_at, start_at) index of migration 0051) and the recomputes this
// process committed. Every change of a day row changes a week row's values or computed_at (writeRollupWeeks,
// decision 1148), a deleted week row the count.

/** A week row with its computed_at after the SeriesRow's fields (seriesRows' tuples). */
type IndexedRow = readonly [...SeriesRow, number];

interface WeekIndex {
  stamp: string;
  /** Each machine's week rows by start. */
  byMachine: Map<string, IndexedRow[]>;
  bytes: number;
}

/** What one indexed row is taken to hold in memory (a 15-element array of numbers and a shared string). */
const ROW_BYTES = 200;
/** The week rows kept per database handle, all companies (LRU): 32 MiB, ~168,000 rows (~1,000 machine-years). */
export const WEEK_INDEX_MAX_BYTES = 32 * 1024 * 1024;

interface Handle {
  companies: Map<string, WeekIndex>;
  loading: Map<string, Promise<WeekIndex | null>>;
  bytes: number;
}
const handles = new WeakMap<object, Handle>();
/** Off: every call reads its week rows from the database (bench/oee-reports.ts compares the two). */
const disabled = new WeakSet<object>();

/** Turns the week index of a database handle on (default) or off (and empties it). */
export function useWeekIndex(db: object, on: boolean): void {
  if (on) disabled.delete(db);
  else {
    disabled.add(db);
    handles.delete(db);
  }
}

/** The company's week rows stamp (see above): one index walk, then this process's recompute count. */
async function stampOf(scope: CompanyScope): Promise<{ stamp: string; rows: number }> {
  const recomputes = recomputesNoted(); // before the read: a recompute committing after it moves the stamp
  const { rows } = await sql<{ n: number | string; at: unknown; s: unknown }>`select count(*) as n,
      max(computed_at) as at, sum(computed_at) as s from rollup_weeks
      where company_id = ${scope.companyId}`.execute(scope.db);
  const r = rows[0]!;
  return { stamp: `${String(r.n)}:${String(r.at)}:${String(r.s)}:${recomputes}`, rows: Number(r.n) };
}

/** The company's week index, current at this call; null when it would not fit the bound. */
async function weekIndex(scope: CompanyScope): Promise<WeekIndex | null> {
  let handle = handles.get(scope.db);
  if (!handle) handles.set(scope.db, (handle = { companies: new Map(), loading: new Map(), bytes: 0 }));
  const { stamp, rows } = await stampOf(scope);
  const company = scope.companyId;
  const kept = handle.companies.get(company);
  if (kept?.stamp === stamp) {
    // Most recently used last.
    handle.companies.delete(company);
    handle.companies.set(company, kept);
    return kept;
  }
  if (rows * ROW_BYTES > WEEK_INDEX_MAX_BYTES) return null;
  const key = `${company}\n${stamp}`;
  let loading = handle.loading.get(key);
  if (!loading) {
    const h = handle;
    loading = loadIndex(scope, stamp)
      .then((index) => {
        const old = h.companies.get(company);
        if (old) {
          h.bytes -= old.bytes;
          h.companies.delete(company);
        }
        h.companies.set(company, index);
        h.bytes += index.bytes;
        for (const [id, other] of h.companies) {
          if (h.bytes <= WEEK_INDEX_MAX_BYTES || id === company) break;
          h.companies.delete(id);
          h.bytes -= other.bytes;
        }
        return index;
      })
      .finally(() => h.loading.delete(key));
    handle.loading.set(key, loading);
  }
  return loading;
}

/** All the company's week rows, by machine and start (read after the stamp: never older than it). */
async function loadIndex(scope: CompanyScope, stamp: string): Promise<WeekIndex> {
  const byMachine = new Map<string, IndexedRow[]>();
  let count = 0;
  for (const p of await seriesRows(scope, 'rollup_weeks', null, null)) {
    const rows = JSON.parse(p.rows) as IndexedRow[];
    rows.sort((a, b) => a[1] - b[1]);
    byMachine.set(p.machine_id, rows);
    count += rows.length;
  }
  return { stamp, byMachine, bytes: count * ROW_BYTES };
}

/** The first index of `rows` (by start) starting at or after `t`. */
function firstAtOrAfter(rows: readonly IndexedRow[], t: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]![1] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * loadRollupCells, its whole weeks sliced from the company's week index (decision 1157) and the rest read
 * from the day rows: the same series and computed-at. Without the index (turned off, or the company's week
 * rows over the bound) it is loadRollupCells.
 */
export async function indexedRollupCells(
  scope: CompanyScope,
  input: Parameters<typeof loadRollupCells>[1],
): ReturnType<typeof loadRollupCells> {
  const { weeks, days } = weeksAndDays(input.clock, input.cellStarts, input);
  if (input.machineIds.length === 0 || weeks.length === 0 || disabled.has(scope.db))
    return loadRollupCells(scope, input);
  const [index, dayParts] = await Promise.all([
    weekIndex(scope),
    days.length > 0 ? seriesRows(scope, 'rollup_days', input.machineIds, days) : Promise.resolve([]),
  ]);
  if (!index) return loadRollupCells(scope, input);
  const dayRows = new Map(dayParts.map((p) => [p.machine_id, JSON.parse(p.rows) as IndexedRow[]]));
  const series = new Map<string, RollupSeries>();
  const computedAt = new Map<string, number>();
  for (const id of input.machineIds) {
    const list: IndexedRow[] = [...(dayRows.get(id) ?? [])];
    for (const r of slices(index.byMachine.get(id) ?? [], weeks)) list.push(r);
    if (list.length === 0) continue;
    list.sort((a, b) => a[1] - b[1]);
    let latest = Number.NEGATIVE_INFINITY;
    for (const r of list) if (r[14] > latest) latest = r[14];
    computedAt.set(id, latest);
    series.set(id, packSeriesRows(list as unknown as SeriesRow[]));
  }
  return { series, computedAt };
}

/** The rows of `rows` (by start) starting in `ranges`. */
function* slices(rows: readonly IndexedRow[], ranges: Ranges): Generator<IndexedRow> {
  for (const r of ranges) {
    const end = firstAtOrAfter(rows, r.end);
    for (let i = firstAtOrAfter(rows, r.start); i < end; i++) yield rows[i]!;
  }
}
