import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyRow, DIALECTS, freshDb, machineRow, migrateTo, migrationBefore } from '../testing';
import type { TestDb } from '../testing';

// Migration 0068 (decision 1193): each machine of a company with a rollup row stored without downtime figures is
// marked for recomputation from its first such row (a later pending mark moved back, an earlier one kept); a
// machine whose rows all have figures, and the same machine id under another company, are left as they were.
const NAME = '2026-11-30-0068-rollup-downtime-recompute';

describe.each(DIALECTS)('migration 0068 downtime figures recomputed on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
    await migrateTo(t.db, migrationBefore(NAME));
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const HOUR = 3_600_000;
  const row = (companyId: string, machineId: string, start: number, downtime: string | null) => ({
    company_id: companyId,
    machine_id: machineId,
    start_at: start,
    end_at: start + HOUR,
    shift_id: null,
    measures: '{}',
    computed_at: start + HOUR,
    downtime,
  });
  const mark = (companyId: string, machineId: string, fromAt: number) => ({
    machine_id: machineId,
    company_id: companyId,
    from_at: fromAt,
    marked_at: 7,
    claimed_until: null,
    renewed_from: null,
  });

  it('marks each machine with a row without figures from its first such row', async () => {
    const db = t.db;
    await db
      .insertInto('companies')
      .values([companyRow('c1'), companyRow('c2')])
      .execute();
    await db
      .insertInto('machines')
      .values([
        machineRow('m1', 'c1'),
        machineRow('m2', 'c1'),
        machineRow('m3', 'c1'),
        machineRow('m4', 'c2'),
      ])
      .execute();
    const figures = '{"r":{}}';
    await db
      .insertInto('rollups')
      .values([
        // m1: figures, then none from 2 h (no mark: marked from 2 h).
        row('c1', 'm1', 0, figures),
        row('c1', 'm1', 2 * HOUR, null),
        row('c1', 'm1', 3 * HOUR, null),
        // m2: none from 1 h, a pending mark at 5 h (moved back to 1 h).
        row('c1', 'm2', HOUR, null),
        // m3: figures everywhere, a pending mark at 4 h (kept).
        row('c1', 'm3', 0, figures),
        // m4 under c2 with figures and c1's m1 id under c2 without (another machine, decision 1130).
        row('c2', 'm4', 0, figures),
        row('c2', 'm1', 6 * HOUR, null),
      ])
      .execute();
    await db
      .insertInto('rollup_dirty')
      .values([mark('c1', 'm2', 5 * HOUR), mark('c1', 'm3', 4 * HOUR)])
      .execute();
    await migrateTo(db, NAME);
    const marks = await db
      .selectFrom('rollup_dirty')
      .select(['company_id', 'machine_id', 'from_at'])
      .orderBy('company_id')
      .orderBy('machine_id')
      .execute();
    expect(marks.map((m) => [m.company_id, m.machine_id, Number(m.from_at)])).toEqual([
      ['c1', 'm1', 2 * HOUR],
      ['c1', 'm2', HOUR],
      ['c1', 'm3', 4 * HOUR],
      ['c2', 'm1', 6 * HOUR],
    ]);
  });
});
