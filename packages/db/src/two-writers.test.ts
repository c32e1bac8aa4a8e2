import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from './testing';
import type { TestDb } from './testing';
import { readThenWrite } from './testing-writer';

// Decision 1226: a node's ingest thread and its API write the same database through two handles. On SQLite that is
// two connections to one file in WAL mode: a deferred transaction that reads, then writes after the other connection
// committed, fails at once (SQLITE_BUSY_SNAPSHOT; busy_timeout does not retry it), so every transaction begins
// immediate (connect.ts). Both threads here run read-then-write transactions at once: none fails, none is lost.

const N = 60;

/**
 * `readThenWrite` in a worker thread of its own (tsx's loader registered there, as ingest-thread-boot.mjs does), once
 * loaded: `go` starts it; `done` is its outcome.
 */
async function writerThread(url: string, tag: string) {
  const entry = new URL('./testing-writer.ts', import.meta.url).href;
  const worker = new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(require('node:worker_threads').workerData.entry); });`,
    { eval: true, workerData: { role: 'two-writers', url, tag, n: N, entry } },
  );
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  await Promise.race([new Promise((r) => worker.once('message', r)), failed]);
  const done = Promise.race([
    new Promise<{ ok: boolean; error?: string }>((r) => worker.once('message', r)),
    failed,
  ]).finally(() => void worker.terminate());
  return { go: () => worker.postMessage('go'), done };
}

describe.each(DIALECTS)('two threads writing on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
    await sql`create table two_writers (tag text not null, seen integer not null)`.execute(t.db);
  });
  afterEach(async () => {
    await sql`drop table two_writers`.execute(t.db);
    await t.cleanup();
  });

  it('run read-then-write transactions at once without a failure or a lost row', async () => {
    const thread = await writerThread(t.url, 'thread');
    thread.go();
    const [other, here] = await Promise.allSettled([thread.done, readThenWrite(t.db, 'main', N)]);
    expect(here).toEqual({ status: 'fulfilled', value: undefined });
    expect(other).toEqual({ status: 'fulfilled', value: { ok: true } });
    const { rows } = await sql<{ tag: string; n: number | string }>`select tag, count(*) as n from two_writers
      group by tag order by tag`.execute(t.db);
    expect(rows.map((r) => [r.tag, Number(r.n)])).toEqual([
      ['main', N],
      ['thread', N],
    ]);
  });
});
