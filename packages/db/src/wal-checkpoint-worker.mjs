// The WAL checkpointer's thread (wal-checkpointer.ts, decision 1229). Plain JavaScript on purpose: a Worker runs
// with no TypeScript loader under vitest (and needs tsx's in execArgv under node), so this file loads the same
// wherever the node runs. It holds its own better-sqlite3 connection to the file and, every `periodMs`, runs
// `PRAGMA wal_checkpoint(PASSIVE)` (copies what the WAL holds into the file without waiting for anyone); once the
// -wal file is over `boundBytes`, a TRUNCATE instead, which waits up to `busyMs` for the readers still on the WAL
// and empties the file. Every pass is answered to the node's thread (`pass`), every failure too (`error`): this
// thread never throws.
import { statSync, writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

/** @type {{ file: string; periodMs: number; boundBytes: number; busyMs: number }} */
const { file, periodMs, boundBytes, busyMs } = workerData;
const port = parentPort;
// Named for top -H and the benches (decision 1260; services/api thread-name.ts): Linux only, kept where it cannot.
try {
  writeFileSync('/proc/thread-self/comm', 'takt-wal-ckpt');
} catch {
  // not Linux: the thread keeps its name
}
/** @type {import('better-sqlite3').Database | null} */
let db = null;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;
let stopping = false;

const walBytes = () => {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0; // no -wal file: nothing to checkpoint
  }
};

/** One checkpoint; `ask` is the id of a pass the node asked for (tests, benches), else null. */
function pass(ask) {
  try {
    db ??= open();
    const before = walBytes();
    const mode = before > boundBytes ? 'TRUNCATE' : 'PASSIVE';
    const t0 = performance.now();
    const [row] = db.pragma(`wal_checkpoint(${mode})`);
    port.postMessage({
      kind: 'pass',
      ask,
      mode,
      // busy 1: a TRUNCATE gave up waiting for a reader or the writer (it checkpointed what it could).
      busy: row.busy === 1,
      frames: row.log,
      checkpointed: row.checkpointed,
      walBytesBefore: before,
      walBytes: walBytes(),
      ms: performance.now() - t0,
    });
  } catch (err) {
    port.postMessage({ kind: 'error', ask, message: err instanceof Error ? err.message : String(err) });
    // A connection that failed is opened again at the next pass (the file may have come back).
    try {
      db?.close();
    } catch {
      // closing a broken connection: nothing more to do
    }
    db = null;
  }
}

function open() {
  const c = new SQLite(file, { fileMustExist: true });
  c.pragma(`busy_timeout = ${busyMs}`);
  // This connection never writes a row; it must not checkpoint on its own either.
  c.pragma('wal_autocheckpoint = 0');
  c.pragma('synchronous = NORMAL');
  c.pragma(`journal_size_limit = ${boundBytes}`);
  return c;
}

const tick = () => {
  pass(null);
  if (!stopping) timer = setTimeout(tick, periodMs);
};

port.on('message', (message) => {
  if (message.kind === 'pass') pass(message.ask);
  else if (message.kind === 'stop') {
    stopping = true;
    clearTimeout(timer);
    // A last pass, so a node that stops leaves little in the WAL; then the connection closes and the thread ends.
    pass(null);
    try {
      db?.close();
    } catch (err) {
      port.postMessage({
        kind: 'error',
        ask: null,
        message: err instanceof Error ? err.message : String(err),
      });
    }
    port.postMessage({ kind: 'stopped' });
    port.close();
  }
});
timer = setTimeout(tick, periodMs);
