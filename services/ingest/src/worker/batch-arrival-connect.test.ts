// Decision 1204: with batches started by lines (decision 1199), a machine's connect can be stored by a batch of its
// own before the adapter's first values arrive. When a job run's setup in the stored history makes the new run
// re-derive from storage at its first data (decision 1065), that re-derivation must start the run at its connect as it
// does when the connect is still buffered (the timer's batch holds both): the live states go on past the history
// (tests/e2e/demo-live.test.ts, where the first machine to connect lost its live states).
import { describe, expect, it } from 'vitest';
import { CONNECTION_KEY } from '@takt/db';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { overlappingIntervals } from '../testing/intervals';
import { aShdrMachine, anAdapterPerTest } from '../testing/shdr-machine';
import { aHistoryWithSetup } from '../testing/stored-history';
import { LOOPBACK_SOURCES, waitFor } from '../testing/test-support';
import { startIngest } from './ingest';

describe.each(DIALECTS)('a connect stored alone before the first data (%s)', (dialect) => {
  let t: TestDb;
  const link = anAdapterPerTest(
    async () => {
      t = await freshDb(dialect);
    },
    () => t.cleanup(),
  );

  it('starts the live run at its connect, after a history with a job run in setup', async () => {
    const { company, machineId } = await aShdrMachine(t.db, link.adapter.port);
    const now = Date.now();
    // A job run in setup within the history's day: the live worker gets its setup events before any data, and
    // re-derives from storage at its first data (decision 1065).
    await aHistoryWithSetup(t.db, company.id, machineId, now);
    const connects = () =>
      t.db
        .selectFrom('observations')
        .select('ts')
        .where('machine_id', '=', machineId)
        .where('key', '=', CONNECTION_KEY)
        .where('ts', '>=', now)
        .execute();
    link.ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      flushIntervalMs: 60_000,
      arrivalGapMs: 10,
      rollupIntervalMs: 0,
      tickIntervalMs: 60_000,
      sourcesIntervalMs: 0,
    });
    const socket = await waitFor(() => link.socket, 5000, 'the ingest link');
    // The connect starts a batch of its own: it is stored before the adapter sends anything.
    for (let tries = 0; (await connects()).length === 0; tries++) {
      if (tries > 400) throw new Error('the connect was never stored');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const connectedAt = Number((await connects())[0]!.ts);
    // The adapter's current values, as it sends them after a connect: still running, as at the history's end.
    socket.write(
      `${new Date().toISOString()}|avail|AVAILABLE|execution|ACTIVE|mode|AUTOMATIC|program|O100\n`,
    );
    const live = () =>
      t.db
        .selectFrom('state_intervals')
        .select(['state', 'start_at'])
        .where('machine_id', '=', machineId)
        .where('start_at', '>=', connectedAt)
        .execute();
    for (let tries = 0; (await live()).length === 0; tries++) {
      // Without the fix the re-derivation carried the history's ACTIVE on from before the connect: no state starts
      // at or after it.
      if (tries > 200) throw new Error('no state interval starts at or after the live connect');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect((await live()).map((r) => r.state)).toContain('ACTIVE');
    expect(await overlappingIntervals(t.db, machineId)).toEqual([]);
  });
});
