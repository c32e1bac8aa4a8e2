// ARCHITECTURE.md "Ingest contract": late data (a gateway offline for a day, an adapter sending lines older than the worker's
// in-memory history) is merged, and what is stored afterwards (state intervals, cycles, programs, faults and
// the rollups built from them) equals a from-scratch derivation of every stored observation.
import type net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { markRollupsDirty } from '@takt/db/rollups';
import { createAdapter } from '../../../api/src/repositories/adapters';
import { machineSourceRow, createShdrSource } from '../../../api/src/repositories/machine-sources';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { aDowntimeReason, anAnnotation } from '../../../api/src/testing/downtime-builders';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { demoAdapterFields } from '../demo/demo-adapter';
import { DERIVER_MEMORY_MS, MachinePipeline } from './pipeline';
import { REBUILD_MAX_MS, feedStored } from './rebuild';
import { startIngest } from './ingest';
import type { IngestService } from './ingest';
import { loadFieldMaps, writeDerived } from './store';
import type { FakeAdapter } from '../testing/test-support';
import { LOOPBACK_SOURCES, fakeAdapter, waitFor } from '../testing/test-support';
import { overlappingIntervals } from '../testing/intervals';
import { drainInbox, gatewayPusher } from '../testing/gateway-push';

const iso = (ms: number) => new Date(ms).toISOString();
const MIN = 60_000;
const HOUR = 3_600_000;

