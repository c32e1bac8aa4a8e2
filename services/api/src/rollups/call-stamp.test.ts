import { describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { indexedRollups, oneCallScope } from '@takt/db/rollups';
import { apiPerTest, aReportTenant, machinesWithFacts } from '../testing/report-plant';

// Decision 1240: a report call begins with its scope (oneCallScope, the week rows stamp read at once beside its
// machines and calendar); its reads given that scope again are the same call and keep its stamp, while a new call
// sees a write made since.

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Monday 2025-10-06 00:00 CDT. */
const T0 = Date.UTC(2025, 9, 6, 5);
const NOW = T0 + 3 * DAY;

describe.each(DIALECTS)("a report call's scope on %s", (dialect) => {
  const api = apiPerTest(dialect, NOW);

  it('keeps the stamp its call began with; a new call reads the stamp again', async () => {
    const tenant = await aReportTenant(api.h, [['Day', 360, 840]]);
    const [machine] = await machinesWithFacts(api.h, tenant, ['Lathe'], {
      t0: T0,
      now: NOW,
      cuts: 4,
      cycles: 10,
      corrections: 1,
      seed: 1240,
    });
    const input = () => ({ machineIds: [machine!], start: T0 + DAY + 10 * HOUR, end: T0 + 2 * DAY });
    const call = oneCallScope(tenant.scope, { readStamp: true });
    expect(oneCallScope(call)).toBe(call);
    const first = await indexedRollups(call, input());
    expect(first.length).toBeGreaterThan(0);
    // Another process's recompute: the week rows get a later computed_at (the stamp moves).
    await tenant.scope
      .updateTable('rollup_weeks')
      .set({ computed_at: NOW + 60_000 })
      .where('machine_id', '=', machine!)
      .execute();
    // The same call (its reads handed its scope): the rows kept at its stamp.
    expect(await indexedRollups(oneCallScope(call), input())).toBe(first);
    // A new call: the moved stamp, the rows read again (the same rows: only computed_at moved).
    const next = await indexedRollups(oneCallScope(tenant.scope, { readStamp: true }), input());
    expect(next).not.toBe(first);
    expect(next).toEqual(first);
  });
});
