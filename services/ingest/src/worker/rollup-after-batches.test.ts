// Decision 1238: the rollup worker begins each mark only after the ingest's batches running or asked for, so a
// recompute never runs between a batch's ask and its commit (on PostgreSQL it shared the cores, the pool and the
// event loop with the batch). Here the batch's statements are slowed (300 ms an answer, through a plugin that sees
// only the batch's async context) while the run's marks are not: run beside the batch, all three marks would be
// recomputed before it commits. A SQLite handle is one connection, which the batch's transaction holds, so there the
// order held before as well.
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { CONNECTION_KEY } from '@takt/db';
import { markRollupsDirtyMany, watchRecomputes } from '@takt/db/rollups';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { LOOPBACK_SOURCES, sleep, waitFor } from '../testing/test-support';
import { aShdrMachine, anAdapterPerTest } from '../testing/shdr-machine';
import { startIngest } from './ingest';

const slow = new AsyncLocalStorage<boolean>();
/** Every answer to a statement run from inside `slow.run(true, …)` arrives 300 ms late. */
const slowBatch: KyselyPlugin = {
  transformQuery: (args) => args.node,
  transformResult: async (args) => {
    if (slow.getStore()) await sleep(300);
    return args.result;
  },
};

describe.each(DIALECTS)('rollup marks after the batches (%s)', (dialect) => {
  let t: TestDb;
  let unwatch: (() => void) | undefined;
  const link = anAdapterPerTest(
    async () => {
      t = await freshDb(dialect);
    },
    () => t.cleanup(),
  );
  afterEach(() => unwatch?.());

  it('commits a batch asked while a rollup run is going before the run recomputes its next mark', async () => {
    const { machineId } = await aShdrMachine(t.db, link.adapter.port);
    const other = await aCompany(t.db, { timezone: 'UTC' });
    const marked: string[] = [];
    for (let i = 0; i < 3; i++) marked.push(await aMachine(t.db, other, { name: `R${i}` }));
    const events: string[] = [];
    link.ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db.withPlugin(slowBatch),
      flushIntervalMs: 60_000,
      rollupIntervalMs: 0,
      tickIntervalMs: 60_000,
      onStored: () => events.push('stored'),
    });
    await waitFor(() => link.socket, 5000, 'the ingest link');
    // The machine's first batch (its ids made) before the run, at full speed.
    link.socket!.write(`${new Date().toISOString()}|seq|0\n`);
    await sleep(100);
    await link.ingest.flush();
    const now = Date.now();
    await markRollupsDirtyMany(
      t.db,
      marked.map((m) => ({ companyId: other.id, machineId: m, from: now - 3_600_000, now })),
    );
    link.socket!.write(`${new Date().toISOString()}|seq|1\n`);
    await sleep(100);
    events.length = 0;
    unwatch = watchRecomputes((companyId) => {
      if (companyId === other.id) events.push('recompute');
    });

    // The run begins, and a batch is asked while it goes.
    const run = link.ingest.rollUp();
    await slow.run(true, () => link.ingest!.flush());
    await run;

    expect(events).toContain('stored');
    expect(events.filter((e) => e === 'recompute')).toHaveLength(3);
    // At most the mark already going when the batch was asked may end before the batch commits.
    expect(events.indexOf('stored')).toBeLessThanOrEqual(1);
    const stored = await t.db
      .selectFrom('observations')
      .select('value')
      .where('machine_id', '=', machineId)
      .where('key', '!=', CONNECTION_KEY)
      .orderBy('ts')
      .execute();
    expect(stored.map((r) => r.value)).toEqual(['0', '1']);
    expect(
      await t.db.selectFrom('rollup_dirty').select('machine_id').where('company_id', '=', other.id).execute(),
    ).toEqual([]);
  });
});
