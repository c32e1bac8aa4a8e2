// The rollup worker's thread (decision 1174; started by RollupThread, rollup-off-thread.ts): its own connection to
// the database, claims like any node's worker (PostgreSQL only), the wall clock. Runs one run at a time; asked to
// stop, it ends its run, closes its connection and leaves.
import { parentPort, workerData } from 'node:worker_threads';
import { openDb } from '@takt/db';
import type { FromRollupThread, ToRollupThread } from './rollup-off-thread';
import { RollupWorker } from './rollup';

const port = parentPort!;
const { url } = workerData as { url: string };
const tell = (m: FromRollupThread) => port.postMessage(m);
// Two connections: the worker runs one statement at a time; the second serves a read while a transaction is open.
const database = openDb(url, { poolSize: 2 });
const worker = new RollupWorker(
  database.db,
  Date.now,
  (message) => tell({ type: 'log', message }),
  true,
  (source, count) => tell({ type: 'timeRefused', source, count }),
);
let running: Promise<void> | null = null;

port.on('message', (m: ToRollupThread) => {
  if (m.type === 'run') {
    running ??= worker.run().finally(() => (running = null));
    void running.then(() => tell({ type: 'done', id: m.id }));
    return;
  }
  void (async () => {
    await running;
    await database.close();
    port.close();
  })();
});
