import { addDowntimeByReasonInto } from '@takt/domain';
import type { DowntimeMs, RollupSeries } from '@takt/domain';
import type { CompanyScope } from '../scope';
import {
  addStoredDowntimeByReason,
  loadRollupCells,
  loadRollupDayDowntimeByReason,
  seriesRows,
  weeksAndDays,
} from './cell-reads';
import { keptWithStamp } from './edge-rows';
import { addReasonsInto, loadReasons, reasonBytes } from './week-reasons';
import type { MachineReasons } from './week-reasons';
import { earliestRecomputeSince } from './version';
import { packCells, readWeeks } from './week-rows';
import type { IndexedRow, MachineWeeks } from './week-rows';
import { packedWeeks, PACKS_POSSIBLE, storedWeekPacks } from './week-packs';
import type { PackedWeeks } from './week-packs';
import { stampOf, totalsOf } from './week-stamp';
import type { Stamp, Totals } from './week-stamp';

// The partial days' hourly rows kept under the same stamp (decision 1183), exported with the index.
export {
  EDGE_ROWS_MAX_BYTES,
  indexedRollups,
  keptReadTallies,
  keptWithStamp,
  useEdgeRows,
} from './edge-rows';

// Decision 1157: a company's stored week rows kept in memory per database handle, so a report's whole weeks
// (a year by week: 100 machines × 53 weeks × shifts, ~16,000 rows) are sliced from memory instead of read
// from the database at every call; its partial weeks still come from the day rows (a few thousand at most).
// The index is good while its stamp holds: the count, latest and sum of computed_at of the company's week rows
// (one walk of the (company_id, computed_at, start_at) index of migration 0051) and the recomputes this
// process committed. Every change of a day row changes a week row's values or computed_at (writeRollupWeeks,
// decision 1148), a deleted week row the count.
// Decision 1166: the in-shift week rows' downtime by reason (the OEE waterfall's) are kept with them, read the
// first time a call asks at a stamp; a change of reasons alone rewrites the week row with a new computed_at
// (writeChangedRows compares every column), so the same stamp covers them.
// Decision 1168: when the stamp moves, only the machines with week rows computed after the index's latest (or at
// or after the earliest now of this process's recomputes since, a fixed clock) are read again, rows and reasons;
// the result is kept only if the index's count, latest and sum of computed_at then equal the stamp's (a delete
// or a write below the latest elsewhere does not add up): otherwise the whole company is read as before.
// Decision 1235: a whole company's load reads its stored packs (week-packs.ts, migration 0073), rows and reasons at
// once, and the rows of only the machines whose packs do not add up.

interface WeekIndex {
  stamp: string;
  /** The stamp's recompute count and totals, which the index's rows add up to (decision 1168). */
  at: Stamp;
  /** Each machine's week rows by start, packed (decision 1233). */
  byMachine: Map<string, MachineWeeks>;
  /** Each machine's rows' totals. */
  totals: Map<string, Totals>;
  /**
   * Each machine's in-shift week rows' downtime by reason, by start: read the first time a call asks for
   * reasons (the OEE waterfall) at this stamp, then kept with the rows (decision 1166).
   */
  reasons: Promise<Map<string, MachineReasons>> | null;
  /** An incremental reload's reasons (the kept ones and the changed machines'), attached once it is installed. */
  reasonsFrom?: Promise<Map<string, MachineReasons>>;
  /**
   * The whole weeks' downtime by reason summed from `reasons`, by weeks, shift selection and machines (decision 1185:
   * the waterfall added ~10,000 reason maps a call for a year of 100 machines); at most REASON_SUMS, oldest first.
   */
  reasonSums: Map<string, Readonly<Record<string, DowntimeMs>>>;
  bytes: number;
}

/** What one indexed row is taken to hold in memory (a 15-element array of numbers and a shared string). */
const ROW_BYTES = 200;
/**
 * Cells packed by indexedRollupCells (decision 1185), by their source: the week index (or, without whole weeks, the
 * kept day rows), each good for one stamp, then by weeks, days and machines, with the day rows they were packed with
 * (kept under the stamp too: a different read is a different stamp). A year of 100 machines is ~2 MB of columns.
 */
const packedCells = new WeakMap<
  object,
  Map<string, { dayRows: object; series: Map<string, RollupSeries>; computedAt: Map<string, number> }>
