/** Refusals and unknown machines are logged at most once per key this often (a flood must not flood the log). */
export const LOG_EVERY_MS = 60_000;

/**
 * A log that passes the first message per key, then at most one per `everyMs` with the count held back.
 * Mutates its own map of keys only.
 */
export function limitedLog(
  log: (message: string) => void,
  now: () => number,
  everyMs = LOG_EVERY_MS,
): (key: string, message: string) => void {
  const logged = new Map<string, { at: number; held: number }>();
  return (key, message) => {
    const t = now();
    const last = logged.get(key);
    if (last && t - last.at < everyMs) {
      last.held++;
      return;
    }
    logged.set(key, { at: t, held: 0 });
    log(last && last.held > 0 ? `${message} (and ${last.held} more like it)` : message);
  };
}
