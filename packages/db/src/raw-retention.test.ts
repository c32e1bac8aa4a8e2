import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestDb } from './testing';
import { DIALECTS, freshDb } from './testing';
import { insertObservations } from './observations';
import type { ObservationRow } from './observations';
import { createDayPartition, DAY_MS, dayPartitions } from './observation-partitions';
import { floorFor, rawFloor, RETENTION_SLICE_ROWS, runRawRetention } from './raw-retention';

// Raw retention (decision 1132): rows before the floor go, in slices; each key's last value before it is kept as a
// seed; derived rows stay; PostgreSQL drops the day partitions wholly before the floor and makes the days ahead.
describe.each(DIALECTS)('raw retention on %s', (dialect) => {
  let t: TestDb;
  afterEach(async () => {
    await t?.cleanup();
  });

  const DAY = 20_400; // 2025-11-09
  const NOW = (DAY + 40) * DAY_MS + 3_600_000;
  const DAYS = 35;

  const count = async (machine: string, where: 'before' | 'after', floor: number) => {
    const r = await t.db
      .selectFrom('observations')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('machine_id', '=', machine)
      .where('ts', where === 'before' ? '<' : '>=', floor)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  };

  it('removes the rows before the floor in slices, keeps each key’s last value and every derived row', async () => {
    t = await freshDb(dialect);
    const floor = floorFor(NOW, DAYS);
    expect(floor).toBe((DAY + 5) * DAY_MS);
    if (dialect === 'postgres') for (let d = DAY; d <= DAY + 40; d++) await createDayPartition(t.db, d);
    // m1: more rows before the floor than one slice takes; its last values before the floor are known.
    const rows: ObservationRow[] = [];
    const before = RETENTION_SLICE_ROWS * 2 + 123;
    for (let i = 0; i < before; i++)
      rows.push({
        company_id: 'c1',
        machine_id: 'm1',
        ts: DAY * DAY_MS + i * 30_000,
        key: i % 2 === 0 ? 'execution' : 'part_count',
        value: String(i),
      });
    rows.push({ company_id: 'c1', machine_id: 'm1', ts: DAY * DAY_MS + 10, key: 'mode', value: 'AUTOMATIC' });
    for (let i = 0; i < 10; i++)
      rows.push({
        company_id: 'c1',
        machine_id: 'm1',
        ts: floor + i * 1000,
        key: 'execution',
        value: 'ACTIVE',
      });
    // m2: only rows after the floor.
    for (let i = 0; i < 5; i++)
      rows.push({
        company_id: 'c2',
        machine_id: 'm2',
        ts: floor + DAY_MS + i,
        key: 'execution',
        value: 'READY',
      });
    // Before the first day partition (PostgreSQL: the default partition takes them).
    rows.push({ company_id: 'c1', machine_id: 'm1', ts: (DAY - 3) * DAY_MS, key: 'old', value: 'x' });
    await t.db.transaction().execute((trx) => insertObservations(trx, rows));
    await t.db
      .insertInto('state_intervals')
      .values({ company_id: 'c1', machine_id: 'm1', start_at: DAY * DAY_MS, end_at: floor, state: 'ACTIVE' })
      .execute();
    const lastBefore = (key: string) => rows.filter((r) => r.key === key && r.ts < floor).at(-1)!;

    const pass = await runRawRetention(t.db, DAYS, NOW);
    expect(pass.floor).toBe(floor);
    expect(pass.yielded).toBe(false);
    expect(await rawFloor(t.db)).toBe(floor);
    expect(await count('m1', 'before', floor)).toBe(0);
    expect(await count('m1', 'after', floor)).toBe(10);
    expect(await count('m2', 'after', floor)).toBe(5);
    const seeds = await t.db
      .selectFrom('observation_seeds as s')
      .innerJoin('observation_keys as k', 'k.id', 's.k')
      .innerJoin('observation_machines as m', 'm.id', 's.m')
      .select(['m.machine_id', 'k.key', 's.ts', 's.value'])
      .orderBy('k.key')
      .execute();
    expect(seeds.map((s) => ({ ...s, ts: Number(s.ts) }))).toEqual(
      ['execution', 'mode', 'old', 'part_count'].map((key) => ({
        machine_id: 'm1',
        key,
        ts: lastBefore(key).ts,
        value: lastBefore(key).value,
      })),
    );
    expect(await t.db.selectFrom('state_intervals').selectAll().execute()).toHaveLength(1);
    if (dialect === 'postgres') {
      expect(pass.partitionsDropped).toBe(5);
      const days = await dayPartitions(t.db);
      expect(days[0]).toBe(DAY + 5);
      // The days ahead of NOW are made.
      expect(days).toContain(DAY + 43);
    } else expect(pass.rowsRemoved).toBe(before + 2);

    // A second pass finds nothing to remove and changes no seed.
    const again = await runRawRetention(t.db, DAYS, NOW);
    expect(again.rowsRemoved).toBe(0);
    expect(again.partitionsDropped).toBe(0);
    expect(await t.db.selectFrom('observation_seeds').selectAll().execute()).toHaveLength(4);
  });

  it('keeps the changes of the machine’s override keys before the rows go, once (decision 1150)', async () => {
    t = await freshDb(dialect);
    const floor = floorFor(NOW, DAYS);
    if (dialect === 'postgres') for (let d = DAY; d <= DAY + 40; d++) await createDayPartition(t.db, d);
    await sql`insert into companies (id, name, created_at) values ('c1', 'Acme', 1)`.execute(t.db);
    await sql`insert into adapters (id, company_id, name, created_at) values ('a1', 'c1', 'Mill', 1)`.execute(
      t.db,
    );
    await sql`insert into adapter_fields (id, company_id, adapter_id, name, data_item_type, component_name,
      component_type) values ('f1', 'c1', 'a1', 'Fovr', 'PATH_FEEDRATE_OVERRIDE', 'path', 'Path'),
      ('f2', 'c1', 'a1', 'exec', 'EXECUTION', 'path', 'Path')`.execute(t.db);
    await sql`insert into machines (id, company_id, name, adapter_id, created_at)
      values ('m1', 'c1', 'Mill 1', 'a1', 1)`.execute(t.db);
    const H = 3_600_000;
    const at = (ts: number, key: string, value: string): ObservationRow => ({
      company_id: 'c1',
      machine_id: 'm1',
      ts,
      key,
      value,
    });
    await t.db.transaction().execute((trx) =>
      insertObservations(trx, [
        at((DAY - 3) * DAY_MS, 'Fovr', '120'), // PostgreSQL: in the default partition
        at(DAY * DAY_MS + H, 'Fovr', '100'),
        at(DAY * DAY_MS + H, 'exec', 'ACTIVE'),
        at(DAY * DAY_MS + 2 * H, 'Fovr', '100'),
        at(DAY * DAY_MS + 3 * H, 'Fovr', '80'),
        at(floor + H, 'Fovr', '90'),
      ]),
    );
    const steps = async () =>
      (
        await t.db
          .selectFrom('observation_steps as s')
          .innerJoin('observation_keys as k', 'k.id', 's.k')
          .select(['k.key', 's.ts', 's.value'])
          .orderBy('s.ts')
          .execute()
      ).map((s) => ({ ...s, ts: Number(s.ts) }));

    await runRawRetention(t.db, DAYS, NOW);
    expect(await count('m1', 'before', floor)).toBe(0);
    const kept = [
      { key: 'Fovr', ts: (DAY - 3) * DAY_MS, value: '120' },
      { key: 'Fovr', ts: DAY * DAY_MS + H, value: '100' },
      { key: 'Fovr', ts: DAY * DAY_MS + 3 * H, value: '80' },
    ];
    expect(await steps()).toEqual(kept);
    await runRawRetention(t.db, DAYS, NOW);
    expect(await steps()).toEqual(kept);
  });

  it('keeps everything with 0 days, and never moves the floor back', async () => {
    t = await freshDb(dialect);
    await t.db
      .transaction()
      .execute((trx) =>
        insertObservations(trx, [
          { company_id: 'c1', machine_id: 'm1', ts: DAY * DAY_MS, key: 'a', value: '1' },
        ]),
      );
    const kept = await runRawRetention(t.db, 0, NOW);
    expect(kept.rowsRemoved).toBe(0);
    expect(await rawFloor(t.db)).toBe(0);
    expect(await count('m1', 'after', 0)).toBe(1);
    await runRawRetention(t.db, DAYS, NOW);
    await runRawRetention(t.db, DAYS + 100, NOW);
    expect(await rawFloor(t.db)).toBe(floorFor(NOW, DAYS));
    expect(await count('m1', 'after', 0)).toBe(0);
  });
});

// Several nodes on one PostgreSQL database: one works at a time, the others' passes stop at once.
describe('raw retention lock on postgres', () => {
  let t: TestDb;
  afterEach(async () => {
    await t?.cleanup();
  });

  it('yields to another node holding the retention lock', async () => {
    t = await freshDb('postgres');
    const other = await t.db.connection().execute(async (c) => {
      await sql`select pg_advisory_lock(${0x7a6b7430})`.execute(c);
      try {
        return await runRawRetention(t.db, 35, Date.UTC(2026, 0, 1));
      } finally {
        await sql`select pg_advisory_unlock(${0x7a6b7430})`.execute(c);
      }
    });
    expect(other.yielded).toBe(true);
    expect(await rawFloor(t.db)).toBe(0);
  });
});
