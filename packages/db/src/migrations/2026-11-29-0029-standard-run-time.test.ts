import { Migrator } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../testing';
import type { TestDb } from '../testing';
import { migrateToLatest } from '../connect';
import { loadRollups } from '../rollups/read';
import { companyScope } from '../scope';
import { migrations } from './index';

// Migration 0029 (decision 1002) on a database with stored sums: day and week rows get standard_run_ms (their
// ACTIVE time when they hold ideal time, else 0), hourly rows read the same way, every machine is marked dirty.
describe.each(DIALECTS)('migration 0029 standard run time on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
    const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
    const { error } = await migrator.migrateTo('2026-11-29-0028-gateway-sequence-gaps');
    if (error) throw error instanceof Error ? error : new Error(String(error));
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('estimates the standard run time of stored rows and marks their machines dirty', async () => {
    const day = (machine: string, idealMs: number) => ({
      company_id: 'c1',
      machine_id: machine,
      start_at: 3_600_000,
      end_at: 90_000_000,
      shift_id: null,
      ...Object.fromEntries(
        [
          'duration_ms',
          'setup_ms',
          'inactive_ms',
          'fault_ms',
          'unavailable_ms',
          'spindle_ms',
          'in_cut_ms',
          'planned_downtime_ms',
          'unplanned_downtime_ms',
          'cycles',
          'expected_ms',
          'parts',
          'adjustment_count',
          'rejected',
        ].map((c) => [c, 0]),
      ),
      active_ms: 500,
      ideal_ms: idealMs,
      min_expected_part_time: null,
      reasons: '{"downtimeByReason":{},"rejectsByType":{}}',
      computed_at: 9_000_000,
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const db = t.db as any;
    await db
      .insertInto('rollup_days')
      .values([day('m1', 400), day('m2', 0)])
      .execute();
    await db
      .insertInto('rollup_weeks')
      .values([day('m1', 400)])
      .execute();
    const measures = (ideal: number) =>
      JSON.stringify({
        stateMs: { ACTIVE: 500, SETUP: 0, INACTIVE: 0, FAULT: 0, UNAVAILABLE: 0 },
        idealMs: ideal,
      });
    await db
      .insertInto('rollups')
      .values(
        (
          [
            ['m1', 400],
            ['m2', 0],
          ] as const
        ).map(([m, ideal]) => ({
          company_id: 'c1',
          machine_id: m,
          start_at: 3_600_000,
          end_at: 7_200_000,
          shift_id: null,
          measures: measures(ideal),
          computed_at: 9_000_000,
        })),
      )
      .execute();
    await migrateToLatest(t.db);

    const sums = await t.db
      .selectFrom('rollup_days')
      .select(['machine_id', 'standard_run_ms'])
      .orderBy('machine_id')
      .execute();
    expect(sums.map((r) => [r.machine_id, Number(r.standard_run_ms)])).toEqual([
      ['m1', 500],
      ['m2', 0],
    ]);
    const week = await t.db.selectFrom('rollup_weeks').select('standard_run_ms').executeTakeFirstOrThrow();
    expect(Number(week.standard_run_ms)).toBe(500);
    const hourly = await loadRollups(companyScope(t.db, 'c1'), {
      machineIds: ['m1', 'm2'],
      start: 0,
      end: 10_000_000,
    });
    expect(hourly.map((r) => [r.machineId, r.standardRunMs])).toEqual([
      ['m1', 500],
      ['m2', 0],
    ]);
    const marks = await t.db
      .selectFrom('rollup_dirty')
      .select(['machine_id', 'from_at'])
      .orderBy('machine_id')
      .execute();
    expect(marks.map((m) => [m.machine_id, Number(m.from_at)])).toEqual([
      ['m1', 3_600_000],
      ['m2', 3_600_000],
    ]);
  });
});
