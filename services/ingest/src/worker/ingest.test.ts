import type net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONNECTION_KEY, companyScope } from '@takt/db';
import { loadRollups } from '@takt/db/rollups';
import { createAdapter } from '../../../api/src/repositories/adapters';
import { createShdrSource } from '../../../api/src/repositories/machine-sources';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { demoAdapterFields } from '../demo/demo-adapter';
import { startIngest } from './ingest';
import type { IngestService } from './ingest';
import { LIVE_HEARTBEAT_MS } from './live-row';
import type { FakeAdapter } from '../testing/test-support';
import { LOOPBACK_SOURCES, fakeAdapter, waitFor } from '../testing/test-support';
import { overlappingIntervalsOfAll } from '../testing/intervals';

const iso = (ms: number) => new Date(ms).toISOString();

describe.each(DIALECTS)('ingest into %s', (dialect) => {
  let t: TestDb;
  let adapter: FakeAdapter;
  let ingest: IngestService | undefined;
  let socket: net.Socket | undefined;
  let machineId: string;
  let companyId: string;
  // The ingest clock is ours, so machine timestamps and receive times are exact.
  const t0 = 1_790_000_000_000;
  let clock = t0;
  const now = () => clock;

  beforeEach(async () => {
    t = await freshDb(dialect);
    clock = t0 - 1000;
    adapter = await fakeAdapter((s) => {
      socket = s;
    });
    const company = await aCompany(t.db);
    companyId = company.id;
    const scope = companyScope(t.db, company.id);
    const adapterId = await createAdapter(scope, { name: 'demo', fields: demoAdapterFields() }, 0);
    machineId = await aMachine(t.db, company, { name: 'Mill' });
    await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', machineId).execute();
    await createShdrSource(scope, { machineId, host: '127.0.0.1', port: adapter.port }, 0);
  });

  afterEach(async () => {
    await ingest?.stop();
    ingest = undefined;
    socket = undefined;
    await adapter.close();
    // Whatever the test did, a machine is in one state at a time in what the worker stored.
    expect(await overlappingIntervalsOfAll(t.db)).toEqual([]);
    await t.cleanup();
  });

  const live = () =>
    t.db.selectFrom('machine_live').selectAll().where('machine_id', '=', machineId).executeTakeFirst();
  const send = (line: string) => {
    // Lines arrive just after their machine time.
    const ts = Date.parse(line.split('|')[0]!);
    if (Number.isFinite(ts)) clock = Math.max(clock, ts + 5);
    socket!.write(`${line}\n`);
  };

  it('stores observations and derives ACTIVE, FAULT, INACTIVE and UNAVAILABLE with their times', async () => {
    ingest = await startIngest({ sourcePolicy: LOOPBACK_SOURCES, db: t.db, flushIntervalMs: 20, now });
    await waitFor(() => socket, 5000, 'the ingest link');
    send(`${iso(t0)}|avail|AVAILABLE|execution|READY|program|O100|part_count|7|Sspeed|0`);
    send(`${iso(t0 + 1000)}|execution|ACTIVE|Sspeed|1200`);
    await ingest.flush();
    await expect.poll(async () => (await live())?.state, { timeout: 5000 }).toBe('ACTIVE');
    expect(await live()).toMatchObject({
      company_id: companyId,
      state_since: t0 + 1000,
      connection: 'CONNECTED',
      program: 'O100',
      part_count: 7,
      spindle_speed: 1200,
      execution: 'ACTIVE',
    });

    send(`${iso(t0 + 5000)}|execution|STOPPED`);
    send(`${iso(t0 + 5000)}|system|FAULT|E101|2|HIGH|Spindle overload`);
    await expect.poll(async () => (await live())?.state, { timeout: 5000 }).toBe('FAULT');
    expect(await live()).toMatchObject({ fault_since: t0 + 5000, fault_message: 'Spindle overload' });

    send(`${iso(t0 + 9000)}|system|NORMAL||||`);
    await expect.poll(async () => (await live())?.state, { timeout: 5000 }).toBe('INACTIVE');
    expect((await live())?.fault_since).toBeNull();

    clock = t0 + 12_000;
    socket!.destroy(); // the adapter goes away
    await expect.poll(async () => (await live())?.state, { timeout: 5000 }).toBe('UNAVAILABLE');
    clock = t0 + 15_000;
    await ingest.flush();

    const intervals = await t.db
      .selectFrom('state_intervals')
      .select(['state', 'start_at', 'end_at', 'company_id'])
      .where('machine_id', '=', machineId)
      .orderBy('start_at')
      .execute();
    // Intervals tile time from the first line (the run takes over at its first machine data, decision 1065):
    // each ends where the next starts, and only the last is open.
    expect(intervals.map((i) => i.state)).toEqual(['INACTIVE', 'ACTIVE', 'FAULT', 'INACTIVE', 'UNAVAILABLE']);
    for (let i = 0; i + 1 < intervals.length; i++)
      expect(intervals[i]!.end_at).toBe(intervals[i + 1]!.start_at);
    expect(intervals.at(-1)!.end_at).toBeNull();
    expect(intervals.every((i) => i.company_id === companyId)).toBe(true);
    expect(intervals[0]!.start_at).toBe(t0);
    expect(intervals[1]!.start_at).toBe(t0 + 1000);

    // The rollup worker turns what was stored into report buckets.
    await ingest.rollUp();
    const rollups = await loadRollups(companyScope(t.db, companyId), {
      machineIds: [machineId],
      start: t0 - 3_600_000,
      end: t0 + 3_600_000,
    });
    expect(rollups.length).toBeGreaterThan(0);
    expect(rollups.reduce((sum, r) => sum + r.stateMs.ACTIVE, 0)).toBe(4000);
    expect(rollups.reduce((sum, r) => sum + r.stateMs.FAULT, 0)).toBe(4000);
    expect(await t.db.selectFrom('rollup_dirty').selectAll().execute()).toEqual([]);

    const obs = await t.db
      .selectFrom('observations')
      .select(['key', 'value', 'ts'])
      .where('machine_id', '=', machineId)
      .orderBy('ts')
      .execute();
    expect(obs.filter((o) => o.key === 'execution').map((o) => o.value)).toEqual([
      'READY',
      'ACTIVE',
      'STOPPED',
    ]);
    expect(obs.find((o) => o.key === 'system' && o.ts === t0 + 5000)?.value).toBe(
      'FAULT|E101|2|HIGH|Spindle overload',
    );
  });

  it('keeps the good pairs of a bad line and counts what it rejected', async () => {
    ingest = await startIngest({ sourcePolicy: LOOPBACK_SOURCES, db: t.db, flushIntervalMs: 20, now });
    await waitFor(() => socket, 5000, 'the ingest link');
    send(`${iso(t0)}|execution|ACTIVE|part_count`); // a key without its value
    send('2017'); // a broken line, as in the NIST log
    send(`${iso(t0 + 5)}||x||y`); // two bad pairs on one line: one rejected line
    send(`${iso(t0 + 10)}|program|O7`);
    await expect.poll(async () => (await live())?.program, { timeout: 5000 }).toBe('O7');
    await ingest.flush();
    await expect
      .poll(
        async () =>
          t.db
            .selectFrom('machine_sources')
            .select(['stat_lines', 'stat_rejected'])
            .where('machine_id', '=', machineId)
            .executeTakeFirst(),
        {
          timeout: 5000,
        },
      )
      .toMatchObject({ stat_lines: 4 });
    const src = await t.db
      .selectFrom('machine_sources')
      .select(['stat_rejected', 'last_line_at'])
      .where('machine_id', '=', machineId)
      .executeTakeFirstOrThrow();
    // Rejected lines, not bad tokens (which are 4 here).
    expect(src.stat_rejected).toBe(3);
    expect([...ingest.counters().values()][0]).toMatchObject({ rejected: 4, rejectedLines: 3 });
    expect(src.last_line_at).not.toBeNull();
    expect((await live())?.state).toBe('ACTIVE');
  });

  it("reads a MESSAGE item's native code and text as the adapter's field mapping says", async () => {
    const adapterId = (
      await t.db
        .selectFrom('machines')
        .select('adapter_id')
        .where('id', '=', machineId)
        .executeTakeFirstOrThrow()
    ).adapter_id!;
    await companyScope(t.db, companyId)
      .insertInto('adapter_fields', {
        id: crypto.randomUUID(),
        adapter_id: adapterId,
        name: 'msg',
        data_item_type: 'MESSAGE',
        data_item_subtype: null,
        component_name: 'controller',
        component_type: 'Controller',
      })
      .execute();
    ingest = await startIngest({ sourcePolicy: LOOPBACK_SOURCES, db: t.db, flushIntervalMs: 20, now });
    await waitFor(() => socket, 5000, 'the ingest link');
    send(`${iso(t0)}|msg|M1|Door open|execution|ACTIVE`);
    await expect.poll(async () => (await live())?.state, { timeout: 5000 }).toBe('ACTIVE');
    await ingest.flush();
    const msg = await t.db
      .selectFrom('observations')
      .select(['ts', 'value'])
      .where('machine_id', '=', machineId)
      .where('key', '=', 'msg')
      .execute();
    expect(msg).toEqual([{ ts: t0, value: 'Door open' }]);
    await expect
      .poll(() =>
        t.db
          .selectFrom('machine_sources')
          .select(['stat_lines', 'stat_observations', 'stat_rejected'])
          .where('machine_id', '=', machineId)
          .executeTakeFirstOrThrow(),
      )
      .toEqual({ stat_lines: 1, stat_observations: 2, stat_rejected: 0 });
  });

  it('resumes the open state after a restart without a gap or a duplicate interval', async () => {
    ingest = await startIngest({ sourcePolicy: LOOPBACK_SOURCES, db: t.db, flushIntervalMs: 20, now });
    await waitFor(() => socket, 5000, 'the ingest link');
    send(`${iso(t0)}|avail|AVAILABLE|execution|ACTIVE`);
    await expect.poll(async () => (await live())?.state, { timeout: 5000 }).toBe('ACTIVE');
    await ingest.stop();
    socket = undefined;

    ingest = await startIngest({ sourcePolicy: LOOPBACK_SOURCES, db: t.db, flushIntervalMs: 20, now });
    await waitFor(() => socket, 5000, 'the second link');
    send(`${iso(t0 + 20_000)}|avail|AVAILABLE|execution|ACTIVE`);
    await expect.poll(async () => (await live())?.execution_since, { timeout: 5000 }).toBe(t0 + 20_000);
    await ingest.flush();
    const states = await t.db
      .selectFrom('state_intervals')
      .select(['state', 'end_at'])
      .where('machine_id', '=', machineId)
      .orderBy('start_at')
      .execute();
    // The time the worker was away (stopped: DISCONNECTED) reads as UNAVAILABLE up to the second run's first line
    // (its takeover, decision 1065); only the last interval is open.
    expect(states.map((s) => s.state)).toEqual(['ACTIVE', 'UNAVAILABLE', 'ACTIVE']);
    expect(Number(states[1]!.end_at)).toBe(t0 + 20_000);
    expect(states.filter((s) => s.end_at === null)).toHaveLength(1);
  });

  it('stores a committed batch once when a hook after its commit throws (no second write of its observations)', async () => {
    let calls = 0;
    const logs: string[] = [];
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      flushIntervalMs: 3_600_000,
      now,
      log: (m) => logs.push(m),
      onStored: () => {
        calls++;
        if (calls === 1) throw new Error('monitoring hook failed');
      },
    });
    await waitFor(() => socket, 5000, 'the ingest link');
    send(`${iso(t0)}|execution|ACTIVE|part_count|1`);
    await waitFor(() => [...ingest!.counters().values()][0]?.lines === 1, 5000, 'the line');
    await ingest.flush();
    await ingest.flush();
    send(`${iso(t0 + 1000)}|part_count|2`);
    await waitFor(() => [...ingest!.counters().values()][0]?.lines === 2, 5000, 'the second line');
    await ingest.flush();
    const rows = await t.db
      .selectFrom('observations')
      .select(['ts', 'key'])
      .where('machine_id', '=', machineId)
      .where('key', '<>', CONNECTION_KEY)
      .orderBy('ts')
      .orderBy('key')
      .execute();
    expect(rows.map((r) => [Number(r.ts) - t0, r.key])).toEqual([
      [0, 'execution'],
      [0, 'part_count'],
      [1000, 'part_count'],
    ]);
    expect(calls).toBe(2);
    expect(logs.some((m) => m.includes('monitoring hook failed'))).toBe(true);
  });

  // The monitoring hook (decision 0961): after each committed batch, how many observations it stored, the
  // earliest observation time among them and the store time, so the API exports ingest rate and lag.
  it('reports every stored observation once to onStored, with the oldest observation time of its batch', async () => {
    const calls: Array<{ count: number; oldestTs: number; at: number }> = [];
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      flushIntervalMs: 20,
      now,
      onStored: (count, oldestTs, at) => calls.push({ count, oldestTs, at }),
    });
    await waitFor(() => socket, 5000, 'the ingest link');
    send(`${iso(t0)}|execution|ACTIVE|part_count|1`);
    send(`${iso(t0 + 1000)}|part_count|2`);
    const stored = () =>
      t.db
        .selectFrom('observations')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('ts').as('earliest')])
        .where('machine_id', '=', machineId)
        .executeTakeFirstOrThrow();
    await expect.poll(async () => Number((await stored()).n), { timeout: 5000 }).toBeGreaterThanOrEqual(3);
    await ingest.flush();
    const { n, earliest } = await stored();
    expect(calls.reduce((sum, c) => sum + c.count, 0)).toBe(Number(n));
    expect(Math.min(...calls.map((c) => c.oldestTs))).toBe(Number(earliest));
    expect(calls.every((c) => c.count > 0 && c.oldestTs <= c.at)).toBe(true);
  });

  // Decision 1145: the rows ingest rewrites all day are written when what their readers see changed, and the sources'
  // counters at most every period (at once the first time, and whenever a flush or a stop asks for them).
  describe('writes what changed', () => {
    const counters = () =>
      t.db
        .selectFrom('machine_sources')
        .select(['stat_lines', 'stat_observations', 'stat_rejected', 'last_line_at'])
        .where('machine_id', '=', machineId)
        .executeTakeFirstOrThrow();
    const storedOf = async (key: string) =>
      (
        await t.db
          .selectFrom('observations')
          .select('ts')
          .where('machine_id', '=', machineId)
          .where('key', '=', key)
          .execute()
      ).length;
    const start = async (options: { countersIntervalMs?: number; tickIntervalMs?: number }) => {
      ingest = await startIngest({
        sourcePolicy: LOOPBACK_SOURCES,
        db: t.db,
        flushIntervalMs: 20,
        now,
        ...options,
      });
      await waitFor(() => socket, 5000, 'the ingest link');
      return ingest;
    };

    it("writes a source's counters at once the first time, then with the period's batch or a flush", async () => {
      const worker = await start({ countersIntervalMs: 3_600_000 });
      send(`${iso(t0)}|execution|ACTIVE|program|O1`);
      await expect
        .poll(counters, { timeout: 5000 })
        .toEqual({ stat_lines: 1, stat_observations: 2, stat_rejected: 0, last_line_at: t0 + 5 });
      send(`${iso(t0 + 1000)}|program|O2`);
      send(`${iso(t0 + 2000)}|program|O3|part_count`);
      await expect.poll(async () => (await live())?.program, { timeout: 5000 }).toBe('O3');
      // Stored and shown on the tile, not counted yet: the period has not passed.
      expect(await counters()).toMatchObject({ stat_lines: 1, last_line_at: t0 + 5 });
      await worker.flush();
      expect(await counters()).toEqual({
        stat_lines: 3,
        stat_observations: 4,
        stat_rejected: 1,
        last_line_at: t0 + 2005,
      });
    });

    it('writes the counters a stopping worker still holds', async () => {
      const worker = await start({ countersIntervalMs: 3_600_000 });
      send(`${iso(t0)}|execution|ACTIVE`);
      await expect.poll(async () => (await counters()).stat_lines, { timeout: 5000 }).toBe(1);
      send(`${iso(t0 + 1000)}|program|O2`);
      await expect.poll(async () => (await live())?.program, { timeout: 5000 }).toBe('O2');
      await worker.stop();
      expect(await counters()).toMatchObject({ stat_lines: 2, stat_observations: 2 });
    });

    it('writes a live row when a field a reader sees changed, or its heartbeat moved by the period', async () => {
      await start({ tickIntervalMs: 3_600_000 });
      send(`${iso(t0)}|avail|AVAILABLE|execution|ACTIVE|program|O1`);
      await expect.poll(async () => (await live())?.program, { timeout: 5000 }).toBe('O1');
      const first = await live();
      expect(first).toMatchObject({ state: 'ACTIVE', last_heartbeat: t0, updated_at: t0 + 5 });

      // A line of a key no tile shows, within the heartbeat period: stored, and the live row left as it is.
      send(`${iso(t0 + 2000)}|path_feedrate|120`);
      await expect.poll(() => storedOf('path_feedrate'), { timeout: 5000 }).toBe(1);
      expect(await live()).toEqual(first);

      // The same a period later: the heartbeat is written.
      send(`${iso(t0 + 2000 + LIVE_HEARTBEAT_MS)}|path_feedrate|130`);
      await expect
        .poll(async () => (await live())?.last_heartbeat, { timeout: 5000 })
        .toBe(t0 + 2000 + LIVE_HEARTBEAT_MS);
      expect(await live()).toMatchObject({ program: 'O1', state: 'ACTIVE', state_since: t0 });

      // A field a reader sees is written at once.
      send(`${iso(t0 + 3000 + LIVE_HEARTBEAT_MS)}|program|O2`);
      await expect.poll(async () => (await live())?.program, { timeout: 5000 }).toBe('O2');
      expect((await live())?.last_heartbeat).toBe(t0 + 3000 + LIVE_HEARTBEAT_MS);
    });
  });
});
