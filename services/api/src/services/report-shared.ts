import { constants as zlibConstants, gzip, gzipSync } from 'node:zlib';
import { reportDataVersion } from '@takt/db/rollups';
import { noteVersionRead } from '../repositories/config-cache';
import type { ReportInstant } from '../repositories/config-cache';
import type { ServiceCtx } from './context';
import { inTurn } from './report-turns';

// Shared report answers (decision 1148): the same report with the same parameters, company, caller's view and
// data version is computed once and given to every caller who asks for it, and callers asking while it is
// being computed wait for that computation instead of starting their own. What is kept is bounded by the answers'
// size (SHARED_ANSWER_BUDGET per database handle), not by their number.

/** How long after its `now` an answer whose range reaches into unsettled time is given again (ms). */
export const LIVE_REUSE_MS = 1_000;
/**
 * How long after its `now` a settled answer is given again (ms): a bound on how stale an answer can be for a write
 * the data version does not see (a labor activity or operator run edited, a row changed behind the API's back).
 */
export const SETTLED_REUSE_MS = 60_000;
/**
 * What the answers kept per database may weigh: the sum of their sizes, each measured once when it is computed as
 * the length of its JSON (the text its responses send), twice for an object (the object and its text, kept with it,
 * decision 1248), plus its key's; the least recently used go first.
 */
export const SHARED_ANSWER_BUDGET = 64 * 1024 * 1024;
/** An answer larger than this is not kept (computed for each call): it would push out too many others. */
export const SHARED_ANSWER_MAX = SHARED_ANSWER_BUDGET / 4;

interface Entry {
  /** When the answer was computed (ctx.now). */
  now: number;
  /** Its range ended by then and nothing in it was marked for recomputation: it no longer depends on now. */
  settled: boolean;
  /** Still being computed. */
  pending: boolean;
  /** Its size once computed (JSON length of the answer plus the key's length); 0 while pending. */
  size: number;
  answer: Promise<unknown>;
}

/** The answers of one database handle, least recently used first, and the sum of their sizes. */
interface Cache {
  entries: Map<string, Entry>;
  size: number;
  /** Data version reads in flight, by company and range end: callers arriving meanwhile join the read. */
  versions: Map<string, ReturnType<typeof reportDataVersion>>;
  /** The report instant of each company and data version (decision 1256), the oldest first. */
  instants: Map<string, ReportInstant>;
}

/** Report instants a cache holds at most (those older than LIVE_REUSE_MS go whenever a new one is taken). */
const INSTANTS = 1_024;

/**
 * The report instant of the company's calls under one data version (`key`) at `now` (decision 1256): the instant
 * taken by the first call at most LIVE_REUSE_MS before `now` (and not after it), else `now`, a new one. A call is
 * computed at its instant: every call of the company within that time under the version is computed at the same now
 * (the staleness a shared answer already has, LIVE_REUSE_MS), so they agree with each other and share their reads
 * and builds of the facts at it (heldAtInstant).
 */
function instantOf(cache: Cache, key: string, now: number): ReportInstant {
  const held = cache.instants.get(key);
  if (held && now >= held.now && now - held.now <= LIVE_REUSE_MS) return held;
  for (const [k, i] of cache.instants)
    if (k === key || i.now < now - LIVE_REUSE_MS || cache.instants.size >= INSTANTS) cache.instants.delete(k);
  const instant: ReportInstant = { now, values: new Map() };
  cache.instants.set(key, instant);
  return instant;
}

/** One cache per database handle (a test's harness, the API process's pool), never shared between them. */
const caches = new WeakMap<object, Cache>();
let sharing = true;

/** Forget `key`'s entry (if it is still `entry`, when given), and its size. */
function drop(cache: Cache, key: string, entry?: Entry): void {
  const held = cache.entries.get(key);
  if (!held || (entry && held !== entry)) return;
  cache.entries.delete(key);
  cache.size -= held.size;
}

/**
 * The JSON text of each computed answer, measured once when it is computed (decision 1185) and kept with it
 * (decision 1248): every response of a kept answer sends that text instead of serializing the answer again, and its
 * gzip bytes are made once from it. Weak: the text and bytes go with their answer.
 */
const measured = new WeakMap<object, string>();
/** Each answer's gzip bytes, made (off the event loop) by the first response that asks for them. */
const gzipped = new WeakMap<object, Promise<Uint8Array<ArrayBuffer>>>();

