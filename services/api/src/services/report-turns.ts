// Report computations take turns with the API's I/O (decision 1259). The event loop accepts one new connection a turn
// (libuv's listening socket takes one connection each time the poll reports it) and reads a connection's request on a
// later turn; a computation on SQLite runs to its end inside the turn that started it (the driver is synchronous).
// Computed where their request was read, the calls that arrived together ran back to back in one turn of hundreds of
// ms, and 20 managers' first connections were accepted one such turn at a time: the last ones waited a second before
// their request was even read, for an answer another call had already made. Here a computation starts in a turn of
// its own (the check phase, after the poll), one a turn, in the order they were asked, and not while connections are
// still being accepted: the turns of a burst of connections are short, each accepting one and reading what has come,
// so every caller of the burst is read (and given a kept answer at once) before the computations run.

import { AsyncResource } from 'node:async_hooks';

/**
 * The most turns in a row a waiting computation gives to connections being accepted: under a flood of connections
 * the computations still go on (one a turn at the least, once this many turns passed).
 */
export const ACCEPT_TURNS_MAX = 64;

/** Off only for benches that compare (useReportTurns): each computation starts where it is asked. */
let taking = true;

/** For bench/report-load.ts, which compares both in one run: computations take turns (true) or start at once. */
export function useReportTurns(on: boolean): void {
  taking = on;
}

/**
 * The computations asked and not yet ended, waiting for their turn or running (decision 1261), in memory the node's
 * ingest thread can read: its rollup worker lets them go first. One Int32 the API's thread alone writes.
 */
export const REPORTS_UNDER_WAY = new SharedArrayBuffer(4);
const underWay = new Int32Array(REPORTS_UNDER_WAY);

/** Whether report computations are under way in `buffer` (REPORTS_UNDER_WAY, handed to any thread), as it asks. */
export function reportsUnderWay(buffer: SharedArrayBuffer = REPORTS_UNDER_WAY): () => boolean {
  const count = new Int32Array(buffer);
  return () => Atomics.load(count, 0) > 0;
}

/** `work` counted in REPORTS_UNDER_WAY from now until it ends. */
function counted<T>(work: () => Promise<T>): Promise<T> {
  Atomics.add(underWay, 0, 1);
  const done = () => void Atomics.sub(underWay, 0, 1);
  let running: Promise<T>;
  try {
    running = work();
  } catch (error) {
    done();
    throw error;
  }
  running.then(done, done);
  return running;
}

/** Computations waiting for their turn, the first asked first. */
const waiting: Array<() => void> = [];
let scheduled = false;
/** Connections accepted since the last turn looked. */
let accepted = 0;
/** Turns given in a row to accepted connections while computations waited. */
let given = 0;

/** The API's server accepted a connection (its 'connection' event): computations wait a turn for the next one. */
export function noteConnection(): void {
  accepted++;
}

function schedule(): void {
  if (scheduled || waiting.length === 0) return;
  scheduled = true;
  setImmediate(turn);
}

function turn(): void {
  scheduled = false;
  if (accepted > 0 && given < ACCEPT_TURNS_MAX) {
    // The poll of this turn accepted a connection: more may wait in the listening socket's queue.
    accepted = 0;
    given++;
    return schedule();
  }
  accepted = 0;
  given = 0;
  waiting.shift()?.();
  schedule();
}

/**
 * `compute` started in a turn of its own (see above), after the computations asked before it started; its result.
 * A computation that waits (a PostgreSQL statement, a build handing the loop back) lets the next one start meanwhile.
 * Counted in REPORTS_UNDER_WAY from when it is asked until it ends.
 */
export function inTurn<T>(compute: () => Promise<T>): Promise<T> {
  if (!taking) return counted(compute);
  return counted(() => inTurnUncounted(compute));
}

function inTurnUncounted<T>(compute: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // In the asking call's async context (its request's), not the turn's.
    waiting.push(
      AsyncResource.bind(() => {
        try {
          compute().then(resolve, reject);
        } catch (error) {
          reject(error as Error);
        }
      }),
    );
    schedule();
  });
}
