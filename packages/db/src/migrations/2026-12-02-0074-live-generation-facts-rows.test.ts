import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveFactsMarked } from '../live-facts';
import type { Database } from '../schema';
import { companyRow, DIALECTS, freshDb, migrateTo, migrationBefore } from '../testing';
import type { TestDb } from '../testing';

// Migration 0074 (decision 1234): on PostgreSQL the fact tables' live generation triggers are row-level and skipped in
// a transaction that ran liveFactsMarked (it marks the machines it writes facts for); every other write of a state, an
// open state, a cycle or an hourly row still bumps its company, once a transaction, and a row moved to another machine
// bumps both companies in any transaction. Down gives 0072's triggers back (they bump whatever the transaction says). SQLite
// keeps 0072's triggers: up and down change nothing there.
const NAME = '2026-12-02-0074-live-generation-facts-rows';
const BEFORE = migrationBefore(NAME);

describe.each(DIALECTS)('migration 0074 live generation fact rows on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const generations = async () =>
    Object.fromEntries(
      (
        await sql<{ c: string; n: number | string }>`select company_id as c, sum(generation) as n
          from live_generations group by company_id having sum(generation) > 0 order by company_id`.execute(
          t.db,
        )
      ).rows.map((r) => [r.c, Number(r.n)]),
    );

  /** One company's machine's id in observation_machines. */
  const m = async (c: string) =>
    (
      await t.db
        .selectFrom('observation_machines')
        .select('id')
        .where('company_id', '=', c)
        .executeTakeFirstOrThrow()
    ).id;

  /** A state, an open state, a cycle and an hourly row of c1's machine inserted, updated and deleted. */
  const facts = async (db: Kysely<Database>, m1: number, from: number) => {
    await db
      .insertInto('state_rows')
      .values({ m: m1, start_at: from, end_at: from + 10, state: 'ACTIVE', reason: null })
      .execute();
    await db
      .insertInto('state_open')
      .values({ m: m1, start_at: from, state: 'ACTIVE', reason: null })
      .execute();
    await sql`insert into cycle_rows (m, start_at, end_at, duration, count, source, setup)
      values (${m1}, ${from}, ${from + 10}, 10, 1, 'a', 0)`.execute(db);
    await db
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
    await db.updateTable('state_rows').set({ state: 'INACTIVE' }).execute();
    await db.updateTable('state_open').set({ reason: 'jam' }).execute();
    await sql`update cycle_rows set count = 2`.execute(db);
    await db.updateTable('rollups').set({ measures: '{"a":1}' }).execute();
    for (const table of ['state_rows', 'state_open', 'cycle_rows', 'rollups'])
      await sql`delete from ${sql.table(table)}`.execute(db);
  };

  /** `facts` in one transaction, marked (liveFactsMarked, PostgreSQL only) or not. */
  const inTransaction = (m1: number, from: number, marked: boolean) =>
    t.db.transaction().execute(async (trx) => {
      if (marked) await trx.executeQuery(liveFactsMarked);
      await facts(trx, m1, from);
    });

  it('bumps a company for each fact row written, but in a marked transaction; a row moved bumps both', async () => {
    for (const c of ['c1', 'c2']) await t.db.insertInto('companies').values(companyRow(c)).execute();
    await sql`insert into observation_machines (company_id, machine_id) values ('c1', 'm1'), ('c2', 'm1')`.execute(
      t.db,
    );
    const [m1, m2] = [await m('c1'), await m('c2')];
    const pg = dialect === 'postgres';

    // Twelve writes of c1's facts, none of c2's: a bump a statement (0072 on PostgreSQL) or a row (here a row each).
    await facts(t.db, m1, 1000);
    expect(await generations()).toEqual({ c1: 12 });
    // In one transaction: once (its writes are seen together, at its commit).
    await inTransaction(m1, 2000, false);
    expect(await generations()).toEqual({ c1: pg ? 13 : 24 });
    if (pg) {
      await inTransaction(m1, 3000, true);
      expect(await generations()).toEqual({ c1: 13 });
      // Rows moved to another company (a state by its machine, an hourly row by company_id) in a marked transaction:
      // both companies, once each.
      await t.db
        .insertInto('state_rows')
        .values({ m: m1, start_at: 1, end_at: 2, state: 'ACTIVE', reason: null })
        .execute();
      await t.db
        .insertInto('rollups')
        .values({
          company_id: 'c1',
          machine_id: 'm1',
          start_at: 1,
          end_at: 2,
          shift_id: null,
          measures: '{}',
          computed_at: 1,
        })
        .execute();
      await t.db.transaction().execute(async (trx) => {
        await trx.executeQuery(liveFactsMarked);
        await trx.updateTable('state_rows').set({ m: m2 }).execute();
        await trx.updateTable('rollups').set({ company_id: 'c2' }).execute();
      });
      expect(await generations()).toEqual({ c1: 16, c2: 1 });
      // The setting ends with its transaction.
      await t.db.deleteFrom('state_rows').execute();
      await t.db.deleteFrom('rollups').execute();
      expect(await generations()).toEqual({ c1: 16, c2: 3 });
    }

    // Down: 0072's triggers, which bump in a marked transaction too (PostgreSQL), and nothing changed on SQLite.
    const before = await generations();
    await migrateTo(t.db, BEFORE);
    if (pg) await inTransaction(m1, 4000, true);
    else await facts(t.db, m1, 4000);
    expect(await generations()).toEqual({ ...before, c1: before.c1! + 12 });
    await migrateTo(t.db, NAME);
    await inTransaction(m1, 5000, false);
    if (pg) await inTransaction(m1, 6000, true);
    expect(await generations()).toEqual({ ...before, c1: before.c1! + (pg ? 13 : 24) });
  });
});
