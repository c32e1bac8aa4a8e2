// What the node's worker threads share (node-ingest.ts: the ingest thread, decision 1226; node-reports.ts: the report
// threads, decision 1253): the file a thread starts from, and the wait before a thread that died starts again.

/**
 * The file a worker thread starts from, for a starter module at `here` (its import.meta.url) and the thread's
 * module `module` beside it: from sources, tsx's loader is registered first (ingest-thread-boot.mjs) and the module
 * imported; a bundled product (one .mjs, the end-to-end tests') holds the thread's module in its own file.
 */
export function threadFileOf(here: string, module: string): { file: URL; entry?: string } {
  if (!here.endsWith('.ts')) return { file: new URL(here) };
  return { file: new URL('./ingest-thread-boot.mjs', here), entry: new URL(module, here).href };
}

/** A dead thread is started again after this, doubled at each death in a row up to RESTART_MAX_MS. */
export const RESTART_FIRST_MS = 1_000;
export const RESTART_MAX_MS = 30_000;
/** A thread that ran this long before it died starts the backoff afresh. */
const RESTART_STEADY_MS = 60_000;

/** The waits before one thread's restarts: `after(ranMs)` is the next, given how long the thread ran before it died. */
export function restartBackoff(): { after(ranMs: number): number } {
  let backoffMs = RESTART_FIRST_MS;
  return {
    after(ranMs) {
      if (ranMs >= RESTART_STEADY_MS) backoffMs = RESTART_FIRST_MS;
      const wait = backoffMs;
      backoffMs = Math.min(backoffMs * 2, RESTART_MAX_MS);
      return wait;
    },
  };
}
