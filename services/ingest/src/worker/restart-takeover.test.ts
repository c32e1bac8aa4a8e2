// Decision 1209: a restarted worker whose machine had a job run's setup in the stored day re-derives at its first data
// (decision 1065). That re-derivation's first write takes the previous run's records over (closes its open state at the
// new run's first data) instead of deleting them, so the history goes on into the live run with no gap (METRICS.md §1:
// every instant of a machine's life is in exactly one state); and the setup events it read are known, so the worker's
// next tick (the same setup sync, `syncSetup`) re-derives nothing.
import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { CONNECTION_KEY } from '@takt/db';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { overlappingIntervals } from '../testing/intervals';
import { aShdrMachine, anAdapterPerTest } from '../testing/shdr-machine';
import { aHistory, aHistoryWithSetup } from '../testing/stored-history';
import { LOOPBACK_SOURCES, waitFor } from '../testing/test-support';
import { startIngest } from './ingest';

const intervalsOf = async (db: Kysely<Database>, machineId: string) =>
  (
    await db
      .selectFrom('state_intervals')
      .select(['state', 'start_at', 'end_at'])
      .where('machine_id', '=', machineId)
      .orderBy('start_at')
      .execute()
  ).map((r) => ({
    state: r.state,
    start: Number(r.start_at),
    end: r.end_at == null ? null : Number(r.end_at),
  }));

/** A live worker whose batches are the test's flushes only, and its tick (a minute away) when the test asks for it. */
const aLiveWorker = (db: Kysely<Database>, log: (m: string) => void) =>
  startIngest({
    sourcePolicy: LOOPBACK_SOURCES,
    db,
    flushIntervalMs: 60_000,
    rollupIntervalMs: 0,
    tickIntervalMs: 60_000,
    sourcesIntervalMs: 0,
    log,
  });

/** Where one stored interval does not end where the next starts (a gap, or an overlap), as text. */
function seams(rows: Awaited<ReturnType<typeof intervalsOf>>): string[] {
  const out: string[] = [];
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1]!, rows[i]!];
    if (a.end !== b.start)
      out.push(
        `${a.state} ends ${a.end == null ? 'open' : new Date(a.end).toISOString()}, ` +
          `${b.state} starts ${new Date(b.start).toISOString()}`,
      );
  }
  return out;
}

