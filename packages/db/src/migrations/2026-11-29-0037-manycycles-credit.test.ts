import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyRow, DIALECTS, freshDb, machineRow } from '../testing';
import type { TestDb } from '../testing';
import { up } from './2026-11-29-0037-manycycles-credit';

// Migration 0037 (decision 1022): rows computed from a time after a manycycles run started credited its cycles
// from there, so every machine with stored rows and a manycycles run is marked dirty from its first such run's
// start; an earlier mark is kept, machines without rows or without a manycycles run are left alone.
describe.each(DIALECTS)('migration 0037 manycycles credit on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('marks the machines with rows and a manycycles run dirty from that run', async () => {
    const db = t.db;
    await db.insertInto('companies').values(companyRow('c1')).execute();
    await db
      .insertInto('machines')
      .values(['m1', 'm2', 'm3', 'm4'].map((id) => machineRow(id, 'c1')))
      .execute();
    await db
      .insertInto('jobs')
      .values({
        id: 'j1',
        company_id: 'c1',
        name: 'Bracket',
        erp_job_id: null,
        expected_cycle_time: 60_000,
        ideal_cycle_time: 60_000,
        part_count_multiplier: 1,
        actual_parts: 1,
        setuptime: null,
        quantity: null,
        hidden: 0,
        created_at: 1,
      })
      .execute();
    const run = (id: string, machineId: string, start: number, behavior: 'one' | 'manycycles') => ({
      id,
      company_id: 'c1',
      machine_id: machineId,
      job_id: 'j1',
      job_machine_id: null,
      start_at: start,
      end_at: start + 3_600_000,
      setup_mode: 'none' as const,
      setup_end: start,
      expected_cycle_time: 60_000,
      ideal_cycle_time: 60_000,
      part_count_multiplier: 1,
      actual_parts: 1,
      reported_parts: behavior === 'manycycles' ? 3 : null,
      required_cycles: behavior === 'manycycles' ? 2 : null,
      part_behavior: behavior,
      expected_setup_ms: null,
      setup_note: null,
      created_at: start,
    });
    await db
      .insertInto('job_runs')
      .values([
        run('r1', 'm1', 7_200_000, 'manycycles'),
        run('r2', 'm1', 18_000_000, 'manycycles'),
        run('r3', 'm2', 3_600_000, 'one'),
        run('r4', 'm3', 7_200_000, 'manycycles'),
        run('r5', 'm4', 7_200_000, 'manycycles'),
      ])
      .execute();
    const row = (machineId: string, start: number) => ({
      company_id: 'c1',
      machine_id: machineId,
      start_at: start,
      end_at: start + 3_600_000,
      shift_id: null,
      measures: '{}',
      computed_at: 90_000_000,
    });
    // m4 has no stored rows: nothing to rebuild.
    await db
      .insertInto('rollups')
      .values([row('m1', 0), row('m2', 0), row('m3', 0)])
      .execute();
    // m3 is already marked from an earlier time: it keeps its mark.
    await db
      .insertInto('rollup_dirty')
      .values({ machine_id: 'm3', company_id: 'c1', from_at: 0, marked_at: 5 })
      .execute();
    await up(db);
    const marks = await db
      .selectFrom('rollup_dirty')
      .select(['machine_id', 'from_at'])
      .orderBy('machine_id')
      .execute();
    expect(marks.map((m) => [m.machine_id, Number(m.from_at)])).toEqual([
      ['m1', 7_200_000],
      ['m3', 0],
    ]);
  });
});