>();
/** The packed cells kept per source. */
const PACKED_CELLS = 4;
/** The day rows of cells without partial weeks (one object, so packed cells of whole weeks only are found again). */
const NO_DAY_ROWS: ReadonlyMap<string, IndexedRow[]> = new Map();
/** The whole weeks' reason sums an index keeps (a few reasons each). */
const REASON_SUMS = 32;
/** The week rows kept per database handle, all companies (LRU): 32 MiB, ~168,000 rows (~1,000 machine-years). */
export const WEEK_INDEX_MAX_BYTES = 32 * 1024 * 1024;

interface Handle {
  companies: Map<string, WeekIndex>;
  loading: Map<string, Promise<WeekIndex | null>>;
  /** Reasons being read alongside a load of the rows, by the same key (decision 1166). */
  reasonsLoading: Map<string, Promise<Map<string, MachineReasons>>>;
  bytes: number;
  /** Week rows and reason rows read into indexes of this handle, and the rows of them taken from packs. */
  read: { rows: number; reasons: number; packed: number };
  /** Packs being read alongside a stamp, by company (decision 1235). */
  packsReading: Map<string, Promise<PackedWeeks>>;
}
const handles = new WeakMap<object, Handle>();
/** Off: every call reads its week rows from the database (bench/oee-reports.ts compares the two). */
const disabled = new WeakSet<object>();
/** Reasons off: the waterfall's downtime by reason is read from the database (bench/report-answer.ts). */
const reasonsDisabled = new WeakSet<object>();
/** Incremental reload off: a moved stamp reads the whole company again (bench/report-answer.ts, decision 1168). */
const incrementalDisabled = new WeakSet<object>();
/** Packs off: a whole company's load reads its rows (decision 1235). */
const packsDisabled = new WeakSet<object>();

/** Turns the week index of a database handle on (default) or off (and empties it). */
export function useWeekIndex(db: object, on: boolean): void {
  if (on) disabled.delete(db);
  else {
    disabled.add(db);
    handles.delete(db);
  }
}

/**
 * Turns the index's downtime by reason of a database handle on (default) or off: off, indexedDowntimeByReason
 * reads every call's reasons from the database as before decision 1166 (the rows stay indexed).
 */
export function useReasonIndex(db: object, on: boolean): void {
  if (on) reasonsDisabled.delete(db);
  else reasonsDisabled.add(db);
}

/** Turns the incremental reload of a database handle's week index on (default) or off (decision 1168). */
export function useIncrementalReload(db: object, on: boolean): void {
  if (on) incrementalDisabled.delete(db);
  else incrementalDisabled.add(db);
}

/** Turns the stored packs of a database handle's week index on (default) or off (decision 1235). */
export function useWeekPacks(db: object, on: boolean): void {
  if (on) packsDisabled.delete(db);
  else packsDisabled.add(db);
}

/**
 * How many week rows and reason rows the week index of a database handle has read so far (from rows or packs), and
 * how many of the rows came from packs.
 */
export function weekIndexReads(db: object): { rows: number; reasons: number; packed: number } {
  return { ...(handles.get(db)?.read ?? { rows: 0, reasons: 0, packed: 0 }) };
}

const packsOn = (db: object) => PACKS_POSSIBLE && !packsDisabled.has(db);

/**
 * The company's week index, current at this call; null when it would not fit the bound. With `reasons`, when
 * the rows are (re)loaded the reasons are read alongside them rather than after (decision 1166).
 */
