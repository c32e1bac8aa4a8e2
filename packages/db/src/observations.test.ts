import { afterEach, describe, expect, it } from 'vitest';
import type { TestDb } from './testing';
import { DIALECTS, freshDb } from './testing';
import type { ObservationRow } from './observations';
import { insertMachineObservations, insertObservations } from './observations';

// Values COPY's text format must escape, and ones it must leave alone (a literal "\N" is text, not null).
const AWKWARD = [
  'tab\there',
  'line\nbreak',
  'cr\rhere',
  'back\\slash',
  '\\N',
  '',
  'Ünïcødé ✓',
  'a|b|c',
  null,
];

const rowsOf = (machineId: string, n: number): ObservationRow[] =>
  Array.from({ length: n }, (_, i) => ({
    company_id: 'c1',
    machine_id: machineId,
    ts: 1_700_000_000_000 + i,
    key: i % 7 === 0 ? 'key\twith tab' : `k${i % 5}`,
    value: AWKWARD[i % AWKWARD.length]!,
  }));

describe.each(DIALECTS)('observations writer on %s', (dialect) => {
  let t: TestDb;
  afterEach(async () => {
    await t?.cleanup();
  });

  const stored = (machineId: string) =>
    t.db
      .selectFrom('observations')
      .select(['company_id', 'machine_id', 'ts', 'key', 'value'])
      .where('machine_id', '=', machineId)
      .orderBy('ts')
      .execute();

  // 64 rows and more load by COPY on PostgreSQL; fewer by INSERT: both must store the same.
  it.each([3, 64, 2500])('stores %i rows exactly as given', async (n) => {
    t = await freshDb(dialect);
    const rows = rowsOf('m1', n);
    await t.db.transaction().execute((trx) => insertObservations(trx, rows));
    expect(await stored('m1')).toEqual(rows);
  });

  it('stores one machine’s parsed observations, conditions as their text', async () => {
    t = await freshDb(dialect);
    const observations = Array.from({ length: 100 }, (_, i) =>
      i === 50
        ? {
            ts: i,
            key: 'system',
            value: null,
            kind: 'condition',
            condition: {
              level: 'FAULT',
              nativeCode: '12',
              nativeSeverity: '',
              qualifier: '',
              message: 'a\tb',
            },
          }
        : { ts: i, key: 'execution', value: i % 2 ? 'ACTIVE' : null },
    );
    await t.db
      .transaction()
      .execute((trx) => insertMachineObservations(trx, { companyId: 'c1', machineId: 'm2', observations }));
    const rows = await stored('m2');
    expect(rows).toHaveLength(100);
    expect(rows[50]!.value).toBe('FAULT|12|||a\tb');
    expect(rows[1]!.value).toBe('ACTIVE');
    expect(rows[2]!.value).toBeNull();
  });

  it('keeps nothing of a batch whose transaction fails after the rows were written', async () => {
    t = await freshDb(dialect);
    await expect(
      t.db.transaction().execute(async (trx) => {
        await insertObservations(trx, rowsOf('m3', 500));
        throw new Error('the rest of the batch failed');
      }),
    ).rejects.toThrow('the rest of the batch failed');
    expect(await stored('m3')).toEqual([]);
    // The connection is usable again afterwards.
    await t.db.transaction().execute((trx) => insertObservations(trx, rowsOf('m3', 100)));
    expect(await stored('m3')).toHaveLength(100);
  });

  // Decision 1130: the writer keeps the dictionary ids it knows committed; one a rolled-back batch made is not kept
  // (SQLite hands the same id to the next new name), so later rows of each machine and key read back as theirs.
  it('keeps no machine or key id of a rolled-back batch', async () => {
    t = await freshDb(dialect);
    const one = (machine: string, key: string, value: string) => [
      { company_id: 'c1', machine_id: machine, ts: 1_700_000_000_000, key, value },
    ];
    await expect(
      t.db.transaction().execute(async (trx) => {
        await insertObservations(trx, one('gone', 'gone_key', 'x'));
        await insertObservations(trx, one('gone', 'gone_key', 'y'));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await t.db.transaction().execute((trx) => insertObservations(trx, one('kept', 'kept_key', 'k')));
    await t.db.transaction().execute((trx) => insertObservations(trx, one('gone', 'gone_key', 'g')));
    const all = await t.db
      .selectFrom('observations')
      .select(['machine_id', 'key', 'value'])
      .orderBy('value')
      .execute();
    expect(all).toEqual([
      { machine_id: 'gone', key: 'gone_key', value: 'g' },
      { machine_id: 'kept', key: 'kept_key', value: 'k' },
    ]);
  });

  it('rejects a bad row without storing the rest of its batch', async () => {
    t = await freshDb(dialect);
    const rows = rowsOf('m4', 200);
    (rows[150] as { ts: unknown }).ts = null;
    const failed = t.db.transaction().execute((trx) => insertObservations(trx, rows));
    // PostgreSQL names the COPY line: the batch went by COPY, not by INSERT.
    if (dialect === 'postgres')
      await expect(failed).rejects.toMatchObject({
        where: expect.stringContaining('COPY observation_rows, line 151'),
      });
    else await expect(failed).rejects.toThrow();
    expect(await stored('m4')).toEqual([]);
  });
});
