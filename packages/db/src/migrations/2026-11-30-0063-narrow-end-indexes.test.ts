import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb, migrateTo, migrationBefore, spanTimes } from '../testing';
import type { TestDb } from '../testing';
import { companyScope as scoped } from '../scope';

// Migration 0063 (decision 1181): program_rows and flag_rows keep their primary key alone; their (m, group, end_at)
// indexes go, and come back on the way down. The rows and the views over them are untouched.
const NAME = '2026-11-30-0063-narrow-end-indexes';
const BEFORE = migrationBefore(NAME);

describe.each(DIALECTS)('migration 0063 narrow end indexes on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const indexes = async (table: string) =>
    (dialect === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}
          and name not like 'sqlite_autoindex%'`.execute(t.db)
      : await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = ${table}
          and indexname not like '%_pkey'`.execute(t.db)
    ).rows.map((r) => r.name);
  const read = async () => {
    const c = scoped(t.db, 'c1');
    const programs = await c
      .selectFrom('program_intervals')
      .select(['machine_id', 'sub', 'start_at', 'end_at', 'name'])
      .orderBy('sub')
      .orderBy('start_at')
      .execute();
    const flags = await c
      .selectFrom('flag_spans')
      .select(['machine_id', 'kind', 'start_at', 'end_at'])
      .orderBy('kind')
      .orderBy('start_at')
      .execute();
    return [spanTimes(programs), spanTimes(flags)];
  };

  it('drops the end indexes of program_rows and flag_rows, keeps their rows, and makes them again down', async () => {
    const c1 = scoped(t.db, 'c1');
    await c1
      .insertInto('program_intervals', [
        { machine_id: 'm1', sub: 0, start_at: 1000, end_at: 2000, name: 'O1' },
        { machine_id: 'm1', sub: 0, start_at: 2000, end_at: null, name: 'O2' },
        { machine_id: 'm1', sub: 1, start_at: 1500, end_at: 1600, name: 'S1' },
      ])
      .execute();
    await c1
      .insertInto('flag_spans', [
        { machine_id: 'm1', kind: 'spindle', start_at: 1000, end_at: 1200 },
        { machine_id: 'm1', kind: 'incut', start_at: 1100, end_at: null },
      ])
      .execute();
    const stored = await read();
    expect(stored[0]).toHaveLength(3);
    expect(stored[1]).toHaveLength(2);
    expect(await indexes('program_rows')).toEqual([]);
    expect(await indexes('flag_rows')).toEqual([]);

    await migrateTo(t.db, BEFORE);
    expect(await indexes('program_rows')).toEqual(['program_rows_m_end']);
    expect(await indexes('flag_rows')).toEqual(['flag_rows_m_end']);
    expect(await read()).toEqual(stored);

    await migrateTo(t.db, NAME);
    expect(await indexes('program_rows')).toEqual([]);
    expect(await indexes('flag_rows')).toEqual([]);
    expect(await read()).toEqual(stored);
  });
});
