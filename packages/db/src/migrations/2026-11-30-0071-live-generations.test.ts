import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyRow, DIALECTS, freshDb, migrateTo, migrationBefore } from '../testing';
import type { TestDb } from '../testing';
import { companyScope as scoped } from '../scope';
import { markRollupsDirty } from '../rollups';

// Migration 0071 (decision 1206): live_generations and the triggers that bump a company's row on every write of its
// rollup marks (and live rows, job runs, annotations, part adjustments, sources, adapter fields); down removes both
// and a write no longer bumps; up again starts counting anew.
const NAME = '2026-11-30-0071-live-generations';
const BEFORE = migrationBefore(NAME);

describe.each(DIALECTS)('migration 0071 live generations on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const generations = async () =>
    (
      await sql<{ c: string; n: number | string }>`select company_id as c, sum(generation) as n
        from live_generations group by company_id having sum(generation) > 0 order by company_id`.execute(
        t.db,
      )
    ).rows.map((r) => [r.c, Number(r.n)]);
  const tableExists = async () =>
    dialect === 'sqlite'
      ? (await sql`select name from sqlite_master where name = 'live_generations'`.execute(t.db)).rows
          .length > 0
      : (await sql<{ t: string | null }>`select to_regclass('live_generations')::text as t`.execute(t.db))
          .rows[0]!.t != null;
  const mark = (companyId: string, from: number) =>
    markRollupsDirty(t.db, { companyId, machineId: 'm1', from, now: from });

  it('bumps the company of each write, and goes on the way down', async () => {
    for (const c of ['c1', 'c2', 'c3']) await t.db.insertInto('companies').values(companyRow(c)).execute();
    expect(await generations()).toEqual([]);
    await mark('c1', 1000);
    await mark('c2', 1000);
    await mark('c1', 900);
    expect(await generations()).toEqual([
      ['c1', 2],
      ['c2', 1],
    ]);
    // A delete bumps its company only.
    await scoped(t.db, 'c1').deleteFrom('rollup_dirty').execute();
    expect(await generations()).toEqual([
      ['c1', 3],
      ['c2', 1],
    ]);
    // A row moved to another company by hand: both companies (the new one twice: the update's own bump and the
    // move's).
    await sql`update rollup_dirty set company_id = 'c3' where company_id = 'c2'`.execute(t.db);
    expect(await generations()).toEqual([
      ['c1', 3],
      ['c2', 2],
      ['c3', 2],
    ]);

    await migrateTo(t.db, BEFORE);
    expect(await tableExists()).toBe(false);
    await mark('c2', 800);

    await migrateTo(t.db, NAME);
    expect(await generations()).toEqual([]);
    await mark('c2', 700);
    expect(await generations()).toEqual([['c2', 1]]);
  });
});
