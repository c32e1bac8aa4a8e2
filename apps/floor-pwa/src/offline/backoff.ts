// live-operations §9: reconnect delay 4 s to 60 s, doubling (the offline toast and the sync loop share it).

export const BACKOFF_MIN_MS = 4000;
export const BACKOFF_MAX_MS = 60_000;

/** The wait before retry number `failures` (1 = after the first failure): 4 s, 8 s, 16 s, 32 s, 60 s, 60 s… */
export function backoffDelay(failures: number): number {
  const n = Math.max(1, Math.floor(failures));
  // 2 ** 30 would overflow nothing, but stop doubling once past the cap anyway.
  return n > 5 ? BACKOFF_MAX_MS : Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (n - 1));
}

/** Whole seconds left until `at` (never negative), for a countdown that ticks every second. */
export const secondsUntil = (at: number, now: number): number => Math.max(0, Math.ceil((at - now) / 1000));
