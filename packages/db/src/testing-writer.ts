// A writer of the two-writers test (two-writers.test.ts): read-then-write transactions, from the test's thread or,
// as a worker thread's module, on a handle of its own. Not used at run time.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { openDb } from './connect';
import type { Database } from './schema';

/**
 * `n` transactions, each reading the table, giving the event loop a turn (the other thread commits meanwhile) and
 * then writing one row tagged `tag`.
 */
export async function readThenWrite(db: Kysely<Database>, tag: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++)
    await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from two_writers`.execute(trx);
      await new Promise((r) => setImmediate(r));
      await sql`insert into two_writers (tag, seen) values (${tag}, ${Number(rows[0]!.n)})`.execute(trx);
    });
}

const data = workerData as { role?: string; url: string; tag: string; n: number } | undefined;
if (!isMainThread && data?.role === 'two-writers' && parentPort) {
  const port = parentPort;
  const handle = openDb(data.url, { poolSize: 1 });
  // Loaded: the test starts both writers at once on `go`.
  port.postMessage({ loaded: true });
  new Promise((r) => port.once('message', r))
    .then(() => readThenWrite(handle.db, data.tag, data.n))
    .then(
      () => port.postMessage({ ok: true }),
      (err: Error) => port.postMessage({ ok: false, error: err.message }),
    )
    .finally(() => void handle.close());
}
