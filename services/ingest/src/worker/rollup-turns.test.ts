// Decision 1224: the rollup worker gives the event loop a turn between two marks. On SQLite every statement runs
// synchronously and Kysely's awaits are microtasks, so a run of many marks used to hold the loop to its end: an
// HTTP call or an ingest batch arriving meanwhile waited for the whole run. Decision 1261: a mark waits while the
// node's report computations are under way, ROLLUP_YIELD_MAX_MS at the most.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markRollupsDirtyMany } from '@takt/db/rollups';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { ROLLUP_YIELD_MAX_MS, RollupWorker } from './rollup';

/** UTC company: 2025-11-03 08:00. */
const T = Date.UTC(2025, 10, 3, 8);

describe.each(DIALECTS)('the rollup worker on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('lets the event loop turn between two marks of one run, and still does them all', async () => {
    const company = await aCompany(t.db, { timezone: 'UTC' });
    const machines: string[] = [];
    for (let i = 0; i < 3; i++) machines.push(await aMachine(t.db, company, { name: `M${i}` }));
    await markRollupsDirtyMany(
      t.db,
      machines.map((machineId) => ({ companyId: company.id, machineId, from: T - 3_600_000, now: T })),
    );
    const worker = new RollupWorker(
      t.db,
      () => T + 60_000,
      () => {},
    );
    let ended = false;
    const run = worker.run().then(() => {
      ended = true;
    });
    // A callback queued once the run began (as an HTTP call arriving would be) runs before the run ends.
    const endedAtTurn = await new Promise<boolean>((resolve) => setImmediate(() => resolve(ended)));
    await run;
    expect(endedAtTurn).toBe(false);
    const left = await t.db.selectFrom('rollup_dirty').select('machine_id').execute();
    expect(left).toEqual([]);
  });

  it("waits before a mark while the node's reports are under way, and goes on after the longest wait", async () => {
    const company = await aCompany(t.db, { timezone: 'UTC' });
    const machineId = await aMachine(t.db, company, { name: 'M0' });
    await markRollupsDirtyMany(t.db, [{ companyId: company.id, machineId, from: T - 3_600_000, now: T }]);
    const left = async () => (await t.db.selectFrom('rollup_dirty').select('machine_id').execute()).length;
    // Reports under way for good: the mark waits, then goes on.
    let asked = 0;
    const worker = new RollupWorker(
      t.db,
      () => T + 60_000,
      () => {},
      false,
      undefined,
      undefined,
      () => {
        asked++;
        return true;
      },
    );
    const run = worker.run();
    await new Promise((resolve) => setTimeout(resolve, ROLLUP_YIELD_MAX_MS / 2));
    expect(await left()).toBe(1);
    expect(asked).toBeGreaterThan(1);
    await run;
    expect(await left()).toBe(0);
  });
});
