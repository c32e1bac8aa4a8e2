import type { Executor } from '@takt/db';
import { ApiError } from './errors';
import { clearCounter, countHit, uncountHit, windowStartOf } from '../repositories/rate-limits';

/**
 * Atomic rate limits shared by every API process (decision 0987), on PostgreSQL and SQLite alike.
 *
 *   const SYNC = rateLimit('sync', 600, 60_000);             // 600 hits a minute per key
 *   const d = await takeHit(db, SYNC, tablet.id, now);       // counts one hit, atomically
 *   if (!d.allowed) throw tooManyRequests(d, 'TOO_MANY_REQUESTS', 'Too many requests. Try again later.');
 *   // or in one line: await enforceRate(db, SYNC, tablet.id, now);
 *
 * A window starts at a key's first hit and lasts `windowMs`; within it at most `limit` hits are allowed, the
 * rest are refused (and not counted) until the window ends: `retryAfterS` says when, for the `Retry-After`
 * header that every 429 carries (app.ts onError). Counters live in `rate_limits`; the housekeeping round
 * drops old ones (pruneRateLimits).
 */
export interface RateLimit {
  /** Names the counter family; the key stored is `<name>:<who>`. */
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
}

export const rateLimit = (name: string, limit: number, windowMs: number): RateLimit => ({
  name,
  limit,
  windowMs,
});

export interface RateDecision {
  allowed: boolean;
  /** Hits left in the window after this one (0 when refused). */
  remaining: number;
  /** Whole seconds until a refused caller may try again (at least 1); 0 when allowed. */
  retryAfterS: number;
}

const keyOf = (rule: RateLimit, who: string) => `${rule.name}:${who}`;

/** Counts one hit of `who` under `rule` and says whether it is allowed. Mutates rate_limits. */
export async function takeHit(
  db: Executor,
  rule: RateLimit,
  who: string,
  now: number,
): Promise<RateDecision> {
  const key = keyOf(rule, who);
  const hit = await countHit(db, key, now, rule.windowMs, rule.limit);
  if (hit) return { allowed: true, remaining: Math.max(0, rule.limit - hit.count), retryAfterS: 0 };
  const start = (await windowStartOf(db, key)) ?? now;
  return { allowed: false, remaining: 0, retryAfterS: retryAfterSeconds(start + rule.windowMs - now) };
}

/** Takes a hit back, e.g. a login that succeeded should not count against its address. */
export const giveBackHit = (db: Executor, rule: RateLimit, who: string): Promise<void> =>
  uncountHit(db, keyOf(rule, who));

/** Forgets `who`'s counter under `rule` (a good login clears its failures). */
export const resetHits = (db: Executor, rule: RateLimit, who: string): Promise<void> =>
  clearCounter(db, keyOf(rule, who));

export const retryAfterSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** A 429 that carries `Retry-After` (seconds). */
export class TooManyRequests extends ApiError {
  constructor(
    readonly retryAfterS: number,
    code = 'TOO_MANY_REQUESTS',
    message = 'Too many requests. Try again later.',
  ) {
    super(429, code, message);
  }
}

export const tooManyRequests = (decision: RateDecision, code?: string, message?: string): TooManyRequests =>
  new TooManyRequests(decision.retryAfterS, code, message);

/** Counts a hit and throws a 429 with Retry-After when it is over the limit. Mutates rate_limits. */
export async function enforceRate(
  db: Executor,
  rule: RateLimit,
  who: string,
  now: number,
  code?: string,
  message?: string,
): Promise<void> {
  const decision = await takeHit(db, rule, who, now);
  if (!decision.allowed) throw tooManyRequests(decision, code, message);
}