/**
 * `answer`'s JSON text, made where it was computed (a report thread, decision 1253): its size is measured on it and
 * its responses send it, so this loop does not serialize the answer.
 */
export function keepAnswerText(answer: unknown, text: string): void {
  if (typeof answer === 'object' && answer !== null) measured.set(answer, text);
}

/** The answer's size (its JSON's length), or undefined when it has none (not kept). */
function sizeOf(answer: unknown): number | undefined {
  try {
    const text = answerJson(answer);
    if (text !== undefined && typeof answer === 'object' && answer !== null) measured.set(answer, text);
    return text?.length;
  } catch {
    return undefined;
  }
}

/** A shared answer as JSON (what c.json sends): the text its size was measured on, else serialized. */
export function answerJson(answer: unknown): string {
  if (typeof answer === 'object' && answer !== null) {
    const text = measured.get(answer);
    if (text !== undefined) return text;
  }
  return JSON.stringify(answer);
}

/** answerJson's text gzipped, made once per answer (the later responses of a kept answer send the same bytes). */
export function answerGzip(answer: unknown, text: string): Promise<Uint8Array<ArrayBuffer>> {
  if (typeof answer !== 'object' || answer === null || measured.get(answer) !== text) return gzipText(text);
  let bytes = gzipped.get(answer);
  if (!bytes) {
    bytes = gzipText(text);
    gzipped.set(answer, bytes);
    // A failure is the asking response's; the next one tries again.
    bytes.catch(() => gzipped.delete(answer));
  }
  return bytes;
}

/**
 * The text gzipped (decision 1258). Up to GZIP_SYNC_MAX on the event loop, at once: in the thread pool the bytes came
 * back on a later turn of the loop, and under load every turn runs another call's computation first (the SQLite
 * driver holds the loop for each; decision 1259 starts one a turn), so a computed answer waited behind other calls'
 * work before its first byte left. A larger text in the thread pool, its output in one chunk as large
 * as half the text (JSON shrinks far more; zlib's 16 KiB default took a turn of the loop a chunk).
 */
function gzipText(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const options = {
    level: GZIP_LEVEL,
    chunkSize: Math.min(GZIP_CHUNK_MAX, Math.max(zlibConstants.Z_DEFAULT_CHUNK, text.length >> 1)),
  };
  if (text.length <= GZIP_SYNC_MAX) {
    try {
      return Promise.resolve(gzipSync(text, options) as Uint8Array<ArrayBuffer>);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
  return new Promise((resolve, reject) =>
    gzip(text, options, (error, out) => (error ? reject(error) : resolve(out as Uint8Array<ArrayBuffer>))),
  );
}
/**
 * The longest text gzipped on the event loop (characters): ~17 ms at level 1 on this 2-core machine, less than the
 * computation of an answer that long.
 */
const GZIP_SYNC_MAX = 4 * 1024 * 1024;
/** The largest output chunk asked of zlib (bytes): what one gzip in the thread pool holds beyond its answer's text. */
const GZIP_CHUNK_MAX = 8 * 1024 * 1024;
/**
 * zlib's level for answers (decision 1258): 1, nginx's default, ~2.5× faster than 6 for ~1.2× the bytes (this month's
 * production answer by machine × day: 830 KB of JSON in 3.4 ms to 134 KB, against 8.8 ms to 115 KB at level 6).
 */
const GZIP_LEVEL = 1;

/**
 * `entry` under `key` has been computed: count its size, and drop it if it is too large to keep; then drop the
 * least recently used computed answers until the cache fits its budget (answers being computed have no size yet
 * and stay, their callers wait for them).
 */
function settle(cache: Cache, key: string, entry: Entry, answer: unknown): void {
  entry.pending = false;
  if (cache.entries.get(key) !== entry) return;
  const size = sizeOf(answer);
  if (size === undefined || key.length + size > SHARED_ANSWER_MAX) return drop(cache, key, entry);
  // An object answer and its JSON text, each counted at the text's length (decision 1248: the text is kept with it).
  entry.size = key.length + (typeof answer === 'object' && answer !== null ? 2 : 1) * size;
  cache.size += entry.size;
  for (const [k, e] of cache.entries) {
    if (cache.size <= SHARED_ANSWER_BUDGET) break;
    if (!e.pending) drop(cache, k, e);
  }
}

/**
 * The company's data version at `end`, read once for the callers that ask while it is being read: they resume
 * together, so the first one's computation is in flight when the next one looks for it (a caller arriving while
 * a computation runs already takes an answer from data read before it arrived; joining the read is the same).
 */
function dataVersion(cache: Cache, ctx: ServiceCtx, end: number): ReturnType<typeof reportDataVersion> {
  const key = `${ctx.scope.companyId}|${end}`;
  const held = cache.versions.get(key);
  if (held) return held;
  const reading = reportDataVersion(ctx.scope, end);
  cache.versions.set(key, reading);
  const forget = () => {
    if (cache.versions.get(key) === reading) cache.versions.delete(key);
  };
  reading.then(forget, forget);
  return reading;
}

/** The size of what `db`'s cache keeps (for tests): answers kept and the sum of their sizes. */
export function sharedAnswersKept(db: object): { answers: number; size: number } {
  const cache = caches.get(db);
  return { answers: cache?.entries.size ?? 0, size: cache?.size ?? 0 };
}

/**
 * For bench/report-load.ts, which measures with and without shared answers in one run: turn sharing on or
 * off, and forget what `db`'s cache holds.
 */
export function useSharedAnswers(db: object, on: boolean): void {
  sharing = on;
  caches.delete(db);
}

/** Parameters as a stable text: keys sorted, undefined left out; array order kept (it can change answers). */
function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalized);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .map((k) => [k, normalized((value as Record<string, unknown>)[k])]),
    );
  return value;
}

