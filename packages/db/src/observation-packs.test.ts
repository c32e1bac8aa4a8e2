import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestDb } from './testing';
import { DIALECTS, freshDb } from './testing';
import { insertObservations } from './observations';
import type { ObservationRow } from './observations';
import {
  createDayPartition,
  DAY_MS,
  dayPartitionName,
  dayPartitions,
  packPartitionName,
} from './observation-partitions';
import { firstStoredAt, observationsBetween, packObservations, PACK_MACHINE_ROWS } from './observation-packs';
import { floorFor, runRawRetention } from './raw-retention';

// Packed raw observations (decision 1184): packing moves rows into packs and changes nothing a reader sees, in the
// stored order of a millisecond's rows, whatever is packed, late or rolled back; retention drops packs with their
// day and keeps their last values as seeds; a company's reads never see another company's packs.
describe.each(DIALECTS)('observation packs on %s', (dialect) => {
  let t: TestDb;
  afterEach(async () => {
    await t?.cleanup();
  });

  const DAY = 20_400; // 2025-11-09
  const T0 = DAY * DAY_MS + 23 * 3_600_000; // an hour before the day ends: packs split at the hour and the day

  /** A small deterministic random source (the same rows every run). */
  const random = (seed: number) => () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };

  /** Batches of rows of three machines (two companies share the id m1), with ties in a millisecond and nulls. */
  const batches = (seed: number, n: number, from: number, span: number) => {
    const r = random(seed);
    const out: ObservationRow[][] = [];
    let batch: ObservationRow[] = [];
    for (let i = 0; i < n; i++) {
      const who = Math.floor(r() * 3);
      batch.push({
        company_id: who === 1 ? 'c2' : 'c1',
        machine_id: who === 2 ? 'm2' : 'm1',
        // Few distinct times: many ties, within a batch and across batches.
        ts: from + Math.floor(r() * 40) * Math.floor(span / 40),
        key: `k${Math.floor(r() * 4)}`,
        value: r() < 0.1 ? null : `v${i}`,
      });
      if (r() < 0.05) {
        out.push(batch);
        batch = [];
      }
    }
    out.push(batch);
    return out;
  };

  /** What a machine's reads must give: its rows in time order, a millisecond's in the order they were stored. */
  const expected = (stored: readonly ObservationRow[], company: string, machine: string) =>
    stored
      .filter((o) => o.company_id === company && o.machine_id === machine)
      .map((o, i) => ({ o, i }))
      .sort((a, b) => a.o.ts - b.o.ts || a.i - b.i)
      .map(({ o }) => ({ ts: o.ts, key: o.key, value: o.value }));

  const read = async (company: string, machine: string, from = 0, to?: number) =>
    (
      await t.db
        .selectFrom(observationsBetween(t.db, { companyId: company, machineIds: [machine], from, to }))
        .select(['observations.ts', 'observations.key', 'observations.value'])
        .orderBy('observations.ts')
        .orderBy('observations.seq')
        .execute()
    ).map((r) => ({ ts: Number(r.ts), key: r.key, value: r.value }));

  /** The view's rows of a machine, in an order that does not depend on ties. */
  const viewed = async (company: string, machine: string) =>
    (
      await t.db
        .selectFrom('observations')
        .select(['ts', 'key', 'value'])
        .where('company_id', '=', company)
        .where('machine_id', '=', machine)
        .execute()
    )
      .map((r) => ({ ts: Number(r.ts), key: r.key, value: r.value }))
      .sort(
        (a, b) => a.ts - b.ts || a.key.localeCompare(b.key) || String(a.value).localeCompare(String(b.value)),
      );
  const sorted = (rows: Array<{ ts: number; key: string; value: string | null }>) =>
    [...rows].sort(
      (a, b) => a.ts - b.ts || a.key.localeCompare(b.key) || String(a.value).localeCompare(String(b.value)),
    );

  const store = async (list: ObservationRow[][]) => {
    for (const b of list) await t.db.transaction().execute((trx) => insertObservations(trx, b));
  };

  const allAgree = async (stored: readonly ObservationRow[]) => {
    for (const [c, m] of [
      ['c1', 'm1'],
      ['c2', 'm1'],
      ['c1', 'm2'],
    ] as const) {
      const want = expected(stored, c, m);
      expect(await read(c, m)).toEqual(want);
      expect(await viewed(c, m)).toEqual(sorted(want));
    }
  };

  const packedRows = async () =>
    dialect === 'postgres'
      ? Number(
          (
            await sql<{
              n: string;
            }>`select coalesce(sum(cardinality(dts)), 0) as n from observation_packs`.execute(t.db)
          ).rows[0]?.n,
        )
      : 0;

  it('reads the same rows in the same order after packing, late rows and packing again', async () => {
    t = await freshDb(dialect);
    // The first day partitioned, the next one not (its rows and packs in the default partitions).
    if (dialect === 'postgres') await createDayPartition(t.db, DAY);
    const stored: ObservationRow[] = [];
    const first = batches(1, 3000, T0, 2 * 3_600_000);
    await store(first);
    stored.push(...first.flat());
    await allAgree(stored);

    // Everything but the last half hour goes into packs.
    const now = T0 + 2 * 3_600_000;
    const pass = await packObservations(t.db, now, 1_800_000);
    if (dialect === 'postgres') {
      expect(pass.rowsPacked).toBeGreaterThan(2000);
      expect(pass.packsMade).toBeGreaterThanOrEqual(6); // three machines, two hours at least
      expect(await packedRows()).toBe(pass.rowsPacked);
    } else expect(pass.rowsPacked).toBe(0);
    await allAgree(stored);

    // Late rows: times already packed (ties with packed rows), then packed in their own packs.
    const late = batches(2, 800, T0, 2 * 3_600_000);
    await store(late);
    stored.push(...late.flat());
    await allAgree(stored);
    const again = await packObservations(t.db, now + 3_600_000);
    await allAgree(stored);
    if (dialect === 'postgres') {
      expect(await packedRows()).toBe(stored.length);
      expect(again.rowsPacked).toBe(stored.length - pass.rowsPacked);
      // No pack crosses an hour, so none crosses a day.
      const spans = await sql<{ bad: string }>`select count(*) as bad from observation_packs
        where from_ts / 3600000 <> to_ts / 3600000`.execute(t.db);
      expect(Number(spans.rows[0]?.bad)).toBe(0);
    }

    // A range read gives the rows of its range only, packed or not.
    const from = T0 + 1_000_000;
    const to = T0 + 4_000_000;
    expect(await read('c1', 'm1', from, to)).toEqual(
      expected(stored, 'c1', 'm1').filter((o) => o.ts >= from && o.ts < to),
    );
    // Tenancy: c1's read of m1 never holds c2's m1 rows, packed or not.
    expect(await read('c1', 'm1')).not.toEqual(await read('c2', 'm1'));
    const first1 = await t.db
      .selectFrom('observation_machines as om')
      .select(firstStoredAt(t.db, sql.ref('om.id')).as('ts'))
      .where('om.machine_id', '=', 'm2')
      .executeTakeFirstOrThrow();
    expect(Number(first1.ts)).toBe(Math.min(...stored.filter((o) => o.machine_id === 'm2').map((o) => o.ts)));
  });

  it('loses nothing when a slice is rolled back, and packs a backlog over several slices', async () => {
    t = await freshDb(dialect);
    const stored: ObservationRow[] = [];
    const rows = Array.from({ length: PACK_MACHINE_ROWS * 2 + 10 }, (_, i): ObservationRow => ({
      company_id: 'c1',
      machine_id: 'm1',
      ts: T0 + Math.floor(i / 3) * 200,
      key: `k${i % 3}`,
      value: String(i),
    }));
    await store([rows]);
    stored.push(...rows);
    await expect(
      t.db.transaction().execute(async (trx) => {
        await packObservations(trx, T0 + 7_200_000, 0);
        throw new Error('the node died mid-slice');
      }),
    ).rejects.toThrow('the node died');
    expect(await packedRows()).toBe(0);
    expect(await read('c1', 'm1')).toEqual(expected(stored, 'c1', 'm1'));
    const pass = await packObservations(t.db, T0 + 7_200_000, 0);
    if (dialect === 'postgres') expect(pass.rowsPacked).toBe(rows.length);
    expect(await read('c1', 'm1')).toEqual(expected(stored, 'c1', 'm1'));
  });

  it('reuses the packed rows’ space for the next rows: a day partition does not grow with the day', async () => {
    if (dialect !== 'postgres') return;
    t = await freshDb(dialect);
    await createDayPartition(t.db, DAY);
    const size = async () =>
      Number(
        (await sql<{ n: string }>`select pg_relation_size(${dayPartitionName(DAY)}) as n`.execute(t.db))
          .rows[0]?.n,
      );
    const minutes = (from: number, n: number) =>
      Array.from({ length: n }, (_, i): ObservationRow => ({
        company_id: 'c1',
        machine_id: `m${i % 10}`,
        ts: from + i * 100,
        key: 'program',
        value: `P${1000 + i}`,
      }));
    const T = DAY * DAY_MS;
    await store([minutes(T, 3000)]);
    const full = await size();
    // The first half packed; the second half stays rows at the end of the heap.
    await packObservations(t.db, T + 150_000, 0);
    expect(await size()).toBe(full);
    // As many rows again go where the packed ones were (the packer's VACUUM), not after them.
    await store([minutes(T + 300_000, 1500)]);
    expect(await size()).toBeLessThanOrEqual(full + 8192);
    expect(await read('c1', 'm3')).toHaveLength(450);
  });

  it('retention drops packs with their day and keeps their last values as seeds', async () => {
    t = await freshDb(dialect);
    if (dialect === 'postgres') for (let d = DAY; d <= DAY + 40; d++) await createDayPartition(t.db, d);
    const NOW = (DAY + 40) * DAY_MS + 3_600_000;
    const floor = floorFor(NOW, 35);
    const at = (company: string, ts: number, key: string, value: string): ObservationRow => ({
      company_id: company,
      machine_id: 'm1',
      ts,
      key,
      value,
    });
    const rows = [
      at('c1', DAY * DAY_MS + 1000, 'execution', 'ACTIVE'),
      at('c1', DAY * DAY_MS + 2000, 'execution', 'READY'),
      at('c1', (DAY - 2) * DAY_MS, 'mode', 'MANUAL'), // before any partition: the default partitions'
      at('c2', DAY * DAY_MS + 3000, 'execution', 'STOPPED'),
      at('c1', floor + 5000, 'execution', 'ACTIVE'),
    ];
    await store([rows]);
    await packObservations(t.db, NOW);
    if (dialect === 'postgres') expect(await packedRows()).toBe(rows.length);
    const pass = await runRawRetention(t.db, 35, NOW);
    expect(pass.yielded).toBe(false);
    expect(await viewed('c1', 'm1')).toEqual([{ ts: floor + 5000, key: 'execution', value: 'ACTIVE' }]);
    expect(await viewed('c2', 'm1')).toEqual([]);
    const seeds = await t.db
      .selectFrom('observation_seeds as s')
      .innerJoin('observation_keys as k', 'k.id', 's.k')
      .innerJoin('observation_machines as m', 'm.id', 's.m')
      .select(['m.company_id', 'k.key', 's.ts', 's.value'])
      .orderBy('m.company_id')
      .orderBy('k.key')
      .execute();
    expect(seeds.map((s) => ({ ...s, ts: Number(s.ts) }))).toEqual([
      { company_id: 'c1', key: 'execution', ts: DAY * DAY_MS + 2000, value: 'READY' },
      { company_id: 'c1', key: 'mode', ts: (DAY - 2) * DAY_MS, value: 'MANUAL' },
      { company_id: 'c2', key: 'execution', ts: DAY * DAY_MS + 3000, value: 'STOPPED' },
    ]);
    if (dialect === 'postgres') {
      expect((await dayPartitions(t.db))[0]).toBe(DAY + 5);
      const packs = await sql<{
        t: string | null;
      }>`select to_regclass(${packPartitionName(DAY)})::text as t`.execute(t.db);
      expect(packs.rows[0]?.t).toBeNull();
    }
  });
});
