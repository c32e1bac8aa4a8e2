import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { recomputeRollups } from '@takt/db/rollups';
import { aCompany, aMachine } from '../testing/builders';
import { aDowntimeReason, anAnnotation, someStates } from '../testing/downtime-builders';

// METRICS.md §5, decision 1155: a downtime of a plannedWithLimit reason (an annotation without an end, judged
// on its period's duration) that crosses a company day start and passes its limit after it. A recompute marked
// from the new day's observations replaces the new day only, so the earlier day's stored hour kept the downtime
// as planned. The recompute reaches back to the downtime's start (not before): that hour becomes unplanned.

const MIN = 60_000;
const HOUR = 60 * MIN;
const MON = Date.parse('2024-01-15T00:00:00Z'); // a Monday, company days from midnight UTC
const TUE = MON + 24 * HOUR;

describe.each(DIALECTS)('a planned-with-limit downtime across a day start on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('turns the earlier day’s stored hour unplanned once the downtime passes its limit', async () => {
    const company = await aCompany(t.db, { timezone: 'UTC' });
    const machineId = await aMachine(t.db, company, { name: 'Lathe' });
    const other = await aMachine(t.db, company, { name: 'Mill' });
    await someStates(t.db, company, machineId, [
      [MON + 20 * HOUR, TUE - 10 * MIN, 'ACTIVE'],
      [TUE - 10 * MIN, null, 'INACTIVE'],
    ]);
    await someStates(t.db, company, other, [[MON + 20 * HOUR, null, 'ACTIVE']]);
    const breakReason = await aDowntimeReason(t.db, company, {
      name: 'Break',
      plannedBehavior: 'plannedWithLimit',
      plannedLimitMs: 30 * MIN,
    });
    await anAnnotation(t.db, company, { machineId, start: TUE - 10 * MIN, typeId: breakReason.id });
    const recompute = (from: number, now: number) =>
      recomputeRollups(t.db, { companyId: company.id, machineId, from, to: now, now });
    const lastHourOfMonday = async () => {
      const row = await t.db
        .selectFrom('rollups')
        .select(['measures', 'end_at'])
        .where('machine_id', '=', machineId)
        .where('start_at', '=', TUE - HOUR)
        .executeTakeFirstOrThrow();
      const m = JSON.parse(row.measures) as { plannedDowntimeMs: number; unplannedDowntimeMs: number };
      return { end: Number(row.end_at), planned: m.plannedDowntimeMs, unplanned: m.unplannedDowntimeMs };
    };

    // At 00:05 the break has lasted 15 min: within its limit, Monday's last 10 minutes are planned.
    await recompute(TUE - 10 * MIN, TUE + 5 * MIN);
    expect(await lastHourOfMonday()).toEqual({ end: TUE, planned: 10 * MIN, unplanned: 0 });

    // At 00:40 (50 min, past the limit) ingest marks from its new observations, after the day start.
    await recompute(TUE + 39 * MIN, TUE + 40 * MIN);
    expect(await lastHourOfMonday()).toEqual({ end: TUE, planned: 0, unplanned: 10 * MIN });
    const tuesday = await t.db
      .selectFrom('rollups')
      .select('measures')
      .where('machine_id', '=', machineId)
      .where('start_at', '=', TUE)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(tuesday.measures)).toMatchObject({
      plannedDowntimeMs: 0,
      unplannedDowntimeMs: 40 * MIN,
    });

    // Recomputed again: nothing reaches back any more (the hour holds), and not before the downtime's start.
    const mondayRows = () =>
      t.db
        .selectFrom('rollups')
        .select(['start_at', 'computed_at'])
        .where('machine_id', '=', machineId)
        .where('start_at', '<', TUE)
        .orderBy('start_at')
        .execute();
    const before = await mondayRows();
    await recompute(TUE + 41 * MIN, TUE + 42 * MIN);
    const after = await mondayRows();
    expect(after).toEqual(before);
    expect(before.map((r) => Number(r.computed_at))).toContain(TUE + 40 * MIN);
  });
});
