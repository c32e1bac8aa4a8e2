import { Migrator, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../testing';
import type { TestDb } from '../testing';
import { insertObservations } from '../observations';
import { dayPartitions, DAY_MS } from '../observation-partitions';
import { migrations } from './index';

// Migration 0044 (decision 1130): the observations stored before it move into the compact rows with their values,
// their order within a millisecond, and (PostgreSQL) a day partition each; the view reads them as before.
describe.each(DIALECTS)('migration 0044 compact observations on %s', (dialect) => {
  let t: TestDb;
  const migrator = () => new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
  beforeEach(async () => {
    t = await freshDb(dialect);
    const { error } = await migrator().migrateTo('2026-11-29-0043-user-preferences');
    if (error) throw error instanceof Error ? error : new Error(String(error));
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('keeps every stored observation, in order, and stores new ones beside them', async () => {
    const day = 20_400; // 2025-11-09
    const at = (d: number, ms: number) => (day + d) * DAY_MS + ms;
    const old = [
      { company_id: 'c1', machine_id: 'm1', ts: at(0, 5), key: 'execution', value: 'ACTIVE' },
      { company_id: 'c1', machine_id: 'm1', ts: at(0, 5), key: 'execution', value: 'READY' },
      { company_id: 'c1', machine_id: 'm1', ts: at(0, 5), key: 'part_count', value: '7' },
      { company_id: 'c1', machine_id: 'm1', ts: at(1, 9), key: '@connection', value: 'DISCONNECTED' },
      { company_id: 'c2', machine_id: 'm2', ts: at(2, 1), key: 'execution', value: null },
      { company_id: 'c2', machine_id: 'm2', ts: at(2, 1), key: 'system', value: 'FAULT|E1||HIGH|over\ttemp' },
    ];
    // The table as it was (0001): text columns, rows in their stored order.
    for (const r of old)
      await sql`insert into observations (company_id, machine_id, ts, key, value)
        values (${r.company_id}, ${r.machine_id}, ${r.ts}, ${r.key}, ${r.value})`.execute(t.db);

    const { error } = await migrator().migrateTo('2026-11-29-0044-compact-observations');
    if (error) throw error instanceof Error ? error : new Error(String(error));

    const read = (machine: string) =>
      t.db
        .selectFrom('observations')
        .select(['company_id', 'machine_id', 'ts', 'key', 'value'])
        .where('machine_id', '=', machine)
        .orderBy('ts')
        .execute()
        .then((rows) => rows.map((r) => ({ ...r, ts: Number(r.ts) })));
    // SQLite keeps a millisecond's rows in their order (seq); PostgreSQL's order by ts alone leaves ties to the plan.
    const inOrder = <T extends { ts: number; key: string; value: string | null }>(rows: T[]) =>
      dialect === 'sqlite'
        ? rows
        : [...rows].sort((a, b) => a.ts - b.ts || `${a.key}|${a.value}`.localeCompare(`${b.key}|${b.value}`));
    expect(inOrder(await read('m1'))).toEqual(inOrder(old.slice(0, 4)));
    expect(inOrder(await read('m2'))).toEqual(inOrder(old.slice(4)));

    if (dialect === 'postgres') {
      const days = await dayPartitions(t.db);
      for (const d of [day, day + 1, day + 2]) expect(days).toContain(d);
      const inDefault = await sql<{ n: string }>`select count(*) as n from observation_rows_default`.execute(
        t.db,
      );
      expect(Number(inDefault.rows[0]!.n)).toBe(0);
    }

    // Written after the migration: the same millisecond as a migrated row is stored beside it (after it on SQLite).
    const more = [{ company_id: 'c1', machine_id: 'm1', ts: at(0, 5), key: 'execution', value: 'STOPPED' }];
    await t.db.transaction().execute((trx) => insertObservations(trx, more));
    const values = (await read('m1'))
      .filter((r) => r.ts === at(0, 5) && r.key === 'execution')
      .map((r) => r.value);
    expect(dialect === 'sqlite' ? values : values.sort()).toEqual(
      dialect === 'sqlite' ? ['ACTIVE', 'READY', 'STOPPED'] : ['ACTIVE', 'READY', 'STOPPED'].sort(),
    );
  });
});
