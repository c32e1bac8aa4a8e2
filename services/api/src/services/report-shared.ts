import { reportDataVersion } from '@takt/db/rollups';
import type { ServiceCtx } from './context';

// Shared report answers (decision 1148): the same report with the same parameters, company, caller's view and
// data version is computed once and given to every caller who asks for it, and callers asking while it is
// being computed wait for that computation instead of starting their own.

/** How long after its `now` an answer whose range reaches into unsettled time is given again (ms). */
export const LIVE_REUSE_MS = 1_000;
/**
 * How long after its `now` a settled answer is given again (ms): a bound on how stale an answer can be for a write
 * the data version does not see (a labor activity or operator run edited, a row changed behind the API's back).
 */
export const SETTLED_REUSE_MS = 60_000;
/** Answers kept per database (the oldest used goes first). */
export const SHARED_ANSWERS = 32;

interface Entry {
  /** When the answer was computed (ctx.now). */
  now: number;
  /** Its range ended by then and nothing in it was marked for recomputation: it no longer depends on now. */
  settled: boolean;
  /** Still being computed. */
  pending: boolean;
  answer: Promise<unknown>;
}

/** One cache per database handle (a test's harness, the API process's pool), never shared between them. */
const caches = new WeakMap<object, Map<string, Entry>>();
let sharing = true;

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
 * The answer of `call` with `params` for the caller's company: given again from an earlier computation when
 * the company, the call, its normalized parameters, the caller's view (product tier and admin, what their
 * permissions follow from) and the data version (reportDataVersion at the range's end) are the same, and the
 * answer either no longer depends on now (its range ended before it was computed and no pending mark reaches
 * into the range) and was computed at most SETTLED_REUSE_MS before this call's now, or was computed at most
 * LIVE_REUSE_MS before it; while one is being computed
 * (begun at or before this call's now), the same call waits for it. A failure is not kept. Inside a transaction it is always computed.
 * The answer is shared: callers must not change it.
 */
export async function sharedAnswer<T>(
  ctx: ServiceCtx,
  call: string,
  params: object,
  range: { start: number; end: number },
  compute: () => Promise<T>,
): Promise<T> {
  const db = ctx.scope.db;
  if (db.isTransaction || !sharing) return compute();
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const { version, marks } = await reportDataVersion(ctx.scope, range.end);
  const user = ctx.caller.user;
  const view = [ctx.caller.company.productTier, user.role === 'admin' || user.isRoot];
  const key = JSON.stringify([ctx.scope.companyId, call, normalized(params), view, version]);
  const seen = cache.get(key);
  const settledNow = range.end <= ctx.now;
  if (
    seen &&
    ctx.now >= seen.now &&
    (seen.pending || ctx.now - seen.now <= (seen.settled && settledNow ? SETTLED_REUSE_MS : LIVE_REUSE_MS))
  ) {
    cache.delete(key);
    cache.set(key, seen);
    return seen.answer as Promise<T>;
  }
  const entry: Entry = {
    now: ctx.now,
    settled: settledNow && marks === 0,
    pending: true,
    answer: compute(),
  };
  cache.set(key, entry);
  while (cache.size > SHARED_ANSWERS) cache.delete(cache.keys().next().value!);
  entry.answer.then(
    () => (entry.pending = false),
    () => {
      if (cache.get(key) === entry) cache.delete(key);
    },
  );
  return entry.answer as Promise<T>;
}
