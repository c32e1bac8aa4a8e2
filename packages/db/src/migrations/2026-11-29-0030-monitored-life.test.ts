import { Migrator } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../testing';
import type { TestDb } from '../testing';
import { migrations } from './index';

// Migration 0030 (decision 1010): rows stored before monitored life counted pre-life time as uncategorized
// downtime, so every machine with hourly rows is marked dirty from its first row (an earlier mark is kept).
describe.each(DIALECTS)('migration 0030 monitored life on %s', (dialect) => {
  let t: TestDb;
  const migrator = () => new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
  beforeEach(async () => {
    t = await freshDb(dialect);
    const { error } = await migrator().migrateTo('2026-11-29-0029-standard-run-time');
    if (error) throw error instanceof Error ? error : new Error(String(error));
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('marks every machine with rows dirty from its first row', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const db = t.db as any;
    const row = (machine: string, start: number) => ({
      company_id: 'c1',
      machine_id: machine,
      start_at: start,
      end_at: start + 3_600_000,
      shift_id: null,
      measures: '{}',
      computed_at: 9_000_000,
    });
    await db
      .insertInto('rollups')
      .values([row('m1', 7_200_000), row('m1', 3_600_000), row('m2', 10_800_000), row('m3', 3_600_000)])
      .execute();
    // m3 already has an earlier mark: it keeps it.
    await db
      .insertInto('rollup_dirty')
      .values({ machine_id: 'm3', company_id: 'c1', from_at: 0, marked_at: 5 })
      .execute();
    const { error } = await migrator().migrateTo('2026-11-29-0030-monitored-life');
    if (error) throw error instanceof Error ? error : new Error(String(error));

    const marks = await t.db
      .selectFrom('rollup_dirty')
      .select(['machine_id', 'from_at'])
      .orderBy('machine_id')
      .execute();
    expect(marks.map((m) => [m.machine_id, Number(m.from_at)])).toEqual([
      ['m1', 3_600_000],
      ['m2', 10_800_000],
      ['m3', 0],
    ]);
  });
});
