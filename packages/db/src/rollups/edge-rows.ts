import type { Rollup } from '@takt/domain';
import type { CompanyScope } from '../scope';
import { loadRollups } from './read';
import { stampOf } from './week-stamp';

// Decision 1183: the hourly rows of a report's partial days (a range starting 10:17 or ending 18:43) kept per
// database handle while the company's week rows stamp holds, as the week index is (decision 1157). A recompute
// writes a day's hourly, day and week rows in one transaction, and a change of hourly rows alone gives the week
// rows its computed_at (decision 1148), so the stamp moves whenever these rows may have. The OEE, utilization and
// production calls over one range (and the quick links sharing a day start) then read those rows once.

/** What one kept hourly row is taken to hold in memory (the row, its state and reason maps). */
const ROW_BYTES = 1_000;
/**
 * The partial days' rows kept per database handle, all companies (LRU): 64 MiB, ~64,000 rows counted at ROW_BYTES (a
 * year's two partial days of 100 machines are ~3,300 hourly rows, kept twice: as read, and as a report's spans built
 * from them, decision 1185). Decision 1247: the report mix of bench/report-load.ts (12 ranges × 4 reports) keeps
 * ~34 MB of day rows, partial days and spans; at 16 MiB every call of a burst read its rows again.
 */
export const EDGE_ROWS_MAX_BYTES = 64 * 1024 * 1024;

interface Kept {
  read: Promise<unknown>;
  /** Counted once the read is in (0 before). */
  bytes: number;
}

interface Handle {
  /** By company, stamp, span and machines; least recently used first. */
  kept: Map<string, Kept>;
  bytes: number;
}
const handles = new WeakMap<object, Handle>();
/** By the kind of read (its key's first part): calls answered kept, joined to a read under way, and read (with ms). */
const tallies = new Map<string, { kept: number; joined: number; read: number; readMs: number }>();

/** The kept reads' tallies since the last call, by kind (bench/report-load.ts prints them); resets them. */
export function keptReadTallies(): Array<
  [string, { kept: number; joined: number; read: number; readMs: number }]
> {
  const out = [...tallies];
  tallies.clear();
  return out;
}
/** Off: every call reads its partial days' rows (tests, bench/report-answer.ts). */
const disabled = new WeakSet<object>();

/** Turns the kept partial days' rows of a database handle on (default) or off (and empties them). */
export function useEdgeRows(db: object, on: boolean): void {
  if (on) disabled.delete(db);
  else {
    disabled.add(db);
    handles.delete(db);
  }
}

/**
 * loadRollups of the machines over [start, end) (a partial day of a report's range), kept while the company's
 * week rows stamp holds (read after it: never older than it). With `computedAt`, each machine's latest
 * computed_at among the rows is set there as loadRollups sets it. The rows are shared between callers: they
 * must not be changed (the report code only reads them).
 */
export async function indexedRollups(
  scope: CompanyScope,
  input: { machineIds: string[]; start: number; end: number; computedAt?: Map<string, number> },
): Promise<Rollup[]> {
  const { computedAt, ...range } = input;
  if (input.machineIds.length === 0 || disabled.has(scope.db)) return loadRollups(scope, input);
  const { rows, computedAt: at } = await keptWithStamp(
    scope,
    ['hourly', range.start, range.end, ...range.machineIds],
    (r) => r.rows.length * ROW_BYTES,
    () => read(scope, range),
  );
  if (computedAt) for (const [id, t] of at) computedAt.set(id, Math.max(t, computedAt.get(id) ?? t));
  return rows;
}

/**
 * `read()`'s result kept per database handle under `parts` while the company's week rows stamp holds (read
 * before it: never older than it), counted as `bytes(result)` against the bound: for reads of hourly or day
 * rows, which every recompute that changes them moves the stamp for (decisions 1148, 1157). Shared between
 * callers: it must not be changed. A result `keep` refuses is given to the callers that asked while it was
 * read and then dropped (decision 1185: rows judged at a call's now). Turned off with useEdgeRows.
 */
export async function keptWithStamp<T>(
  scope: CompanyScope,
  parts: ReadonlyArray<string | number>,
  bytes: (result: T) => number,
  read: () => Promise<T>,
  keep: (result: T) => boolean = () => true,
): Promise<T> {
  if (disabled.has(scope.db)) return read();
  const { stamp } = await stampOf(scope);
  let handle = handles.get(scope.db);
  if (!handle) handles.set(scope.db, (handle = { kept: new Map(), bytes: 0 }));
  const key = [scope.companyId, stamp, ...parts].join('\n');
  let kept = handle.kept.get(key);
  const kind = String(parts[0]);
  let tally = tallies.get(kind);
  if (!tally) tallies.set(kind, (tally = { kept: 0, joined: 0, read: 0, readMs: 0 }));
  if (kept) {
    if (kept.bytes > 0) tally.kept++;
    else tally.joined++;
    // Most recently used last.
    handle.kept.delete(key);
    handle.kept.set(key, kept);
  } else {
    const h = handle;
    const t0 = performance.now();
    const t = tally;
    t.read++;
    const entry: Kept = { read: read(), bytes: 0 };
    kept = entry;
    h.kept.set(key, entry);
    entry.read.then(
      (result) => {
        t.readMs += performance.now() - t0;
        if (h.kept.get(key) !== entry) return;
        if (!keep(result as T)) return drop(h, key);
        entry.bytes = bytes(result as T);
        h.bytes += entry.bytes;
        // A read over half the bound is not kept (it would push out everything else); then the oldest go.
        if (entry.bytes > EDGE_ROWS_MAX_BYTES / 2) drop(h, key);
        for (const [k] of h.kept) {
          if (h.bytes <= EDGE_ROWS_MAX_BYTES) break;
          drop(h, k);
        }
      },
      () => drop(h, key), // a failed read is not kept: the next call reads again
    );
  }
  return (await kept.read) as T;
}

async function read(
  scope: CompanyScope,
  range: { machineIds: string[]; start: number; end: number },
): Promise<{ rows: Rollup[]; computedAt: Map<string, number> }> {
  const computedAt = new Map<string, number>();
  const rows = await loadRollups(scope, { ...range, computedAt });
  return { rows, computedAt };
}

function drop(handle: Handle, key: string): void {
  const kept = handle.kept.get(key);
  if (!kept) return;
  handle.kept.delete(key);
  handle.bytes -= kept.bytes;
}
