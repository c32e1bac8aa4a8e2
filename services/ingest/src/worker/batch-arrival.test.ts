// Decision 1163: a line starts its own batch (once the running one ended, at least `arrivalGapMs` after the last one
// began) instead of waiting for the flush timer. Here the timer is a minute away and nothing calls flush(): the lines
// are stored all the same, each once, in their order.
import { describe, expect, it } from 'vitest';
import { CONNECTION_KEY } from '@takt/db';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { LOOPBACK_SOURCES, waitFor } from '../testing/test-support';
import { aShdrMachine, anAdapterPerTest } from '../testing/shdr-machine';
import { startIngest } from './ingest';

describe.each(DIALECTS)('lines start their batch (%s)', (dialect) => {
  let t: TestDb;
  const link = anAdapterPerTest(
    async () => {
      t = await freshDb(dialect);
    },
    () => t.cleanup(),
  );

  it('stores lines without the flush timer, each once and in order', async () => {
    const { machineId } = await aShdrMachine(t.db, link.adapter.port);
    link.ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      flushIntervalMs: 60_000,
      arrivalGapMs: 10,
      rollupIntervalMs: 0,
      tickIntervalMs: 60_000,
    });
    await waitFor(() => link.socket, 5000, 'the ingest link');
    const stored = () =>
      t.db
        .selectFrom('observations')
        .select(['ts', 'key', 'value'])
        .where('machine_id', '=', machineId)
        .where('key', '!=', CONNECTION_KEY)
        .orderBy('ts')
        .execute();
    const base = Date.now();
    // Lines one after another, some while a batch runs: each is written by a batch it started or joined.
    for (let i = 0; i < 12; i++) {
      link.socket!.write(`${new Date(base + i).toISOString()}|seq|${i}\n`);
      await new Promise((resolve) => setTimeout(resolve, 7));
    }
    for (let tries = 0; (await stored()).length < 12; tries++) {
      if (tries > 400) throw new Error('the lines were never stored without a flush');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const rows = await stored();
    expect(rows.map((r) => r.value)).toEqual([...Array(12).keys()].map(String));
  });
});