async function weekIndex(scope: CompanyScope, reasons = false): Promise<WeekIndex | null> {
  let handle = handles.get(scope.db);
  if (!handle)
    handles.set(
      scope.db,
      (handle = {
        companies: new Map(),
        loading: new Map(),
        reasonsLoading: new Map(),
        bytes: 0,
        read: { rows: 0, reasons: 0, packed: 0 },
        packsReading: new Map(),
      }),
    );
  const company = scope.companyId;
  // Decision 1235: with no index of the company kept (after a start), its packs are read alongside the stamp (on
  // PostgreSQL another connection); they are taken only where they add up to it (packedWeeks).
  let packs: Promise<PackedWeeks> | undefined;
  if (!handle.companies.has(company) && packsOn(scope.db)) {
    const h = handle;
    packs = handle.packsReading.get(company);
    if (!packs) {
      packs = storedWeekPacks(scope).finally(() => h.packsReading.delete(company));
      packs.catch(() => undefined); // awaited by the load below; a failure there reads again
      handle.packsReading.set(company, packs);
    }
  }
  const at = await stampOf(scope);
  const { stamp, n: rows } = at;
  const kept = handle.companies.get(company);
  if (kept?.stamp === stamp) {
    // Most recently used last.
    handle.companies.delete(company);
    handle.companies.set(company, kept);
    return kept;
  }
  if (rows * ROW_BYTES > WEEK_INDEX_MAX_BYTES) return null;
  const key = `${company}\n${stamp}`;
  // Decision 1168: a kept index is brought up to the stamp by reading only the machines that changed.
  const incremental = kept !== undefined && !incrementalDisabled.has(scope.db);
  let loading = handle.loading.get(key);
  if (!loading) {
    const h = handle;
    loading = (incremental ? reloadChanged(scope, kept, at) : loadIndex(scope, at, packs))
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
        // Counted against the bound now that the index is the handle's (reasonsOf adds their bytes).
        if (index.reasonsFrom) void reasonsOf(scope, index, index.reasonsFrom).catch(() => undefined);
        index.reasonsFrom = undefined;
        return index;
      })
      .finally(() => h.loading.delete(key));
    handle.loading.set(key, loading);
  }
  // An incremental reload of an index holding reasons reads the changed machines' reasons itself; a load from
  // packs reads them with the rows.
  if (!reasons || (incremental && kept.reasons !== null) || (!incremental && packsOn(scope.db)))
    return loading;
  // The rows' load may be another caller's (the cells of the same report, in parallel): join its reasons too.
  let read = handle.reasonsLoading.get(key);
  if (!read) {
    const h = handle;
    read = loadReasons(scope, undefined, h.read).finally(() => h.reasonsLoading.delete(key));
    read.catch(() => undefined); // awaited through reasonsOf; a failure before then is not unhandled
    handle.reasonsLoading.set(key, read);
  }
  const index = await loading;
  if (index) void reasonsOf(scope, index, read).catch(() => undefined);
  return index;
}

/**
 * All the company's week rows, by machine and start (read after the stamp: never older than it), and with packs on
 * their reasons too.
 */
async function loadIndex(scope: CompanyScope, at: Stamp, packs?: Promise<PackedWeeks>): Promise<WeekIndex> {
  const index: WeekIndex = {
    stamp: at.stamp,
    at,
    byMachine: new Map(),
    totals: new Map(),
    reasons: null,
    reasonSums: new Map(),
    bytes: 0,
  };
  if (!packsOn(scope.db)) {
    await readMachines(scope, index, null);
    return index;
  }
  const packed = await packedWeeks(
    scope,
    at,
    handles.get(scope.db)?.read,
    packs?.catch(() => undefined),
  );
  for (const [id, w] of packed.weeks) {
    index.byMachine.set(id, w);
    index.totals.set(id, packed.totals.get(id)!);
    index.bytes += w.series.length * ROW_BYTES;
  }
  for (const r of packed.reasons.values()) index.bytes += reasonBytes(r);
  index.reasons = Promise.resolve(packed.reasons);
  return index;
}

/** Reads the week rows of `machineIds` (all the company's when null) into `index`, with their totals. */
async function readMachines(
  scope: CompanyScope,
  index: WeekIndex,
  machineIds: string[] | null,
): Promise<void> {
  const read = handles.get(scope.db)?.read;
  for (const [id, w] of await readWeeks(scope, machineIds)) {
    const n = w.series.length;
    index.byMachine.set(id, w);
    index.totals.set(id, totalsOf(w.computedAt));
    index.bytes += n * ROW_BYTES;
    if (read) read.rows += n;
  }
}

/**
 * The kept index brought up to the stamp `at` (decision 1168): the machines with week rows computed after its
 * latest, or at or after the earliest now of this process's recomputes since its stamp when that is not later
 * (a recompute at a fixed clock rewrites rows without moving the latest), are read again, rows and reasons; the
 * others are kept. Kept only if its totals are the stamp's: a deleted row, or a row another process wrote below
 * the latest, leaves them apart, and the whole company is read instead (as it is when the recomputes since are
 * no longer all known).
 */