describe.each(DIALECTS)('late data into %s', (dialect) => {
  let t: TestDb;
  let ingest: IngestService | undefined;
  let adapter: FakeAdapter | undefined;
  let clock = 0;
  const now = () => clock;

  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await ingest?.stop();
    ingest = undefined;
    await adapter?.close();
    adapter = undefined;
    await t.cleanup();
  });

  async function aMachineWithAdapter() {
    const company = await aCompany(t.db);
    const scope = companyScope(t.db, company.id);
    const adapterId = await createAdapter(scope, { name: 'demo', fields: demoAdapterFields() }, 0);
    const machineId = await aMachine(t.db, company, { name: 'Mill' });
    await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', machineId).execute();
    return { company, scope, machineId };
  }

  /** What stored derived records must equal. */
  async function stored(machineId: string) {
    const [intervals, cycles, programs, faults] = await Promise.all([
      t.db
        .selectFrom('state_intervals')
        .select(['start_at', 'end_at', 'state', 'reason'])
        .where('machine_id', '=', machineId)
        .orderBy('start_at')
        .execute(),
      t.db
        .selectFrom('cycles')
        .select(['start_at', 'end_at', 'count'])
        .where('machine_id', '=', machineId)
        .orderBy('end_at')
        .execute(),
      t.db
        .selectFrom('program_intervals')
        .select(['sub', 'start_at', 'end_at', 'name'])
        .where('machine_id', '=', machineId)
        .orderBy('sub')
        .orderBy('start_at')
        .execute(),
      t.db
        .selectFrom('faults')
        .select(['item', 'start_at', 'end_at', 'value'])
        .where('machine_id', '=', machineId)
        .orderBy('start_at')
        .orderBy('item')
        .execute(),
    ]);
    return { intervals, cycles, programs, faults };
  }

  /** Every stored observation of the machine through one fresh pipeline, materialized at the worker's clock. */
  async function fromScratch(companyId: string, machineId: string) {
    const rows = await t.db
      .selectFrom('observations')
      .select(['ts', 'key', 'value'])
      .where('machine_id', '=', machineId)
      .orderBy('ts')
      .execute();
    const fields = (await loadFieldMaps(t.db, [machineId])).get(machineId)!;
    const pipeline = new MachinePipeline(companyId, machineId, fields, 'part_count', 'gateway', rows[0]!.ts);
    feedStored(pipeline, rows);
    const result = pipeline.take(clock)!.result;
    const end = (r: { end: number; open?: boolean }) => (r.open ? null : r.end);
    return {
      firstTs: rows[0]!.ts,
      result,
      expected: {
        intervals: result.intervals.map((r) => ({
          start_at: r.start,
          end_at: end(r),
          state: r.state,
          reason: r.reason,
        })),
        cycles: result.cycles.map((c) => ({ start_at: c.start, end_at: c.end, count: c.count })),
        programs: [
          ...result.programs.map((p) => ({ sub: 0, start_at: p.start, end_at: end(p), name: p.name })),
          ...result.subprograms.map((p) => ({ sub: 1, start_at: p.start, end_at: end(p), name: p.name })),
        ],
        faults: result.faults
          .map((f) => ({ item: f.item, start_at: f.start, end_at: end(f), value: f.value }))
          .sort((a, b) => a.start_at - b.start_at || (a.item < b.item ? -1 : 1)),
      },
    };
  }

  const rollupRows = (machineId: string) =>
    t.db
      .selectFrom('rollups')
      .select(['start_at', 'end_at', 'shift_id', 'measures'])
      .where('machine_id', '=', machineId)
      .orderBy('start_at')
      .execute();

  /**
   * The stored records equal the from-scratch derivation, and so do the rollups: those built incrementally
   * (with the late batch's recompute) equal those rebuilt after writing the from-scratch records anew.
   */
  async function expectFromScratch(companyId: string, machineId: string, lateFrom: number) {
    const scratch = await fromScratch(companyId, machineId);
    const actual = await stored(machineId);
    expect(await overlappingIntervals(t.db, machineId)).toEqual([]);
    expect(actual.intervals).toEqual(scratch.expected.intervals);
    expect(actual.cycles).toEqual(scratch.expected.cycles);
    expect(actual.programs).toEqual(scratch.expected.programs);
    expect(actual.faults).toEqual(scratch.expected.faults);
    // The late batch shows in what was stored.
    expect(actual.intervals.some((i) => i.start_at >= lateFrom && i.start_at < lateFrom + HOUR)).toBe(true);

    await ingest!.rollUp();
    const incremental = await rollupRows(machineId);
    expect(incremental.length).toBeGreaterThan(24);
    await t.db.transaction().execute(async (trx) => {
      await writeDerived(trx, { companyId, machineId, from: -1, result: scratch.result });
      await markRollupsDirty(trx, { companyId, machineId, from: scratch.firstTs, now: clock });
    });
    await t.db.deleteFrom('rollups').where('machine_id', '=', machineId).execute();
    await ingest!.rollUp();
    expect(await rollupRows(machineId)).toEqual(incremental);
  }

  it('merges a day-late gateway batch and recomputes what it changed, as a from-scratch derivation would', async () => {
    const { company, scope, machineId } = await aMachineWithAdapter();
    await scope
      .insertInto(
        'machine_sources',
        machineSourceRow({ machine_id: machineId, kind: 'gateway', machine_ref: 'm1' }),
      )
      .execute();
    const push = gatewayPusher(t.db, company.id, machineId);
    const inboxEmpty = () => drainInbox(t.db, ingest!);

    const T = Date.UTC(2026, 10, 20, 12);
    // 30 hours of a machine making a part every 4 minutes; execution, availability and the program are
    // sent once, at the start (as adapters do: on change only).
    const lines = [`${iso(T - 30 * HOUR)}|avail|AVAILABLE|execution|ACTIVE|program|O100|part_count|0`];
    for (let k = 1; k < 450; k++)
      lines.push(`${iso(T - 30 * HOUR + k * 4 * MIN)}|part_count|${k}|Sspeed|800`);
    clock = T;
    await push(lines, T - MIN);
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      now,
      flushIntervalMs: 20,
      inboxIntervalMs: 20,
      rollupIntervalMs: 0,
      tickIntervalMs: 3_600_000,
    });
    await inboxEmpty();
    await ingest.rollUp();

    // The edge comes back with records held for a day: a stop, a fault and another program, between the
    // lines already stored and far older than the worker's in-memory history.
    const late = T - 24 * HOUR + 2 * MIN;
    expect(T - late).toBeGreaterThan(DERIVER_MEMORY_MS);
    clock = T + MIN;
    await push(
      [
        `${iso(late)}|execution|READY|program|O200`,
        `${iso(late + 4 * MIN)}|system|FAULT|E12|2|HIGH|Overtravel`,
        `${iso(late + 12 * MIN)}|system|NORMAL||||`,
        `${iso(late + 16 * MIN)}|execution|ACTIVE|program|O100`,
      ],
      T + MIN - 10,
    );
    await inboxEmpty();
    await expectFromScratch(company.id, machineId, late);
  }, 60_000);

  it('re-derives late data past the rebuild reach from the signals stored before it, as a from-scratch derivation would', async () => {
    const { company, scope, machineId } = await aMachineWithAdapter();
    await scope
      .insertInto(
        'machine_sources',
        machineSourceRow({ machine_id: machineId, kind: 'gateway', machine_ref: 'm1' }),
      )
      .execute();
    const push = gatewayPusher(t.db, company.id, machineId);
    const inboxEmpty = () => drainInbox(t.db, ingest!);
    const T = Date.UTC(2026, 10, 20, 12);
    // Twelve days in cycle: execution, availability and the program sent once, at the start (decision 1025: the
    // rebuild reads at most REBUILD_MAX_MS of observations back; the state in force there is read from before it).
    const first = T - 12 * 24 * HOUR;
    const lines = [`${iso(first)}|avail|AVAILABLE|execution|ACTIVE|program|O100|part_count|0`];
    for (let k = 1; k < 12 * 144; k++) lines.push(`${iso(first + k * 10 * MIN)}|part_count|${k}`);
    clock = T;
    const logged: string[] = [];
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      now,
      flushIntervalMs: 20,
      inboxIntervalMs: 20,
      rollupIntervalMs: 0,
      tickIntervalMs: 3_600_000,
      log: (line) => logged.push(line),
    });
    // The edge pushes its twelve days as a backlog, 300 records a push, each push derived before the next: the
    // link's connect is stamped at the first push's receipt, after every record, so each later push is inserted
    // before an observation the worker holds, far back in its forgotten history (a cycle at each of its
    // checkpoints, one per 256 observations, was once lost there).
    for (let i = 0; i < lines.length; i += 300) {
      await push(lines.slice(i, i + 300), T - MIN);
      await inboxEmpty();
    }
    expect(logged.filter((l) => l.includes('re-derived history'))).toEqual([]);
    // METRICS.md §3: each increment of the part counter is one completed cycle.
    const counted = (await stored(machineId)).cycles.reduce((n, c) => n + Number(c.count), 0);
    expect(counted).toBe(lines.length - 1);
    await ingest.rollUp();

    // A stop held by the edge for three days, more than REBUILD_MAX_MS after the last execution value.
    const late = T - 72 * HOUR + 2 * MIN;
    expect(late - first).toBeGreaterThan(REBUILD_MAX_MS);
    clock = T + MIN;
    await push([`${iso(late)}|execution|READY`, `${iso(late + 16 * MIN)}|execution|ACTIVE`], T + MIN - 10);
    await inboxEmpty();
    expect(logged.filter((l) => l.includes('re-derived history'))).toHaveLength(1);
    await expectFromScratch(company.id, machineId, late);
  }, 60_000);

  it("recomputes a closed bucket when the downtime it holds ends past its reason's planned limit", async () => {
    const { company, scope, machineId } = await aMachineWithAdapter();
    let socket: net.Socket | undefined;
    adapter = await fakeAdapter((s) => {
      socket = s;
    });
    await createShdrSource(scope, { machineId, host: '127.0.0.1', port: adapter.port }, 0);
    const T0 = Date.UTC(2026, 10, 20, 8);
    clock = T0;
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      now,
      flushIntervalMs: 3_600_000,
      rollupIntervalMs: 0,
      log: () => {},
    });
    await waitFor(() => socket, 5000, 'the ingest link');
    const sourceLines = () => [...ingest!.counters().values()][0]?.lines ?? 0;
    const send = async (lines: string[]) => {
      const before = sourceLines();
      socket!.write(lines.map((l) => `${l}\n`).join(''));
      await waitFor(() => sourceLines() === before + lines.length, 10_000, 'the lines');
      await ingest!.flush();
    };

    // The adapter reports every 4 minutes (a sign of life well within the 5-minute heartbeat timeout).
    const beats = (from: number, to: number) => {
      const out: string[] = [];
      for (let m = from; m < to; m += 4) out.push(`${iso(T0 + m * MIN)}|avail|AVAILABLE`);
      return out;
    };
    // Working until 08:50, then stopped; the operator gives a reason planned up to 30 minutes at 08:55.
    clock = T0 + 55 * MIN;
    await send([
      `${iso(T0)}|avail|AVAILABLE|execution|ACTIVE`,
      ...beats(2, 50),
      `${iso(T0 + 50 * MIN)}|execution|READY`,
      ...beats(52, 55),
    ]);
    const reason = await aDowntimeReason(t.db, company, {
      plannedBehavior: 'plannedWithLimit',
      plannedLimitMs: 30 * MIN,
    });
    await anAnnotation(t.db, company, { machineId, start: T0 + 50 * MIN, typeId: reason.id, planned: true });
    // The 08:00 bucket is closed and stored at 09:01, while the stop has lasted 11 minutes: planned.
    clock = T0 + 61 * MIN;
    await send(beats(56, 61));
    await ingest.rollUp();
    const bucket8 = async () =>
      JSON.parse((await rollupRows(machineId)).find((r) => r.start_at === T0)!.measures as string) as {
        plannedDowntimeMs: number;
        unplannedDowntimeMs: number;
      };
    expect(await bucket8()).toMatchObject({ plannedDowntimeMs: 10 * MIN, unplannedDowntimeMs: 0 });
    // Back to work at 09:25: the stop lasted 35 minutes, past the limit, so all of it is unplanned.
    clock = T0 + 90 * MIN;
    await send([...beats(64, 85), `${iso(T0 + 85 * MIN)}|execution|ACTIVE`, ...beats(86, 90)]);
    await ingest.rollUp();
    expect(await bucket8()).toMatchObject({ plannedDowntimeMs: 0, unplannedDowntimeMs: 10 * MIN });
    const incremental = await rollupRows(machineId);
    expect(incremental.length).toBeGreaterThan(1);
    await t.db.deleteFrom('rollups').where('machine_id', '=', machineId).execute();
    await markRollupsDirty(t.db, { companyId: company.id, machineId, from: T0, now: clock });
    await ingest.rollUp();
    expect(incremental).toEqual(await rollupRows(machineId));
  }, 60_000);

  it('re-derives once for a gateway backlog larger than one inbox take', async () => {
    const { company, scope, machineId } = await aMachineWithAdapter();
    await scope
      .insertInto(
        'machine_sources',
        machineSourceRow({ machine_id: machineId, kind: 'gateway', machine_ref: 'm1' }),
      )
      .execute();
    const push = gatewayPusher(t.db, company.id, machineId);
    const T = Date.UTC(2026, 10, 20, 12);
    const lines = [`${iso(T - 30 * HOUR)}|avail|AVAILABLE|execution|ACTIVE|program|O100|part_count|0`];
    for (let k = 1; k < 60; k++) lines.push(`${iso(T - 30 * HOUR + k * 30 * MIN)}|part_count|${k}`);
    clock = T;
    await push(lines, T - MIN);
    const logged: string[] = [];
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      now,
      flushIntervalMs: 20,
      inboxIntervalMs: 20,
      inboxTake: 100,
      rollupIntervalMs: 0,
      tickIntervalMs: 3_600_000,
      log: (line) => logged.push(line),
    });
    const inboxLeft = async () => (await t.db.selectFrom('ingest_inbox').select('id').execute()).length;
    await expect.poll(inboxLeft, { timeout: 10_000 }).toBe(0);
    await ingest.flush();

    // A day-old backlog of 350 lines (4 takes of 100) between the lines already derived.
    const late = T - 24 * HOUR;
    const backlog: string[] = [];
    for (let k = 0; k < 350; k++)
      backlog.push(`${iso(late + k * MIN)}|execution|${k % 50 < 10 ? 'READY' : 'ACTIVE'}|Sspeed|${k}`);
    clock = T + MIN;
    await push(backlog, T + MIN - 10);
    await expect.poll(inboxLeft, { timeout: 20_000 }).toBe(0);
    await ingest.flush();
    expect(logged.filter((l) => l.includes('re-derived history'))).toHaveLength(1);
    await expectFromScratch(company.id, machineId, late);
  }, 60_000);

  it.each([
    ['', false],
    [', also when the database fails meanwhile', true],
  ])(
    'merges lines an adapter sends later than the in-memory window%s, as a from-scratch derivation would',
    async (_, dbFails) => {
      const { company, scope, machineId } = await aMachineWithAdapter();
      let socket: net.Socket | undefined;
      adapter = await fakeAdapter((s) => {
        socket = s;
      });
      await createShdrSource(scope, { machineId, host: '127.0.0.1', port: adapter.port }, 0);
      const T0 = Date.UTC(2026, 10, 20, 6);
      clock = T0 - 1000;
      let failing = false;
      // The database can go away: every statement fails while `failing` is set.
      const db = t.db.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async (args) => {
          if (failing) throw new Error('database down');
          return args.result;
        },
      });
      ingest = await startIngest({
        sourcePolicy: LOOPBACK_SOURCES,
        db,
        now,
        flushIntervalMs: 3_600_000,
        rollupIntervalMs: 0,
        log: () => {},
      });
      await waitFor(() => socket, 5000, 'the ingest link');
      const sourceLines = () => [...ingest!.counters().values()][0]?.lines ?? 0;

      const lines = [`${iso(T0)}|avail|AVAILABLE|execution|ACTIVE|program|O100|part_count|0`];
      for (let k = 1; k < 240; k++)
        lines.push(
          `${iso(T0 + k * MIN)}|part_count|${Math.floor(k / 3)}|Sspeed|${700 + (k % 5)}|path_feedrate|12`,
        );
      clock = T0 + 240 * MIN;
      socket!.write(lines.map((l) => `${l}\n`).join(''));
      await waitFor(() => sourceLines() === lines.length, 10_000, 'the lines');
      await ingest.flush();
      await ingest.rollUp();

      // The adapter (say, one that buffers across a network outage) sends lines from three hours ago.
      const late = T0 + 30 * MIN + 20_000;
      expect(clock - late).toBeGreaterThan(DERIVER_MEMORY_MS);
      clock += MIN;
      const lateLines = [
        `${iso(late)}|execution|FEED_HOLD|program|O300`,
        `${iso(late + 3 * MIN)}|system|FAULT|E7|1||Spindle overload`,
        `${iso(late + 9 * MIN)}|system|NORMAL||||`,
        `${iso(late + 10 * MIN)}|execution|ACTIVE|program|O100`,
      ];
      socket!.write(lateLines.map((l) => `${l}\n`).join(''));
      await waitFor(() => sourceLines() === lines.length + lateLines.length, 10_000, 'the late lines');
      if (dbFails) {
        // Re-deriving cannot read the stored history: nothing is written, nothing is lost, and it is retried.
        failing = true;
        await ingest.flush();
        await ingest.flush();
        failing = false;
      }
      await ingest.flush();
      await expectFromScratch(company.id, machineId, late);
    },
    60_000,
  );
});