/**
 * The answer of `call` with `params` for the caller's company, computed by `compute` with the call's context at its
 * report instant (decision 1256: its `now` at most LIVE_REUSE_MS before the caller's, see instantOf): given again
 * from an earlier computation when the company, the call, its normalized parameters, the caller's view (product tier
 * and admin, what their permissions follow from) and the data version (reportDataVersion at the range's end) are the
 * same, and the
 * answer either no longer depends on now (its range ended before it was computed and no pending mark reaches
 * into the range) and was computed at most SETTLED_REUSE_MS before this call's instant, or at it; while one is
 * being computed (begun at or before this call's instant), the same call waits for it. A failure is not kept.
 * Inside a transaction (or with sharing off) it is always computed, at the caller's now.
 * The answer is shared: callers must not change it.
 */
export async function sharedAnswer<T>(
  callerCtx: ServiceCtx,
  call: string,
  params: object,
  range: { start: number; end: number },
  compute: (ctx: ServiceCtx) => Promise<T>,
): Promise<T> {
  const db = callerCtx.scope.db;
  if (db.isTransaction || !sharing) return compute(callerCtx);
  let cache = caches.get(db);
  if (!cache)
    caches.set(db, (cache = { entries: new Map(), size: 0, versions: new Map(), instants: new Map() }));
  const { version, marks, config } = await dataVersion(cache, callerCtx, range.end);
  const instant = instantOf(cache, `${callerCtx.scope.companyId}|${version}`, callerCtx.now);
  const ctx = instant.now === callerCtx.now ? callerCtx : { ...callerCtx, now: instant.now };
  const user = ctx.caller.user;
  const view = [ctx.caller.company.productTier, user.role === 'admin' || user.isRoot];
  const key = JSON.stringify([ctx.scope.companyId, call, normalized(params), view, version]);
  const seen = cache.entries.get(key);
  const settledNow = range.end <= ctx.now;
  if (
    seen &&
    ctx.now >= seen.now &&
    (seen.pending || ctx.now - seen.now <= (seen.settled && settledNow ? SETTLED_REUSE_MS : LIVE_REUSE_MS))
  ) {
    cache.entries.delete(key);
    cache.entries.set(key, seen);
    return seen.answer as Promise<T>;
  }
  // Decisions 1250, 1251: while the computation runs, its configuration reads may take what was read at this
  // generation or later, and its reads of marks before the range's end know whether any were pending (a scope that
  // outlives it reads for itself again).
  const forget = noteVersionRead(ctx.scope, { config, end: range.end, marks }, instant);
  const entry: Entry = {
    now: ctx.now,
    settled: settledNow && marks === 0,
    pending: true,
    size: 0,
    // Started in a turn of its own (decision 1259), the callers who asked meanwhile joining it.
    answer: inTurn(() => compute(ctx)),
  };
  entry.answer.then(forget, forget);
  // A stale answer under the same key goes, and the new one is the most recently used.
  drop(cache, key);
  cache.entries.set(key, entry);
  entry.answer.then(
    (answer) => settle(cache, key, entry, answer),
    () => drop(cache, key, entry),
  );
  return entry.answer as Promise<T>;
}
