import { Worker } from 'node:worker_threads';

// Decision 1229: SQLite's WAL checkpoint off every event loop. better-sqlite3 is synchronous, and SQLite runs its
// automatic checkpoint (wal_autocheckpoint, 1,000 pages) inside the commit that passes it: the commit copies the WAL
// into the file and fsyncs it on the committing thread, which held the node's event loop 296–820 ms a time (decision
// 1224). The node's connections open with `walCheckpoints: 'external'` (connect.ts: wal_autocheckpoint 0) and this
// thread checkpoints for them, on a connection of its own.

/** A checkpoint pass a second: the WAL holds about a second of writes. */
export const WAL_CHECKPOINT_PERIOD_MS = 1_000;
/**
 * Over this, a pass is a TRUNCATE: it waits for the readers still on the WAL and empties the file. Also the
 * journal_size_limit of the node's connections: a WAL that restarts is cut back to this.
 */
export const WAL_BOUND_BYTES = 64 * 2 ** 20;
/**
 * How long a TRUNCATE waits for the readers still on the WAL (and for a writer's transaction to end) before it gives
 * up and checkpoints what it can, as a PASSIVE pass. While it waits it holds the write lock, so a writer waits as long.
 */
export const WAL_TRUNCATE_WAIT_MS = 100;

/** How long stop() waits for the thread's last pass before it ends the thread. */
const STOP_WAIT_MS = 5_000;

/** What one pass did (answered by the checkpointer's thread). */
export interface CheckpointPass {
  mode: 'PASSIVE' | 'TRUNCATE';
  /** A TRUNCATE that gave up waiting for a reader or a writer. */
  busy: boolean;
  /** Frames in the WAL, and of them those in the file now (SQLite's wal_checkpoint answer). */
  frames: number;
  checkpointed: number;
  walBytesBefore: number;
  walBytes: number;
  ms: number;
}

export interface WalCheckpointer {
  /** One pass now, answered once done (tests and benches); rejects with the pass's error. */
  passNow(): Promise<CheckpointPass>;
  /** Every pass, as it is answered (benches). */
  onPass(listener: (pass: CheckpointPass) => void): void;
  /** A last pass, the connection closed and the thread ended; never rejects. */
  stop(): Promise<void>;
}

type Answer =
  | ({ kind: 'pass'; ask: number | null } & CheckpointPass)
  | { kind: 'error'; ask: number | null; message: string }
  | { kind: 'stopped' };

/**
 * Starts the checkpointer's thread on the SQLite `file` (already in WAL mode). Its errors go to `log`, never up:
 * a checkpoint that fails leaves the WAL to grow until a later pass succeeds, and the node keeps serving.
 */
export function startWalCheckpointer(
  file: string,
  options: { periodMs?: number; boundBytes?: number; busyMs?: number; log?: (line: string) => void } = {},
): WalCheckpointer {
  const log = options.log ?? ((line: string) => console.error(line));
  const worker = new Worker(new URL('./wal-checkpoint-worker.mjs', import.meta.url), {
    workerData: {
      file,
      periodMs: options.periodMs ?? WAL_CHECKPOINT_PERIOD_MS,
      boundBytes: options.boundBytes ?? WAL_BOUND_BYTES,
      busyMs: options.busyMs ?? WAL_TRUNCATE_WAIT_MS,
    },
    // No loader is needed (the thread's file is JavaScript): none of the node's flags are passed on.
    execArgv: [],
  });
  const asked = new Map<number, { resolve: (p: CheckpointPass) => void; reject: (e: Error) => void }>();
  const listeners: Array<(pass: CheckpointPass) => void> = [];
  let next = 0;
  let lastError = '';
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let gone = false;
  let stopping = false;
  void ended.then(() => {
    gone = true;
    for (const { reject } of asked.values()) reject(new Error('the WAL checkpointer has stopped'));
    asked.clear();
  });
  worker.on('message', (answer: Answer) => {
    if (answer.kind === 'stopped') return;
    const waiting = answer.ask === null ? undefined : asked.get(answer.ask);
    if (answer.ask !== null) asked.delete(answer.ask);
    if (asked.size === 0 && !stopping) worker.unref();
    if (answer.kind === 'error') {
      // The same failure every second is said once, until a pass succeeds.
      if (answer.message !== lastError) log(`[wal] checkpoint failed: ${answer.message}`);
      lastError = answer.message;
      waiting?.reject(new Error(answer.message));
      return;
    }
    lastError = '';
    const { kind: _kind, ask: _ask, ...pass } = answer;
    waiting?.resolve(pass);
    for (const listener of listeners) listener(pass);
  });
  // The thread's timer never keeps a process alive on its own (a CLI or test that forgets stop() still exits); a pass
  // asked for and a stop do, until answered.
  worker.unref();
  // A thread that dies (it should not: every pass catches) is logged; the node goes on without checkpoints.
  worker.on('error', (err) => log(`[wal] checkpointer thread failed: ${err.message}`));
  return {
    passNow: () =>
      gone
        ? Promise.reject(new Error('the WAL checkpointer has stopped'))
        : new Promise<CheckpointPass>((resolve, reject) => {
            const ask = next++;
            asked.set(ask, { resolve, reject });
            worker.ref();
            worker.postMessage({ kind: 'pass', ask });
          }),
    onPass: (listener) => listeners.push(listener),
    stop: async () => {
      if (gone) return;
      stopping = true;
      worker.ref();
      worker.postMessage({ kind: 'stop' });
      // A last pass stuck behind a lock (it waits WAL_TRUNCATE_WAIT_MS at most) must not hold a shutdown.
      const late = setTimeout(() => void worker.terminate(), STOP_WAIT_MS);
      await ended;
      clearTimeout(late);
    },
  };
}