async function reloadChanged(scope: CompanyScope, kept: WeekIndex, at: Stamp): Promise<WeekIndex> {
  const earliest = earliestRecomputeSince(scope.companyId, kept.at.recomputes);
  if (earliest === null || kept.at.n === 0) return loadIndex(scope, at);
  let q = scope.selectFrom('rollup_weeks').select('machine_id').distinct();
  q =
    earliest !== undefined && earliest <= kept.at.latest
      ? q.where('computed_at', '>=', earliest)
      : q.where('computed_at', '>', kept.at.latest);
  const changed = (await q.execute()).map((r) => r.machine_id);
  const index: WeekIndex = {
    stamp: at.stamp,
    at,
    byMachine: new Map(kept.byMachine),
    totals: new Map(kept.totals),
    reasons: null,
    reasonSums: new Map(),
    bytes: 0,
  };
  for (const id of changed) {
    index.byMachine.delete(id);
    index.totals.delete(id);
  }
  for (const w of index.byMachine.values()) index.bytes += w.series.length * ROW_BYTES;
  if (changed.length > 0) await readMachines(scope, index, changed);
  const sum: Totals = { n: 0, latest: Number.NEGATIVE_INFINITY, sum: 0n };
  for (const t of index.totals.values()) {
    sum.n += t.n;
    sum.sum += t.sum;
    if (t.latest > sum.latest) sum.latest = t.latest;
  }
  if (sum.n !== at.n || sum.sum !== at.sum || sum.latest !== at.latest) return loadIndex(scope, at);
  if (kept.reasons) {
    const reasons = kept.reasons;
    index.reasonsFrom = Promise.all([
      reasons,
      changed.length > 0 ? loadReasons(scope, changed, handles.get(scope.db)?.read) : new Map(),
    ]).then(([old, fresh]: [Map<string, MachineReasons>, Map<string, MachineReasons>]) => {
      const merged = new Map(old);
      for (const id of changed) merged.delete(id);
      for (const [id, rows] of fresh) merged.set(id, rows);
      return merged;
    });
    index.reasonsFrom.catch(() => undefined); // awaited through reasonsOf
  }
  return index;
}

/**
 * The index's reasons, read once per index (after its stamp, like its rows: never older than it). Their
 * bytes join the index's in the handle's bound; a company over it evicts others at the next load.
 */
function reasonsOf(
  scope: CompanyScope,
  index: WeekIndex,
  read?: Promise<Map<string, MachineReasons>>,
): Promise<Map<string, MachineReasons>> {
  if (!index.reasons) {
    index.reasons = (read ?? loadReasons(scope, undefined, handles.get(scope.db)?.read)).then((byMachine) => {
      let n = 0;
      for (const r of byMachine.values()) n += reasonBytes(r);
      index.bytes += n;
      const handle = handles.get(scope.db);
      if (handle?.companies.get(scope.companyId) === index) handle.bytes += n;
      return byMachine;
    });
    // A failed read is not kept: the next call reads again.
    index.reasons.catch(() => (index.reasons = null));
  }
  return index.reasons;
}

/**
 * loadRollupCells, its whole weeks sliced from the company's week index (decision 1157) and the rest read
 * from the day rows (kept under the stamp): the same series and computed-at. Without the index (turned off, or
 * the company's week rows over the bound, when it has whole weeks) it is loadRollupCells.
 */
