import { Migrator } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../testing';
import type { TestDb } from '../testing';
import { migrateToLatest } from '../connect';
import { migrations } from './index';

// Migration 0011 on a database that already has hourly rollups: every machine with rollups is marked dirty
// from its first one (keeping an earlier mark), so the worker writes its day rows (decision 0804).
describe.each(DIALECTS)('migration 0011 rollup days on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
    const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
    const { error } = await migrator.migrateTo('2026-11-24-0010-adapter-types');
    if (error) throw error instanceof Error ? error : new Error(String(error));
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('marks every machine with rollups dirty from its first rollup, keeping earlier marks', async () => {
    const rollup = (machine: string, start: number) => ({
      company_id: 'c1',
      machine_id: machine,
      start_at: start,
      end_at: start + 3_600_000,
      shift_id: null,
      measures: '{}',
      computed_at: 9_000_000,
    });
    await t.db
      .insertInto('rollups')
      .values([
        rollup('m1', 3_600_000),
        rollup('m1', 7_200_000),
        rollup('m2', 7_200_000),
        rollup('m3', 7_200_000),
      ])
      .execute();
    await t.db
      .insertInto('rollup_dirty')
      .values([
        { machine_id: 'm2', company_id: 'c1', from_at: 1_000, marked_at: 5 },
        { machine_id: 'm3', company_id: 'c1', from_at: 8_000_000, marked_at: 5 },
      ])
      .execute();
    await migrateToLatest(t.db);
    const marks = await t.db
      .selectFrom('rollup_dirty')
      .select(['machine_id', 'from_at'])
      .orderBy('machine_id')
      .execute();
    expect(marks.map((m) => [m.machine_id, Number(m.from_at)])).toEqual([
      ['m1', 3_600_000],
      ['m2', 1_000],
      ['m3', 7_200_000],
    ]);
    expect(await t.db.selectFrom('rollup_days').selectAll().execute()).toEqual([]);
  });
});
