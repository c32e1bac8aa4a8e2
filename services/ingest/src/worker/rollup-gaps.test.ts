// Decision 1016: a machine's stored rollups never have a gap. A machine silent overnight is marked again from
// its next data only; the rollup worker recomputes from where its rows stop, so a report over both days reads
// every hour of them (issue 27 point 3: the figures of [a, c) are those of [a, b) and [b, c) added).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { loadRollups, markRollupsDirty, recomputeRollups, takeDirty } from '@takt/db/rollups';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { RollupWorker } from './rollup';

const HOUR = 3_600_000;
/** UTC company: 2025-11-03 is day D. */
const D = Date.UTC(2025, 10, 3);

describe.each(DIALECTS)('rollup worker on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('recomputes from where the rows stop: no gap between a day computed mid-day and the next mark', async () => {
    const company = await aCompany(t.db, { timezone: 'UTC' });
    const machineId = await aMachine(t.db, company);
    // In cycle from 08:00 on day D, the interval still open (nothing changed since).
    await companyScope(t.db, company.id)
      .insertInto('state_intervals', [
        { machine_id: machineId, start_at: D + 8 * HOUR, end_at: null, state: 'ACTIVE' },
      ])
      .execute();
    let clock = D + 18 * HOUR;
    const worker = new RollupWorker(
      t.db,
      () => clock,
      () => undefined,
    );
    const mark = (from: number) =>
      markRollupsDirty(t.db, { companyId: company.id, machineId, from, now: clock });

    await mark(D + 8 * HOUR);
    await worker.run(); // rows of day D up to 18:00
    // The next morning the machine sends data again: marked from 06:00 on D + 1 only.
    clock = D + 30 * HOUR + 10 * 60_000;
    await mark(D + 30 * HOUR);
    await worker.run();

    const rows = await loadRollups(companyScope(t.db, company.id), {
      machineIds: [machineId],
      start: D,
      end: clock,
    });
    // Every hour from D 00:00 to now has its row, in cycle from 08:00 on.
    expect(rows[0]!.start).toBe(D);
    expect(rows.at(-1)!.end).toBe(clock);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.start).toBe(rows[i - 1]!.end);
    expect(rows.reduce((s, r) => s + r.stateMs.ACTIVE, 0)).toBe(clock - (D + 8 * HOUR));
  });

  it('fills a gap stored before: the first run of a worker marks where it begins', async () => {
    const company = await aCompany(t.db, { timezone: 'UTC' });
    const machineId = await aMachine(t.db, company);
    await companyScope(t.db, company.id)
      .insertInto('state_intervals', [
        { machine_id: machineId, start_at: D + 8 * HOUR, end_at: null, state: 'ACTIVE' },
      ])
      .execute();
    // As the worker used to leave them: day D up to 18:00, then D + 2 from its start (D + 1 never written).
    const now = D + 54 * HOUR;
    await recomputeRollups(t.db, {
      companyId: company.id,
      machineId,
      from: D,
      to: D + 18 * HOUR,
      now: D + 18 * HOUR,
    });
    await recomputeRollups(t.db, { companyId: company.id, machineId, from: D + 48 * HOUR, to: now, now });
    const log: string[] = [];
    await new RollupWorker(
      t.db,
      () => now,
      (m) => log.push(m),
    ).run();

    const rows = await loadRollups(companyScope(t.db, company.id), {
      machineIds: [machineId],
      start: D,
      end: now,
    });
    expect(rows.at(-1)!.end).toBe(now);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.start).toBe(rows[i - 1]!.end);
    expect(rows.reduce((s, r) => s + r.stateMs.ACTIVE, 0)).toBe(now - (D + 8 * HOUR));
    expect(log).toEqual(['[ingest] rollup gaps of 1 machine(s) marked for recompute']);
    expect(await takeDirty(t.db, 10)).toEqual([]);
  });
});
