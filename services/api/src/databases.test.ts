import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { INGEST_POOL_SIZE, NODE_SQLITE_MMAP_BYTES, openNodeDatabases } from './databases';
import { parseEnv } from './env';
import type { NodeDatabases } from './databases';
import { apiHarnessOn } from './testing/app';
import type { ApiHarness } from './testing/app';
import { aMachine } from './testing/builders';

// Decision 1192: a node's API and its ingest do not share a pool of PostgreSQL connections, so a report is answered
// while every connection of the ingest's pool is taken (its batches and recomputes can no longer hold a report's
// statements up). SQLite keeps one handle for both (one writer a file).

const DAY = 86_400_000;

describe.each(DIALECTS)("a node's database handles on %s", (dialect) => {
  let t: TestDb;
  let node: NodeDatabases;
  let h: ApiHarness;
  beforeEach(async () => {
    t = await freshDb(dialect);
    node = openNodeDatabases(t.url, { api: 1, ingest: 1, withIngest: true });
    h = apiHarnessOn({ ...t, db: node.api.db }, 1_763_800_000_000);
  });
  afterEach(async () => {
    await node.close();
    await t.cleanup();
  });

  it('answers a report while the ingest holds every connection of its own pool (SQLite: one handle for both)', async () => {
    const { company, cookie } = await h.tenant();
    await aMachine(h.t.db, company, { name: 'M1' });
    const path = `/api/reports/downtime?start=${h.clock.now - DAY}&end=${h.clock.now}`;
    if (dialect === 'sqlite') {
      // One handle: the ingest writes through the API's, and a report is answered as before.
      expect(node.ingest).toBe(node.api);
      expect((await h.get(path, cookie)).status).toBe(200);
      return;
    }
    expect(node.ingest).not.toBe(node.api);
    // The ingest's only connection is taken by an open transaction, and another of its statements waits for it.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let taken!: () => void;
    const inside = new Promise<void>((r) => (taken = r));
    const held = node.ingest!.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      taken();
      await gate;
    });
    await inside;
    const waiting = sql<{ n: number }>`select 1 as n`.execute(node.ingest!.db);
    try {
      const res = await h.get(path, cookie);
      expect(res.status).toBe(200);
      expect(await res.json()).toHaveProperty('summary.count', 0);
    } finally {
      release();
      await held;
    }
    expect((await waiting).rows).toEqual([{ n: 1 }]);
  });

  it('checkpoints a SQLite file on a thread of its own, never in its commits, and maps it (decisions 1229, 1230)', async () => {
    const own = openNodeDatabases(t.url, { api: 1, ingest: 1, withIngest: true, checkpointer: true });
    const autocheckpoint = async (db: NodeDatabases['api']) =>
      (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db.db)).rows[0]!
        .wal_autocheckpoint;
    try {
      // The ingest thread opens its own handle by this (main.ts, the benches): on SQLite as the node's connections.
      expect(own.ingestHandle).toEqual({
        url: t.url,
        poolSize: 1,
        externalCheckpoints: dialect === 'sqlite',
      });
      if (dialect === 'postgres') {
        expect(own.checkpointer).toBeNull();
        return;
      }
      expect(await autocheckpoint(own.api)).toBe(0);
      // Decision 1230: the node reads its file through a memory map; a CLI's handle does not.
      const mmap = async (db: NodeDatabases['api']) =>
        (await sql<{ mmap_size: number }>`pragma mmap_size`.execute(db.db)).rows[0]!.mmap_size;
      expect(await mmap(own.api)).toBe(NODE_SQLITE_MMAP_BYTES);
      expect(await mmap(node.api)).toBe(0);
      expect(own.ingest).toBe(own.api);
      // A node opened without it (tests, CLIs) keeps SQLite's own checkpoint.
      expect(await autocheckpoint(node.api)).toBe(1000);
      await aMachine(own.api.db, (await h.tenant()).company, { name: 'M1' });
      expect(await own.checkpointer!.passNow()).toMatchObject({ mode: 'PASSIVE', busy: false });
    } finally {
      await own.close();
    }
    // close() ended the thread.
    await expect(own.checkpointer!.passNow()).rejects.toThrow(/stopped/);
  });

  it('opens one handle on a node without ingest, and says how its ingest thread opens its own', () => {
    const api = openNodeDatabases(t.url, { api: 1, withIngest: false });
    expect(api.ingest).toBeNull();
    // Decision 1192's pool of 4 for the thread too (it opened openDb's 10 when TAKT_INGEST_DB_POOL_SIZE was unset);
    // without the checkpointer, SQLite's own checkpoints.
    expect(api.ingestHandle).toEqual({ url: t.url, poolSize: INGEST_POOL_SIZE, externalCheckpoints: false });
    return api.close();
  });
});

describe('TAKT_DB_POOL_SIZE and TAKT_INGEST_DB_POOL_SIZE', () => {
  it('are unset by default (10 and 4) and refuse what is not a size', () => {
    expect(parseEnv({}).TAKT_DB_POOL_SIZE).toBeUndefined();
    expect(parseEnv({}).TAKT_INGEST_DB_POOL_SIZE).toBeUndefined();
    expect(parseEnv({ TAKT_DB_POOL_SIZE: '20', TAKT_INGEST_DB_POOL_SIZE: '2' })).toMatchObject({
      TAKT_DB_POOL_SIZE: 20,
      TAKT_INGEST_DB_POOL_SIZE: 2,
    });
    for (const bad of ['0', '201', 'many', '2.5']) {
      expect(() => parseEnv({ TAKT_DB_POOL_SIZE: bad })).toThrow(/TAKT_DB_POOL_SIZE/);
      expect(() => parseEnv({ TAKT_INGEST_DB_POOL_SIZE: bad })).toThrow(/TAKT_INGEST_DB_POOL_SIZE/);
    }
  });
});
