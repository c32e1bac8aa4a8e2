// Decision 1073: a manual work center's states come from its job runs and Add Parts. The rollup worker derives
// them when it recomputes a mark, and with no new evidence turns an open gap that passed its limit from ACTIVE to
// INACTIVE (its review marks the machine), so the bench does not read in cycle for hours after its last part.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { markRollupsDirty } from '@takt/db/rollups';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { aJobWithRun, anAdjustmentRow } from '../../../api/src/testing/report-plant';
import { RollupWorker } from './rollup';

const MIN = 60_000;
/** UTC company: 2025-11-03 08:00. */
const T = Date.UTC(2025, 10, 3, 8);

describe.each(DIALECTS)('the rollup worker and a manual work center on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('derives its states at a mark, and reads a gap past its limit idle without any new evidence', async () => {
    const company = await aCompany(t.db, { timezone: 'UTC' });
    const machineId = await aMachine(t.db, company, { workcenterType: 'manual' });
    const scope = companyScope(t.db, company.id);
    // A 10-minute job from 08:00, still running; parts at 08:10, 08:20 and 08:30.
    await aJobWithRun(scope, {
      machineId,
      name: 'Kit',
      expected: 10 * MIN,
      ideal: 8 * MIN,
      jobCreatedAt: T,
      start: T,
      end: null,
    });
    await scope
      .insertInto(
        'part_adjustments',
        [10, 20, 30].map((m) => anAdjustmentRow(machineId, T + m * MIN, { count: 1, kind: 'manual' })),
      )
      .execute();
    let clock = T + 35 * MIN;
    const log: string[] = [];
    const worker = new RollupWorker(
      t.db,
      () => clock,
      (m) => log.push(m),
    );
    const states = async () =>
      (
        await t.db
          .selectFrom('state_intervals')
          .select(['start_at', 'end_at', 'state'])
          .where('machine_id', '=', machineId)
          .orderBy('start_at')
          .execute()
      ).map((r) => [Number(r.start_at), r.end_at == null ? null : Number(r.end_at), r.state]);

    await markRollupsDirty(t.db, { companyId: company.id, machineId, from: T, now: clock });
    await worker.run();
    expect(await states()).toEqual([[T, null, 'ACTIVE']]);

    // 08:45: still under the limit (20 minutes after 08:30): nothing to review.
    clock = T + 45 * MIN;
    await worker.run();
    expect(await states()).toEqual([[T, null, 'ACTIVE']]);

    // 09:00: past it. The first run marks the bench and recomputes it: idle since the last part.
    clock = T + 60 * MIN;
    await worker.run();
    expect(await states()).toEqual([
      [T, T + 30 * MIN, 'ACTIVE'],
      [T + 30 * MIN, null, 'INACTIVE'],
    ]);
    // And it is not marked again.
    await worker.run();
    expect(await t.db.selectFrom('rollup_dirty').selectAll().execute()).toEqual([]);
    expect(log).toEqual([]);
  });
});
