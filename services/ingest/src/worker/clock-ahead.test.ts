// Decision 1154: an adapter whose clock runs ahead of the worker's. Its lines are placed at their receipt (the link
// clock, decision 0112), but lines read within one millisecond each keep a millisecond of their own, in their order:
// stored at one time, their order was the storage's (the durability test once found two lines stored at one instant
// on PostgreSQL), and a re-derivation from storage could take them in another order than the live derivation did.
import { describe, expect, it } from 'vitest';
import { CONNECTION_KEY } from '@takt/db';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { LOOPBACK_SOURCES, waitFor } from '../testing/test-support';
import { overlappingIntervalsOfAll } from '../testing/intervals';
import { aShdrMachine, anAdapterPerTest } from '../testing/shdr-machine';
import { startIngest } from './ingest';
import { MachinePipeline } from './pipeline';
import { feedStored } from './rebuild';
import { loadFieldMaps } from './store';

const iso = (ms: number) => new Date(ms).toISOString();

describe.each(DIALECTS)('an adapter clock ahead of the worker’s (%s)', (dialect) => {
  let t: TestDb;
  // The worker's clock is the test's: every line below is received at t0, stamped up to 4 ms after it.
  const t0 = 1_790_000_000_000;
  let clock = t0 - 1000;
  const link = anAdapterPerTest(
    async () => {
      t = await freshDb(dialect);
      clock = t0 - 1000;
    },
    async () => {
      expect(await overlappingIntervalsOfAll(t.db)).toEqual([]);
      await t.cleanup();
    },
  );

  it('stores lines read in one millisecond a millisecond apart, in their order, as a rebuild derives them', async () => {
    const { company, machineId } = await aShdrMachine(t.db, link.adapter.port);
    link.ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      flushIntervalMs: 20,
      rollupIntervalMs: 0,
      now: () => clock,
    });
    await waitFor(() => link.socket, 5000, 'the ingest link');
    clock = t0;
    // The first line in the worker's millisecond, then four stamped 1-4 ms ahead, all read at t0.
    const executions = ['READY', 'ACTIVE', 'READY', 'ACTIVE', 'READY'];
    link.socket!.write(
      executions
        .map((e, i) => `${iso(t0 + i)}|seq|${i}|execution|${e}${i === 0 ? '|avail|AVAILABLE' : ''}\n`)
        .join(''),
    );
    const observations = () =>
      t.db
        .selectFrom('observations')
        .select(['ts', 'key', 'value'])
        .where('machine_id', '=', machineId)
        .orderBy('ts')
        .orderBy('key')
        .execute();
    for (let tries = 0; ; tries++) {
      await link.ingest.flush();
      if ((await observations()).filter((r) => r.key === 'seq').length === executions.length) break;
      if (tries > 200) throw new Error('the lines were never stored');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const rows = (await observations()).filter((r) => r.key !== CONNECTION_KEY);

    // One millisecond a line, in the adapter's order, each line whole.
    const seqs = rows.filter((r) => r.key === 'seq');
    expect(seqs.map((r) => [Number(r.ts), r.value])).toEqual(executions.map((_, i) => [t0 + i, String(i)]));
    for (const s of seqs) {
      const line = rows.filter((r) => r.ts === s.ts && r.key === 'execution');
      expect(line.map((r) => r.value)).toEqual([executions[Number(s.value)]]);
    }

    // What the worker derived is what a re-derivation of the stored observations derives (its run's records).
    const fields = (await loadFieldMaps(t.db, [machineId])).get(machineId)!;
    const rebuilt = new MachinePipeline(company.id, machineId, fields, 'part_count', 'shdr', t0 - 1000);
    feedStored(rebuilt, await observations());
    const expected = rebuilt.take(t0 + 4)!.result.intervals.map((r) => ({
      start_at: r.start,
      end_at: r.open ? null : r.end,
      state: r.state,
    }));
    const stored = await t.db
      .selectFrom('state_intervals')
      .select(['start_at', 'end_at', 'state'])
      .where('machine_id', '=', machineId)
      .orderBy('start_at')
      .execute();
    expect(stored).toEqual(expected);
    expect(stored.map((r) => [r.start_at, r.state])).toEqual([
      [t0, 'INACTIVE'],
      [t0 + 1, 'ACTIVE'],
      [t0 + 2, 'INACTIVE'],
      [t0 + 3, 'ACTIVE'],
      [t0 + 4, 'INACTIVE'],
    ]);
  }, 60_000);
});
