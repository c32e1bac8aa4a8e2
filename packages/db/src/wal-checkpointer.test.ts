import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb } from './connect';
import type { Db } from './connect';
import { startWalCheckpointer } from './wal-checkpointer';
import type { WalCheckpointer } from './wal-checkpointer';

// Decision 1229: a node's SQLite connections never checkpoint inside a commit (wal_autocheckpoint 0); a thread of
// its own does, and bounds the WAL while readers come and go. SQLite only: PostgreSQL has no WAL file of ours
// (databases.test.ts checks that a node on PostgreSQL starts no checkpointer).

const MIB = 2 ** 20;
const walBytes = (file: string) => {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
};

let dir: string;
let file: string;
let db: Db | null;
let checkpointer: WalCheckpointer | null;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'takt-wal-'));
  file = join(dir, 'takt.db');
  db = null;
  checkpointer = null;
});
afterEach(async () => {
  await db?.close();
  await checkpointer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `chunks` transactions of `kib` KiB each, rows numbered from `from`. */
async function write(target: Db, from: number, chunks: number, kib = 256) {
  for (let c = 0; c < chunks; c++)
    await target.db.transaction().execute(async (trx) => {
      for (let i = 0; i < kib / 4; i++)
        await sql`insert into t (id, body) values (${from + c * (kib / 4) + i}, randomblob(4000))`.execute(
          trx,
        );
    });
  return from + chunks * (kib / 4);
}

describe('the WAL checkpointer (SQLite)', () => {
  it("leaves a commit of the node's connection without a checkpoint, where a CLI's still runs SQLite's own", async () => {
    // 8 MiB in 32 commits, no reader: SQLite's own checkpoint (every 1,000 pages, 4 MiB) restarts the WAL on the
    // default connection; with walCheckpoints 'external' no commit checkpoints, and the WAL holds all of it.
    for (const walCheckpoints of ['sqlite', 'external'] as const) {
      rmSync(dir, { recursive: true, force: true });
      dir = mkdtempSync(join(tmpdir(), 'takt-wal-'));
      file = join(dir, 'takt.db');
      const one = (db = openDb(file, { walCheckpoints }));
      await sql`create table t (id integer primary key, body blob)`.execute(one.db);
      await write(one, 0, 32);
      const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(one.db);
      if (walCheckpoints === 'sqlite') {
        expect(rows[0]!.wal_autocheckpoint).toBe(1000);
        expect(walBytes(file)).toBeLessThan(6 * MIB);
      } else {
        expect(rows[0]!.wal_autocheckpoint).toBe(0);
        expect(walBytes(file)).toBeGreaterThan(8 * MIB);
      }
      await one.close();
      db = null;
    }
  });

  it('keeps the WAL under its bound while readers come and go, and loses nothing', async () => {
    const node = (db = openDb(file, { walCheckpoints: 'external' }));
    await sql`create table t (id integer primary key, body blob)`.execute(node.db);
    // Passes only when asked (the period is long), each a TRUNCATE once the WAL is over 1 MiB.
    const thread = (checkpointer = startWalCheckpointer(file, { periodMs: 3_600_000, boundBytes: MIB }));
    // Two readers, one always inside a read transaction: the next begins before the last ends, so some reader is
    // on the WAL at every moment, and SQLite's own checkpoint (PASSIVE) could never restart it.
    const readers = [new SQLite(file), new SQLite(file)];
    let turn = 0;
    const swap = () => {
      const next = readers[turn % 2]!;
      const last = readers[(turn + 1) % 2]!;
      next.exec('begin');
      next.prepare('select count(*) from t').get();
      if (last.inTransaction) last.exec('commit');
      turn++;
    };
    swap();
    const readersComeAndGo = setInterval(swap, 5);
    let rows = 0;
    const seen: number[] = [];
    try {
      for (let round = 0; round < 24; round++) {
        rows = await write(node, rows, 2); // 512 KiB a round: 12 MiB in all
        const pass = await thread.passNow();
        seen.push(walBytes(file));
        expect(pass.walBytes).toBeLessThanOrEqual(MIB);
      }
    } finally {
      clearInterval(readersComeAndGo);
      for (const r of readers) {
        if (r.inTransaction) r.exec('commit');
        r.close();
      }
    }
    expect(Math.max(...seen)).toBeLessThanOrEqual(MIB);
    expect(turn).toBeGreaterThan(2); // the readers did come and go
    const count = async (target: Db) =>
      (await sql<{ n: number }>`select count(*) as n from t`.execute(target.db)).rows[0]!.n;
    expect(await count(node)).toBe(rows);
    // Closed and opened again: every row is in the file.
    await node.close();
    await thread.stop();
    const again = (db = openDb(file));
    expect(await count(again)).toBe(rows);
    const { rows: check } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(again.db);
    expect(check).toEqual([{ integrity_check: 'ok' }]);
  });

  it('says a failing checkpoint in its log once, answers it as an error, and stops cleanly', async () => {
    const lines: string[] = [];
    const thread = (checkpointer = startWalCheckpointer(join(dir, 'missing', 'takt.db'), {
      periodMs: 3_600_000,
      log: (line) => lines.push(line),
    }));
    await expect(thread.passNow()).rejects.toThrow(/directory does not exist/);
    await expect(thread.passNow()).rejects.toThrow(/directory does not exist/);
    expect(lines).toEqual([
      '[wal] checkpoint failed: Cannot open database because the directory does not exist',
    ]);
    await thread.stop();
    await expect(thread.passNow()).rejects.toThrow(/stopped/);
  });
});