export async function indexedRollupCells(
  scope: CompanyScope,
  input: Parameters<typeof loadRollupCells>[1],
): ReturnType<typeof loadRollupCells> {
  const { weeks, days } = weeksAndDays(input.clock, input.cellStarts, input);
  if (input.machineIds.length === 0 || disabled.has(scope.db)) return loadRollupCells(scope, input);
  // The partial weeks' day rows, parsed, kept under the same stamp (decision 1183); without whole weeks (cells by
  // day: a month by day) every day row, kept the same way (decision 1185).
  const [index, dayRows] = await Promise.all([
    weeks.length > 0 ? weekIndex(scope) : null,
    days.length > 0
      ? keptWithStamp(
          scope,
          ['days', ...days.flatMap((d) => [d.start, d.end]), '', ...input.machineIds],
          (rows) => [...rows.values()].reduce((n, list) => n + list.length, 0) * ROW_BYTES,
          async () => {
            const parts = await seriesRows(scope, 'rollup_days', input.machineIds, days);
            return new Map(parts.map((p) => [p.machine_id, JSON.parse(p.rows) as IndexedRow[]]));
          },
        )
      : NO_DAY_ROWS,
  ]);
  if (!index && weeks.length > 0) return loadRollupCells(scope, input);
  // Packed once per source (decision 1185): the callers get their own maps, the series shared (read only).
  const source: object = index ?? dayRows;
  let memo = packedCells.get(source);
  if (!memo) packedCells.set(source, (memo = new Map()));
  const key = [
    ...weeks.flatMap((w) => [w.start, w.end]),
    '',
    ...days.flatMap((d) => [d.start, d.end]),
    '',
    ...input.machineIds,
  ].join('\n');
  const hit = memo.get(key);
  if (hit?.dayRows === dayRows) return { series: new Map(hit.series), computedAt: new Map(hit.computedAt) };
  const series = new Map<string, RollupSeries>();
  const computedAt = new Map<string, number>();
  for (const id of input.machineIds) {
    const cells = packCells(dayRows.get(id) ?? [], index?.byMachine.get(id), weeks);
    if (!cells) continue;
    computedAt.set(id, cells.latest);
    series.set(id, cells.series);
  }
  // Mutates the source's memo: the oldest out first.
  memo.set(key, { dayRows, series, computedAt });
  for (const [k] of memo) {
    if (memo.size <= PACKED_CELLS) break;
    memo.delete(k);
  }
  return { series: new Map(series), computedAt: new Map(computedAt) };
}

/**
 * loadRollupDayDowntimeByReason (the in-shift downtime by reason of the machines' week and day rows over whole
 * company days, in the selected shifts), its whole weeks summed from the week index's reasons (decision 1166)
 * and its partial weeks read from the day rows: the same sums. Without the index (off, or over the bound) it
 * is loadRollupDayDowntimeByReason.
 */
export async function indexedDowntimeByReason(
  scope: CompanyScope,
  input: Parameters<typeof loadRollupDayDowntimeByReason>[1],
): Promise<Record<string, DowntimeMs>> {
  const { weeks, days } = weeksAndDays(input.clock, [input.start], input);
  if (
    input.machineIds.length === 0 ||
    input.shiftIds?.size === 0 ||
    weeks.length === 0 ||
    disabled.has(scope.db) ||
    reasonsDisabled.has(scope.db)
  )
    return loadRollupDayDowntimeByReason(scope, input);
  // The partial weeks' day rows first, then the whole weeks, as loadRollupDayDowntimeByReason adds them; the
  // partial weeks' sums kept under the same stamp (decision 1183).
  const out: Record<string, DowntimeMs> = {};
  const shifts = input.shiftIds ? [...input.shiftIds].sort() : null;
  const [index, partial] = await Promise.all([
    weekIndex(scope, true),
    days.length > 0
      ? keptWithStamp(
          scope,
          [
            'reasons',
            ...days.flatMap((d) => [d.start, d.end]),
            shifts ? shifts.join(',') : '*',
            ...input.machineIds,
          ],
          (sums) => 100 * Object.keys(sums).length,
          async () => {
            const sums: Record<string, DowntimeMs> = {};
            await addStoredDowntimeByReason(scope, 'rollup_days', input, days, sums);
            return sums;
          },
        )
      : null,
  ]);
  if (partial) addDowntimeByReasonInto(out, partial);
  if (!index) {
    await addStoredDowntimeByReason(scope, 'rollup_weeks', input, weeks, out);
    return out;
  }
  const reasons = await reasonsOf(scope, index);
  const key = [
    ...weeks.map((w) => `${w.start}-${w.end}`),
    '',
    shifts ? shifts.join(',') : '*',
    ...input.machineIds,
  ];
  const k = key.join('\n');
  let sums = index.reasonSums.get(k);
  if (!sums) {
    const whole: Record<string, DowntimeMs> = {};
    for (const id of input.machineIds) {
      const r = reasons.get(id);
      if (r) addReasonsInto(whole, r, weeks, input.shiftIds ?? null);
    }
    // Mutates the index's memo (the same sums for every caller at this index): oldest out first.
    index.reasonSums.set(k, (sums = whole));
    for (const [old] of index.reasonSums) {
      if (index.reasonSums.size <= REASON_SUMS) break;
      index.reasonSums.delete(old);
    }
  }
  // Sums of whole milliseconds: added after the partial weeks' as before, the order changes nothing.
  addDowntimeByReasonInto(out, sums);
  return out;
}
