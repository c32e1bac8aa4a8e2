import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyRow, DIALECTS, freshDb, migrateTo, migrationBefore } from '../testing';
import type { TestDb } from '../testing';

// Migration 0072 (decision 1222): a state, an open state, a cycle and an hourly rollup row bump their company's live
// generation (the fact tables' company by their machine's observation_machines row); down removes the triggers.
const NAME = '2026-12-01-0072-live-generation-facts';
const BEFORE = migrationBefore(NAME);

describe.each(DIALECTS)('migration 0072 live generation facts on %s', (dialect) => {
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

  it('bumps the company of each fact written, and no longer once down', async () => {
    for (const c of ['c1', 'c2']) await t.db.insertInto('companies').values(companyRow(c)).execute();
    await sql`insert into observation_machines (company_id, machine_id) values ('c1', 'm1'), ('c2', 'm1')`.execute(
      t.db,
    );
    const m = async (c: string) =>
      (
        await t.db
          .selectFrom('observation_machines')
          .select('id')
          .where('company_id', '=', c)
          .executeTakeFirstOrThrow()
      ).id;
    const [m1, m2] = [await m('c1'), await m('c2')];
    const facts = async (from: number) => {
      await t.db
        .insertInto('state_rows')
        .values({ m: m1, start_at: from, end_at: from + 10, state: 'ACTIVE', reason: null })
        .execute();
      await sql`insert into cycle_rows (m, start_at, end_at, duration, count, source, setup)
        values (${m2}, ${from}, ${from + 10}, 10, 1, 'a', 0)`.execute(t.db);
      await t.db
        .insertInto('rollups')
        .values({
          company_id: 'c1',
          machine_id: 'm1',
          start_at: from,
          end_at: from + 10,
          shift_id: null,
          measures: '{}',
          computed_at: from,
        })
        .execute();
    };
    expect(await generations()).toEqual([]);
    await facts(1000);
    expect(await generations()).toEqual([
      ['c1', 2],
      ['c2', 1],
    ]);
    await t.db.updateTable('state_open').set({ state: 'FAULT' }).execute();
    await t.db
      .insertInto('state_open')
      .values({ m: m2, start_at: 2000, state: 'ACTIVE', reason: null })
      .execute();
    await t.db.deleteFrom('rollups').execute();
    expect(await generations()).toEqual([
      ['c1', 3],
      ['c2', 2],
    ]);

    await migrateTo(t.db, BEFORE);
    await facts(3000);
    expect(await generations()).toEqual([
      ['c1', 3],
      ['c2', 2],
    ]);
    await migrateTo(t.db, NAME);
    await facts(5000);
    expect(await generations()).toEqual([
      ['c1', 5],
      ['c2', 3],
    ]);
  });
});
