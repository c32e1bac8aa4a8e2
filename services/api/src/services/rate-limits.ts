import type { Executor } from '@takt/db';
import { dropCountersBefore } from '../repositories/rate-limits';
import { everyInterval } from '../workers/interval';

/** No rate limit's window is longer than this (decision 0987); older counters are dropped. */
export const LONGEST_RATE_WINDOW_MS = 24 * 3_600_000;

/** The housekeeping round (main.ts): drops counters no window can still use. Mutates rate_limits. */
export const pruneRateLimits = (db: Executor, now: number): Promise<number> =>
  dropCountersBefore(db, now - LONGEST_RATE_WINDOW_MS);

/** Prunes old counters every `intervalMs` in this API process (main.ts); stop() waits for the round. */
export function startRateLimitPruner(
  deps: { db: Executor; now: () => number; log?: (line: string) => void },
  intervalMs = 10 * 60_000,
) {
  return everyInterval(
    () => pruneRateLimits(deps.db, deps.now()),
    intervalMs,
    (err) => deps.log?.(`[rate-limits] prune: ${err.message}`),
  );
}
