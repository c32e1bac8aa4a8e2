import { Migrator, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../testing';
import type { TestDb } from '../testing';
import { migrations } from './index';

const TABLES = ['machine_live', 'machine_sources', 'source_leases', 'rollup_dirty'];

// Migration 0049 (decision 1145): the rows ingest rewrites all day keep half of each page free on PostgreSQL, so their
// updates stay in the page (HOT); SQLite updates in place and is left as it is.
describe.each(DIALECTS)('migration 0049 hot live rows on %s', (dialect) => {
  let t: TestDb;
  const migrator = () => new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
  const migrate = async (to: string) => {
    const { error } = await migrator().migrateTo(to);
    if (error) throw error instanceof Error ? error : new Error(String(error));
  };
  /** PostgreSQL: each table's fillfactor (null: the default, full pages). */
  const fillfactors = async () => {
    const { rows } = await sql<{ relname: string; reloptions: string[] | null }>`
      select relname, reloptions from pg_class where relname in (${sql.join(TABLES)}) and relkind = 'r'`.execute(
      t.db,
    );
    return Object.fromEntries(
      rows.map((r) => [
        r.relname,
        (r.reloptions ?? []).find((o) => o.startsWith('fillfactor='))?.slice('fillfactor='.length) ?? null,
      ]),
    );
  };
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('leaves half of each page of the rewritten tables free, and goes down and up again', async () => {
    const latest = Object.keys(migrations).at(-1)!;
    if (dialect === 'postgres')
      expect(await fillfactors()).toEqual(Object.fromEntries(TABLES.map((name) => [name, '50'])));
    await migrate('2026-11-29-0047-derived-end-index');
    if (dialect === 'postgres')
      expect(await fillfactors()).toEqual(Object.fromEntries(TABLES.map((name) => [name, null])));
    await migrate(latest);
    if (dialect === 'postgres')
      expect(await fillfactors()).toEqual(Object.fromEntries(TABLES.map((name) => [name, '50'])));
    // Rows are written and rewritten as before.
    await t.db
      .insertInto('rollup_dirty')
      .values({ machine_id: 'm1', company_id: 'c1', from_at: 5, marked_at: 6 })
      .execute();
    await t.db.updateTable('rollup_dirty').set({ marked_at: 7 }).where('machine_id', '=', 'm1').execute();
    expect(await t.db.selectFrom('rollup_dirty').select(['from_at', 'marked_at']).execute()).toEqual([
      { from_at: 5, marked_at: 7 },
    ]);
  });
});
