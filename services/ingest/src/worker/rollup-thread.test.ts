// Decision 1174: on PostgreSQL the ingest node's rollup worker runs in a worker thread with its own connection; its
// rows land as the node's own worker computes them. SQLite keeps the worker in the node's thread (one writer).
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { loadRollups, markRollupsDirty } from '@takt/db/rollups';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import type { Rollups } from './rollup-off-thread';
import { RollupThread, startRollups } from './rollup-off-thread';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(DIALECTS)('rollups off the ingest thread on %s', (dialect) => {
  const dbs: TestDb[] = [];
  afterEach(async () => {
    await Promise.all(dbs.splice(0).map((t) => t.cleanup()));
  });

  /** A database whose machine ran a whole day three days ago; its rollup rows of that day, as `rollups` made them. */
  async function dayRecomputedBy(start: (t: TestDb, log: (m: string) => void) => Rollups) {
    const t = await freshDb(dialect);
    dbs.push(t);
    const company = await aCompany(t.db, { timezone: 'UTC' });
    const machineId = await aMachine(t.db, company);
    const d = Math.floor(Date.now() / DAY) * DAY - 3 * DAY;
    // In cycle from 08:00, idle 12:00-13:30, in cycle again (still open).
    await companyScope(t.db, company.id)
      .insertInto('state_intervals', [
        { machine_id: machineId, start_at: d + 8 * HOUR, end_at: d + 12 * HOUR, state: 'ACTIVE' },
        { machine_id: machineId, start_at: d + 12 * HOUR, end_at: d + 13.5 * HOUR, state: 'INACTIVE' },
        { machine_id: machineId, start_at: d + 13.5 * HOUR, end_at: null, state: 'ACTIVE' },
      ])
      .execute();
    await markRollupsDirty(t.db, { companyId: company.id, machineId, from: d + 8 * HOUR, now: Date.now() });
    const logs: string[] = [];
    const rollups = start(t, (m) => void logs.push(m));
    try {
      await rollups.run();
    } finally {
      await rollups.stop();
    }
    const rows = await loadRollups(companyScope(t.db, company.id), {
      machineIds: [machineId],
      start: d,
      end: d + DAY,
    });
    return { rollups, logs, rows: rows.map(({ machineId: _, ...r }) => r) };
  }

  it('runs in a thread of its own on PostgreSQL, and its rows equal those recomputed in the node', async () => {
    const postgres = dialect === 'postgres';
    const inNode = await dayRecomputedBy((t, log) =>
      startRollups({ db: t.db, now: Date.now, log, postgres }),
    );
    const withUrl = await dayRecomputedBy((t, log) =>
      startRollups({ db: t.db, now: Date.now, log, postgres, url: t.url }),
    );

    // SQLite: one writer, so the worker stays in the node's thread.
    expect(withUrl.rollups instanceof RollupThread).toBe(postgres);
    if (withUrl.rollups instanceof RollupThread) expect(withUrl.rollups.threadId).not.toBe(threadId);
    expect(inNode.rows.reduce((s, r) => s + r.stateMs.ACTIVE, 0)).toBe(14.5 * HOUR);
    expect(inNode.rows.reduce((s, r) => s + r.stateMs.INACTIVE, 0)).toBe(1.5 * HOUR);
    expect(withUrl.rows).toEqual(inNode.rows);
    expect([...inNode.logs, ...withUrl.logs]).toEqual([]);
  });
});
