import { sql } from 'kysely';
import type { CompanyScope } from '../scope';
import { recomputesNoted } from './version';

// The stamp of a company's week rows (decisions 1157, 1168): the count, latest and sum of computed_at of its week
// rows (one walk of the (company_id, computed_at, start_at) index of migration 0051) and the recomputes this
// process committed. The week index is good while it holds; so are the partial days' hourly rows kept beside it
// (edge-rows.ts, decision 1183): a recompute that changes hourly or day rows gives the week rows its computed_at.

/** Count, latest and sum of computed_at of some week rows (the sum exact: a year of a plant exceeds 2^53). */
export interface Totals {
  n: number;
  latest: number;
  sum: bigint;
}

/** Whether two totals are the same. */
export const sameTotals = (a: Totals, b: Totals): boolean =>
  a.n === b.n && a.sum === b.sum && a.latest === b.latest;

/**
 * The totals of some rows' computed_at: summed as numbers while exact (integers below 2^53: a machine's year of week
 * rows is ~2^48), one BigInt per machine instead of one per row (decision 1217).
 */
export function totalsOf(computedAt: Float64Array): Totals {
  const totals: Totals = { n: computedAt.length, latest: Number.NEGATIVE_INFINITY, sum: 0n };
  let sum = 0;
  for (const c of computedAt) {
    const at = Math.round(c);
    if (sum + at > Number.MAX_SAFE_INTEGER) {
      totals.sum += BigInt(sum);
      sum = 0;
    }
    sum += at;
    if (c > totals.latest) totals.latest = c;
  }
  totals.sum += BigInt(sum);
  return totals;
}

/** A stamp of the company's week rows (see stampOf). */
export interface Stamp extends Totals {
  stamp: string;
  recomputes: number;
}

/**
 * Stamp reads in flight, by database handle and company (decision 1183): a caller asking while one is being read
 * at the same recompute count joins it (the OEE waterfall's cells and reasons, a mid-day range's edges, managers
 * calling at once), so it is one statement instead of one each. Its answer is then as of that read, a few ms before
 * the call, which is no older than a call started then; a recompute of this process since moves the count, so
 * this process's own writes are never missed.
 */
const stampsReading = new WeakMap<object, Map<string, { recomputes: number; read: Promise<Stamp> }>>();

/**
 * The stamps of one call's scopes (oneCallScope): read once for the call at a recompute count. Weak: it goes with
 * the call's scope.
 */
const callStamps = new WeakMap<CompanyScope, { recomputes: number; read: Promise<Stamp> } | null>();

/**
 * A scope of `scope`'s company for one report call (decision 1197): the same reads, with the week rows stamp read
 * once for the call instead of once by each of its reads of the week index, the partial days and the kept spans
 * (up to four a call, one after another). The call's answer is then as of its first read, as a call whose reads
 * joined one in flight is (above); a recompute of this process since moves the count, and the stamp is read again.
 * Only for a call's lifetime: a scope kept longer would not see other processes' recomputes.
 */
export function oneCallScope(
  scope: CompanyScope,
  opts: {
    readStamp?: boolean;
    /**
     * The stamp the call takes, read at `recomputes` (decision 1258: the one read at the call's report instant, shared
     * by the calls computed at it), instead of one of its own; a recompute of this process since reads it again.
     */
    held?: { recomputes: number; read: Promise<Stamp> };
  } = {},
): CompanyScope {
  // Already a call's scope (a report's reads given the scope its call began with): the same call, the same stamp.
  let call = scope;
  if (!callStamps.has(scope)) callStamps.set((call = { ...scope }), opts.held ?? null);
  // Decision 1240: the stamp read at once, alongside the call's first reads (its machines, calendar), instead of
  // after them; a failure is the first reader's to see.
  if (opts.readStamp) void stampOf(call).catch(() => undefined);
  return call;
}

/** The company's week rows stamp (see above), joining a read in flight at the same recompute count. */
export function stampOf(scope: CompanyScope): Promise<Stamp> {
  const recomputes = recomputesNoted(scope.companyId); // before the read: a recompute committing after it moves the stamp
  const once = callStamps.get(scope);
  if (once !== undefined) {
    if (once?.recomputes === recomputes) return once.read;
    const read = stampRead(scope, recomputes);
    callStamps.set(scope, { recomputes, read });
    return read;
  }
  return stampRead(scope, recomputes);
}

/** The stamp read at `recomputes`, or the one in flight at that count. */
function stampRead(scope: CompanyScope, recomputes: number): Promise<Stamp> {
  let reading = stampsReading.get(scope.db);
  if (!reading) stampsReading.set(scope.db, (reading = new Map()));
  const company = scope.companyId;
  const inFlight = reading.get(company);
  if (inFlight?.recomputes === recomputes) return inFlight.read;
  const entry = { recomputes, read: readStamp(scope, recomputes) };
  const map = reading;
  entry.read = entry.read.finally(() => {
    if (map.get(company) === entry) map.delete(company);
  });
  reading.set(company, entry);
  return entry.read;
}

/** The company's week rows stamp: one index walk, with this process's recompute count read before it. */
async function readStamp(scope: CompanyScope, recomputes: number): Promise<Stamp> {
  // The sum as text: exact on both dialects (better-sqlite3 gives a rounded number above 2^53).
  const { rows } = await sql<{ n: number | string; at: unknown; s: string | null }>`select count(*) as n,
      max(computed_at) as at, cast(sum(computed_at) as text) as s from rollup_weeks
      where company_id = ${scope.companyId}`.execute(scope.db);
  const r = rows[0]!;
  return {
    stamp: `${String(r.n)}:${String(r.at)}:${String(r.s)}:${recomputes}`,
    recomputes,
    n: Number(r.n),
    latest: r.at === null ? Number.NEGATIVE_INFINITY : Number(r.at),
    // Not an integer (a computed_at stored as a float): no incremental reload adds up to it.
    sum: r.s === null ? 0n : /^\d+$/.test(r.s) ? BigInt(r.s) : -1n,
  };
}
