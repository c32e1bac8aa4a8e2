import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import type { TestDb } from './testing';
import { DIALECTS, dropEndedProcessesDatabases, freshDb, withAdmin } from './testing';
import { migrations } from './migrations/index';
import { POOLED_PREFIX } from './testing-pool';
import { insertObservations } from './observations';

// Test databases handed out again (decision 1135): whatever a test left behind, the next test of the process
// gets a database as the migrated template has it.

const databaseOf = (t: TestDb) => new URL(t.url).pathname.slice(1);
const exists = (name: string) =>
  withAdmin(
    async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1,
  );

function fresher(dialect: (typeof DIALECTS)[number]) {
  const open: TestDb[] = [];
  const fresh = async () => {
    const t = await freshDb(dialect);
    open.push(t);
    return t;
  };
  const release = async (t: TestDb) => {
    open.splice(open.indexOf(t), 1);
    await t.cleanup();
  };
  afterEach(async () => {
    for (const t of open.splice(0)) await t.cleanup();
  });
  return { fresh, release };
}

async function looksMigrated(t: TestDb) {
  const migrated = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(t.db);
  expect(migrated.rows.map((m) => m.name)).toEqual(Object.keys(migrations).sort());
  expect(await t.db.selectFrom('companies').selectAll().execute()).toEqual([]);
  expect(await t.db.selectFrom('observations').selectAll().execute()).toEqual([]);
  const versions = await t.db.selectFrom('system_versions').selectAll().execute();
  expect(versions.map((v) => v.id)).toEqual(['current']);
  return versions[0]!;
}

describe.each(DIALECTS)('fresh test databases on %s', (dialect) => {
  const { fresh, release } = fresher(dialect);

  it("gives the next test the template's rows and nothing of what the last one wrote", async () => {
    const first = await fresh();
    const template = await looksMigrated(first);
    await insertObservations(first.db, [{ company_id: 'c1', machine_id: 'm1', ts: 1, key: 'k', value: 'v' }]);
    expect(await first.db.selectFrom('observations').select('value').execute()).toEqual([{ value: 'v' }]);
    await first.db
      .updateTable('system_versions')
      .set({ api_revision: template.api_revision + 7, js_revision: template.js_revision + 7 })
      .execute();
    await sql`DELETE FROM kysely_migration`.execute(first.db);
    await release(first);

    const next = await fresh();
    if (dialect === 'postgres') expect(databaseOf(next)).toBe(databaseOf(first));
    expect(await looksMigrated(next)).toEqual(template);
  });
});

describe.each(DIALECTS)('a released test database on %s', (dialect) => {
  const { fresh, release } = fresher(dialect);

  it('refuses queries through the released handle, used or not, never reaching the next test', async () => {
    const used = await fresh();
    await looksMigrated(used);
    const unused = await fresh();
    await release(used);
    await release(unused);
    for (const t of [used, unused])
      await expect(t.db.selectFrom('companies').selectAll().execute()).rejects.toThrow();
  });
});

describe('pooled PostgreSQL test databases', () => {
  const { fresh, release } = fresher('postgres');

  it('empties a database a test left a connection open on, in the middle of a transaction', async () => {
    const first = await fresh();
    const template = await looksMigrated(first);
    const left = new pg.Client({ connectionString: first.url });
    left.on('error', () => {});
    await left.connect();
    await left.query('BEGIN');
    await left.query("UPDATE system_versions SET api_revision = api_revision + 1 WHERE id = 'current'");
    await left.query('SELECT pg_advisory_lock(77)');
    await release(first);
    const next = await fresh();
    expect(databaseOf(next)).toBe(databaseOf(first));
    expect(await looksMigrated(next)).toEqual(template);
    const lock = await sql<{ got: boolean }>`SELECT pg_try_advisory_lock(77) AS got`.execute(next.db);
    expect(lock.rows[0]?.got).toBe(true);
    await left.end().catch(() => {});
  });

  it('drops a database whose schema a test changed instead of handing it out', async () => {
    const first = await fresh();
    await sql`ALTER TABLE system_versions ADD COLUMN extra text`.execute(first.db);
    const name = databaseOf(first);
    await release(first);
    expect(await exists(name)).toBe(false);
    const next = await fresh();
    expect(databaseOf(next)).not.toBe(name);
    const columns = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM information_schema.columns
      WHERE table_name = 'system_versions' AND column_name = 'extra'`.execute(next.db);
    expect(columns.rows[0]?.n).toBe(0);
  });

  it('drops the spare databases of processes that ended, never those of a running one', async () => {
    let dead = 4_000_000;
    for (; ; dead++)
      try {
        process.kill(dead, 0);
      } catch {
        break;
      }
    const ended = `${POOLED_PREFIX}${dead}_0123456789ab`;
    const running = `${POOLED_PREFIX}${process.pid}_ba9876543210`;
    await withAdmin(async (c) => {
      await c.query(`CREATE DATABASE ${ended}`);
      await c.query(`CREATE DATABASE ${running}`);
    });
    try {
      await dropEndedProcessesDatabases();
      expect(await exists(ended)).toBe(false);
      expect(await exists(running)).toBe(true);
    } finally {
      await withAdmin(async (c) => {
        await c.query(`DROP DATABASE IF EXISTS ${ended}`);
        await c.query(`DROP DATABASE IF EXISTS ${running}`);
      });
    }
  });
});
