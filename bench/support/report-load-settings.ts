// bench/report-load.ts's settings from its environment (the BENCH_* variables its header lists): what each part
// prints, how warm the node is when measured, which parts and variants run.

/** BENCH_TEXTS=1: print the API's statements of each CLIENTS-client part by their summed time. */
export const TEXTS = process.env.BENCH_TEXTS === '1';
/**
 * A round's wait after its ingest started: the restarted ingest takes its machines over first, and (decision 1260) a
 * node measured "while 1,000 machines ingest" has been ingesting a while, its code compiled, as a plant's node is.
 */
export const WARM_MS = 20_000;
/**
 * BENCH_COLD=1 (decision 1260): the first round measured as the bench used to, right after the adapters connected and
 * with no run of the mix before the shared part, V8 still compiling the ingest's and the reports' code (its background
 * compiles took a core's half in the part): a node's first minute.
 */
export const COLD = process.env.BENCH_COLD === '1';
/** BENCH_SHARED=on or off: only that part (both by default). */
export const SHARING =
  process.env.BENCH_SHARED === 'on' ? [true] : process.env.BENCH_SHARED === 'off' ? [false] : [false, true];

/**
 * BENCH_VARIANTS: the arrangements of the report work compared, each its build hold (ms; '-': BUILD_HOLD_MS), or
 * `prepared` / `plain`: PostgreSQL statements prepared by name on their connections or not (decision 1244; the API's
 * pool from the round's first statement, the ingest thread's from its start).
 */
export const VARIANTS = (process.env.BENCH_VARIANTS ?? '')
  .split(',')
  .filter((v) => v !== '')
  .map((name) => ({
    name,
    hold: ['-', 'prepared', 'plain', 'threads', 'loop', 'turns', 'inline'].includes(name)
      ? undefined
      : Number(name),
    prepared: name === 'prepared' ? true : name === 'plain' ? false : undefined,
    threads: name === 'threads' ? true : name === 'loop' ? false : undefined,
    turns: name === 'turns' ? true : name === 'inline' ? false : undefined,
  }));

/** The bench's line saying how warm the node is when measured (decision 1260). */
export function warmthLine(): string {
  return COLD
    ? '  BENCH_COLD=1: the first round measured right after the adapters connected, without a run of the mix before'
    : `  warm (decision 1260): each round measured after ${WARM_MS / 1000} s of ingest, the mix run once before the first`;
}
