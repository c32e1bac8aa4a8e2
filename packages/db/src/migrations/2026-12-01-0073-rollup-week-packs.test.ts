import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '../scope';
import { DIALECTS, freshDb, migrateTo, migrationBefore, weekPacksAndRows } from '../testing';
import type { TestDb } from '../testing';

// Migration 0073 (decision 1235): the week rows stored before it are packed, each company's machines apart, across
// a span boundary of the packs (2^33 ms), rows outside shift time and in-shift rows with their reasons alike.
const NAME = '2026-12-01-0073-rollup-week-packs';
const WEEK = 7 * 86_400_000;
/** A week start a few weeks before the packs' span boundary at 205 × 2^33 ms. */
const T = 205 * 2 ** 33 - 3 * WEEK;

describe.each(DIALECTS)('migration 0073 rollup week packs on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
    await migrateTo(t.db, migrationBefore(NAME));
  });
  afterEach(async () => {
    await t.cleanup();
  });

  /** A week row with every column of the schema before 0073, its figures from `k`. */
  const week = (companyId: string, machineId: string, start: number, shiftId: string | null, k: number) => ({
    company_id: companyId,
    machine_id: machineId,
    start_at: start,
    end_at: start + WEEK - 1,
    shift_id: shiftId,
    duration_ms: 1_000 * k,
    active_ms: 500 * k,
    setup_ms: 10 * k,
    inactive_ms: 100 * k,
    fault_ms: 7 * k,
    unavailable_ms: k,
    spindle_ms: 400 * k,
    in_cut_ms: 300 * k,
    planned_downtime_ms: 10 * k,
    unplanned_downtime_ms: 108 * k,
    cycles: k,
    ideal_ms: 45 * k,
    standard_run_ms: 450 * k,
    expected_ms: 60 * k,
    parts: k,
    adjustment_count: k % 3,
    rejected: k % 2,
    min_expected_part_time: k % 2 ? null : 60_000.5,
    reasons: JSON.stringify({
      downtimeByReason: shiftId
        ? { jam: { plannedMs: 0, unplannedMs: k }, [`r${k % 4}`]: { plannedMs: k, unplannedMs: 0 } }
        : {},
      rejectsByType: {},
    }),
    computed_at: 1_760_000_000_000 + k,
    downtime: null,
  });

  it('packs the week rows stored before it, by company and machine', async () => {
    const rows = [];
    for (const [c, machines] of [
      ['c1', ['m1', 'm2']],
      ['c2', ['m1']],
    ] as const)
      for (const [j, m] of machines.entries())
        for (let w = 0; w < 6; w++) {
          const start = T + w * WEEK;
          const k = 100 * j + 10 * w + (c === 'c2' ? 5 : 1);
          rows.push(week(c, m, start, null, k), week(c, m, start + 6 * 3_600_000, 'day', k + 1));
          if (w % 2 === 0) rows.push(week(c, m, start + 14 * 3_600_000, 'swing', k + 2));
        }
    await t.db.insertInto('rollup_weeks').values(rows).execute();
    await migrateTo(t.db, NAME);
    for (const [c, ids] of [
      ['c1', ['m1', 'm2']],
      ['c2', ['m1']],
    ] as const) {
      const { packs, rows: read } = await weekPacksAndRows(companyScope(t.db, c));
      expect(packs).toEqual(read);
      expect((packs as Array<{ id: string; rows: unknown[] }>).map((p) => [p.id, p.rows.length])).toEqual(
        ids.map((id) => [id, 15]),
      );
    }
  });
});
