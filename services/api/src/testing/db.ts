import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Db, DialectName } from '../db/connect';
import { migrateToLatest, openDb } from '../db/connect';

/** Every database test runs on both dialects (STYLE.md "Same suite on every dialect"). */
export const DIALECTS: readonly DialectName[] = ['sqlite', 'postgres'];

/** The PostgreSQL server the tests use; scripts/test.mjs makes sure one answers here. */
export const TEST_PG_URL = process.env.TAKT_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';

export interface TestDb extends Db {
  url: string;
  /** Close and throw the database away. */
  cleanup(): Promise<void>;
}

/**
 * A fresh, migrated database: a new SQLite file in a temporary folder, or a new schema on the test
 * PostgreSQL server (search_path pinned through the connection string, so every pooled client sees it).
 */
export async function freshDb(dialect: DialectName): Promise<TestDb> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'takt-test-'));
    const url = join(dir, 'takt.db');
    const db = openDb(url);
    await migrateToLatest(db.db);
    return {
      ...db,
      url,
      cleanup: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `t_${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const sep = TEST_PG_URL.includes('?') ? '&' : '?';
  const url = `${TEST_PG_URL}${sep}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const db = openDb(url, { poolSize: 4 });
  await migrateToLatest(db.db, schema);
  return {
    ...db,
    url,
    cleanup: async () => {
      await db.close();
      const c = new pg.Client({ connectionString: TEST_PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}