describe.each(DIALECTS)('a restarted worker after a history with a job run in setup (%s)', (dialect) => {
  let t: TestDb;
  const link = anAdapterPerTest(
    async () => {
      t = await freshDb(dialect);
    },
    () => t.cleanup(),
  );

  // The connect written with the adapter's first values (the timer's batch), or alone before them (a batch started by
  // the connect's line, decision 1204).
  it.each(['with the first values', 'alone before the first values'])(
    'goes on from the history into the live run with no gap, and its next tick re-derives nothing (connect stored %s)',
    async (mode) => {
      const { company, machineId } = await aShdrMachine(t.db, link.adapter.port);
      const now = Date.now();
      // A job run in setup within the history's day: the live worker gets its setup events at its start, before any
      // data, and re-derives from storage at its first data (decision 1065).
      await aHistoryWithSetup(t.db, company.id, machineId, now);
      const history = await intervalsOf(t.db, machineId);
      expect(history.at(-1)).toMatchObject({ state: 'ACTIVE', end: null });
      const logged: string[] = [];
      // Batches by the test's flush only, and the tick (a minute away) when the test asks for it (`syncSetup`, what
      // the tick does).
      link.ingest = await aLiveWorker(t.db, (m) => logged.push(m));
      const ingest = link.ingest;
      const socket = await waitFor(() => link.socket, 5000, 'the ingest link');
      const connectedAt = async () =>
        (
          await t.db
            .selectFrom('observations')
            .select('ts')
            .where('machine_id', '=', machineId)
            .where('key', '=', CONNECTION_KEY)
            .where('ts', '>=', now)
            .execute()
        ).map((r) => Number(r.ts))[0];
      // Alone: a batch stores the connect before the adapter sends anything.
      for (let tries = 0; mode !== 'with the first values' && (await connectedAt()) == null; tries++) {
        if (tries > 400) throw new Error('the connect was never stored');
        await ingest.flush();
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // The adapter's current values after its connect: a program stopped since the history's end.
      socket.write(
        `${new Date().toISOString()}|avail|AVAILABLE|execution|READY|mode|AUTOMATIC|program|O100\n`,
      );
      const heard = () => [...ingest.counters().values()].some((c) => c.lines > 0);
      await waitFor(() => (heard() ? true : undefined), 5000, 'the adapter line');
      const live = async () => {
        await ingest.flush();
        const at = await connectedAt();
        return at != null && (await intervalsOf(t.db, machineId)).some((r) => r.start >= at) ? at : undefined;
      };
      let connect: number | undefined;
      for (let tries = 0; (connect = await live()) == null; tries++) {
        if (tries > 200) throw new Error('no state interval starts at or after the live connect');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(logged.filter((m) => m.includes('re-derived history'))).toHaveLength(1);
      const after = await intervalsOf(t.db, machineId);
      // The history's intervals stand; its open ACTIVE is closed where the live run takes over (at or after the connect),
      // and the live run's INACTIVE (READY) starts there: no instant in no state, none in two.
      expect(after.slice(0, history.length - 1)).toEqual(history.slice(0, -1));
      const closed = after[history.length - 1]!;
      expect(closed).toMatchObject({ state: 'ACTIVE', start: history.at(-1)!.start });
      expect(closed.end).toBeGreaterThanOrEqual(connect);
      expect(after.at(-1)).toMatchObject({ state: 'INACTIVE', start: closed.end, end: null });
      expect(seams(after)).toEqual([]);
      expect(await overlappingIntervals(t.db, machineId)).toEqual([]);

      // The tick hands the day's setup events again: the rebuild read them, so no re-derivation of the day, and the live
      // run's INACTIVE stays its own (a day re-derived with one run through the connect merged it into the history's).
      await ingest.syncSetup();
      expect(logged.filter((m) => m.includes('re-derived history'))).toHaveLength(1);
      expect(await intervalsOf(t.db, machineId)).toEqual(after);
    },
  );

  // Decision 1209's risk (decision 1223): the previous run's node's clock ahead of this one's, so its last rows are
  // stamped after the new run's start. Rows stored from the start on are fed to the new run and its derivation replaces
  // them from the takeover on: what was stored before the start stands, and no instant is in two states or in none.
  it('takes over a previous run whose last rows are stamped after its start (clock skew)', async () => {
    const { machineId } = await aShdrMachine(t.db, link.adapter.port);
    const now = Date.now();
    // The history's last line (ACTIVE, ten minutes before its end) is stamped two minutes after now.
    await aHistory(t.db, machineId, now - 3 * 3_600_000, now + 12 * 60_000, []);
    const history = await intervalsOf(t.db, machineId);
    expect(history.at(-1)!.start).toBeGreaterThan(now);
    link.ingest = await aLiveWorker(t.db, () => {});
    const ingest = link.ingest;
    const socket = await waitFor(() => link.socket, 5000, 'the ingest link');
    socket.write(`${new Date().toISOString()}|avail|AVAILABLE|execution|READY|mode|AUTOMATIC|program|O100\n`);
    const heard = () => [...ingest.counters().values()].some((c) => c.lines > 0);
    await waitFor(() => (heard() ? true : undefined), 5000, 'the adapter line');
    await ingest.flush();
    const after = await intervalsOf(t.db, machineId);
    // What was stored before the new run's start stands.
    const before = history.filter((r) => r.end != null && r.end <= now);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(seams(after)).toEqual([]);
    expect(await overlappingIntervals(t.db, machineId)).toEqual([]);
    expect(after.at(-1)).toMatchObject({ end: null });
  });
});
