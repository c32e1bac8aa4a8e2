import { describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { indexedRollups, noteRecompute, oneCallScope } from '@takt/db/rollups';
import type { CompanyScope } from '@takt/db';
import { noteVersionRead, reportCallScope } from '../repositories/config-cache';
import type { ReportInstant } from '../repositories/config-cache';
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
  /** A tenant with one machine's facts (`seed`), and a read of its rollups over a mid-day range. */
  const aLathe = async (seed: number) => {
    const tenant = await aReportTenant(api.h, [['Day', 360, 840]]);
    const [machine] = await machinesWithFacts(api.h, tenant, ['Lathe'], {
      t0: T0,
      now: NOW,
      cuts: 4,
      cycles: 10,
      corrections: 1,
      seed,
    });
    const input = () => ({ machineIds: [machine!], start: T0 + DAY + 10 * HOUR, end: T0 + 2 * DAY });
    /** As another process's recompute writes them: the machine's week rows computed later (the stamp moves). */
    const stampMoved = () =>
      tenant.scope
        .updateTable('rollup_weeks')
        .set({ computed_at: NOW + 60_000 })
        .where('machine_id', '=', machine!)
        .execute();
    return { tenant, input, stampMoved };
  };

  it('keeps the stamp its call began with; a new call reads the stamp again', async () => {
    const { tenant, input, stampMoved } = await aLathe(1240);
    const call = oneCallScope(tenant.scope, { readStamp: true });
    expect(oneCallScope(call)).toBe(call);
    const first = await indexedRollups(call, input());
    expect(first.length).toBeGreaterThan(0);
    // Another process's recompute: the week rows get a later computed_at (the stamp moves).
    await stampMoved();
    // The same call (its reads handed its scope): the rows kept at its stamp.
    expect(await indexedRollups(oneCallScope(call), input())).toBe(first);
    // A new call: the moved stamp, the rows read again (the same rows: only computed_at moved).
    const next = await indexedRollups(oneCallScope(tenant.scope, { readStamp: true }), input());
    expect(next).not.toBe(first);
    expect(next).toEqual(first);
  });

  it('shares the stamp of a report instant among its calls; another instant or a recompute here reads it again', async () => {
    const { tenant, input, stampMoved } = await aLathe(1258);
    /** A report call computed at `instant` (its version read noted as sharedAnswer notes it). */
    const callAt = (instant: ReportInstant) => {
      const scope: CompanyScope = { ...tenant.scope };
      noteVersionRead(scope, { config: '1', end: NOW, marks: 0 }, instant);
      return reportCallScope(scope, { readStamp: true });
    };
    const instant: ReportInstant = { now: NOW, values: new Map() };
    const first = await indexedRollups(callAt(instant), input());
    // Another process's recompute: the stamp moves.
    await stampMoved();
    // Another call at the same instant: its stamp, the rows kept at it.
    expect(await indexedRollups(callAt(instant), input())).toBe(first);
    // A call at another instant reads the stamp again.
    const next = await indexedRollups(callAt({ now: NOW + 1, values: new Map() }), input());
    expect(next).not.toBe(first);
    expect(next).toEqual(first);
    // A recompute of this process since: the same instant reads it again too.
    const before = await indexedRollups(callAt(instant), input());
    expect(before).toBe(first);
    noteRecompute(tenant.company.id, NOW + 60_000);
    expect(await indexedRollups(callAt(instant), input())).not.toBe(first);
  });
});
