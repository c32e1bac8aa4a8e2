import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyRow, DIALECTS, freshDb, machineRow, migrateTo, migrationBefore } from '../testing';
import type { TestDb } from '../testing';

// Migration 0066 (decision 1190): rollups, rollup_dirty, setup_dirty and machine_live keyed by (machine_id,
// company_id): every stored row is kept with all its columns, the same machine id under another company then gets
// rows of its own, and down again keeps one company's rows of an id.
const NAME = '2026-11-30-0066-rollups-by-company';
const BEFORE = migrationBefore(NAME);

describe.each(DIALECTS)('migration 0066 rollups by company on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
    await migrateTo(t.db, BEFORE);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const rollup = (companyId: string, machineId: string, start: number) => ({
    company_id: companyId,
    machine_id: machineId,
    start_at: start,
    end_at: start + 3_600_000,
    shift_id: null,
    measures: `{"of":"${companyId}"}`,
    computed_at: start + 3_600_001,
  });
  const live = (companyId: string, machineId: string, state: string) => ({
    machine_id: machineId,
    company_id: companyId,
    state,
    state_since: 5,
    connection: 'CONNECTED',
    connection_since: 4,
    last_heartbeat: 6,
    execution: 'ACTIVE',
    execution_since: 5,
    availability: 'AVAILABLE',
    controller_mode: 'AUTOMATIC',
    program: 'O100',
    part_count: 7,
    spindle_speed: 1200.5,
    fault_since: null,
    fault_message: null,
    in_setup: 1,
    updated_at: 8,
  });
  const all = async () => ({
    rollups: await t.db
      .selectFrom('rollups')
      .selectAll()
      .orderBy('company_id')
      .orderBy('machine_id')
      .orderBy('start_at')
      .execute(),
    dirty: await t.db
      .selectFrom('rollup_dirty')
      .selectAll()
      .orderBy('company_id')
      .orderBy('machine_id')
      .execute(),
    setup: await t.db
      .selectFrom('setup_dirty')
      .selectAll()
      .orderBy('company_id')
      .orderBy('machine_id')
      .execute(),
    live: await t.db
      .selectFrom('machine_live')
      .selectAll()
      .orderBy('company_id')
      .orderBy('machine_id')
      .execute(),
  });

  it('keeps every row, then keys them by company and machine, and goes down again', async () => {
    const db = t.db;
    await db
      .insertInto('companies')
      .values([companyRow('c1'), companyRow('c2')])
      .execute();
    await db
      .insertInto('machines')
      .values([machineRow('m1', 'c1'), machineRow('m2', 'c2')])
      .execute();
    await db
      .insertInto('rollups')
      .values([rollup('c1', 'm1', 0), rollup('c1', 'm1', 3_600_000), rollup('c2', 'm2', 0)])
      .execute();
    await db
      .insertInto('rollup_dirty')
      .values([
        {
          machine_id: 'm1',
          company_id: 'c1',
          from_at: 10,
          marked_at: 11,
          claimed_until: 12,
          renewed_from: 9,
        },
        {
          machine_id: 'm2',
          company_id: 'c2',
          from_at: 20,
          marked_at: 21,
          claimed_until: null,
          renewed_from: null,
        },
      ])
      .execute();
    await db
      .insertInto('setup_dirty')
      .values({ machine_id: 'm1', company_id: 'c1', from_at: 30, marked_at: 31 })
      .execute();
    await db
      .insertInto('machine_live')
      .values([live('c1', 'm1', 'ACTIVE'), live('c2', 'm2', 'FAULT')])
      .execute();
    const before = await all();

    await migrateTo(db, NAME);
    expect(await all()).toEqual(before);

    // The same machine id under another company is another machine: rows of its own beside the first's.
    await db
      .insertInto('rollups')
      .values(rollup('c2', 'm1', 0))
      .execute();
    await db
      .insertInto('rollup_dirty')
      .values({ machine_id: 'm1', company_id: 'c2', from_at: 1, marked_at: 2 })
      .execute();
    await db
      .insertInto('setup_dirty')
      .values({ machine_id: 'm1', company_id: 'c2', from_at: 3, marked_at: 4 })
      .execute();
    await db
      .insertInto('machine_live')
      .values(live('c2', 'm1', 'INACTIVE'))
      .execute();
    const twice = await all();
    expect(twice.rollups).toHaveLength(4);
    expect(twice.dirty).toHaveLength(3);
    expect(twice.setup).toHaveLength(2);
    expect(twice.live).toHaveLength(3);
    // Still one row of a company's machine and start.
    await expect(
      db
        .insertInto('rollups')
        .values(rollup('c2', 'm1', 0))
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('machine_live')
        .values(live('c2', 'm1', 'ACTIVE'))
        .execute(),
    ).rejects.toThrow();
    // The live row's indexes came along (SQLite copies the table).
    if (dialect === 'sqlite') {
      const { rows } = await sql<{ name: string }>`select name from sqlite_master
        where type = 'index' and tbl_name = 'machine_live' and sql is not null`.execute(db);
      expect(rows.map((r) => r.name)).toEqual(['machine_live_company']);
    }

    // Down: one company's rows of an id are kept (the first's), the rest as they were.
    await migrateTo(db, BEFORE);
    expect(await all()).toEqual(before);
  });
});
