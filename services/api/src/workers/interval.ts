/**
 * A background job of the API process (main.ts): `work` runs every `intervalMs`, one round at a time (a slow
 * round delays the next instead of overlapping it); a failed round is logged and the next one runs as usual.
 * stop() ends the timer and waits for the round under way, so a shutdown never cuts one in half.
 */
export function everyInterval(
  work: () => Promise<unknown>,
  intervalMs: number,
  onError: (err: Error) => void,
): { stop: () => Promise<void> } {
  let round: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    round = round.then(work).catch(onError);
  }, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await round;
    },
  };
}
