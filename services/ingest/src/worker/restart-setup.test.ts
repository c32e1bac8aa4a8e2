// A worker (re)start never replaces stored history it has no machine data for (decision 1065): a job run started in
// setup two days before, still open, is handed to the new worker's pipeline with its old setup events; the stored
// intervals of those two days and their report figures stay what they were, with no overlap and no extra No data.
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncCommand, SyncCommandType } from '@takt/domain';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { inProcessBus } from '../../../api/src/live/bus';
import type { ServiceCtx } from '../../../api/src/services/context';
import { oeeReport } from '../../../api/src/services/production-report';
import { applySyncBatch } from '../../../api/src/services/sync';
import { syncHandlers } from '../../../api/src/services/sync-handlers';
import { aCompany, aUser } from '../../../api/src/testing/builders';
import { aJob, aJobMachine, aShift } from '../../../api/src/testing/live-builders';
import { overlappingIntervals } from '../testing/intervals';
import { LOOPBACK_SOURCES } from '../testing/test-support';
import { startIngest } from './ingest';
import type { IngestService } from './ingest';
import { aGatewayMachine, gatewayPusher } from '../testing/gateway-push';

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

/** The history's first day (company time zone UTC); the history covers it and the next. */
const D = Date.UTC(2026, 10, 16);

/** Two hours of the machine's lines from `from`: 90 minutes making a part every 10 minutes, then 30 minutes idle. */
function twoHours(from: number, first: boolean): Array<[number, string]> {
  const out: Array<[number, string]> = [
    [from, first ? 'avail|AVAILABLE|execution|ACTIVE|program|O100|part_count|0' : 'execution|ACTIVE'],
  ];
  for (let m = 10; m <= 90; m += 10)
    out.push([from + m * MIN, `part_count|${(from - D) / (12 * MIN) + m / 10}`]);
  out.push([from + 90 * MIN, 'execution|READY']);
  return out;
}

describe.each(DIALECTS)('a worker restart during a job run begun in setup on %s', (dialect) => {
  let t: TestDb | undefined;
  let ingest: IngestService | undefined;
  afterEach(async () => {
    logs.length = 0;
    await ingest?.stop();
    ingest = undefined;
    await t?.cleanup();
    t = undefined;
  });

  let clock = 0;
  const logs: string[] = [];
  /** A machine on a gateway with a job that starts in planned setup, and a worker holding it (its helpers). */
  async function world() {
    t = await freshDb(dialect);
    const db = t.db;
    clock = D - HOUR;
    const now = () => clock;
    const company = await aCompany(db, { timezone: 'UTC' });
    const { scope, machineId } = await aGatewayMachine(db, company);
    const user = await aUser(db, company);
    const jobId = await aJob(db, company, { setuptime: 1800 });
    await aJobMachine(db, company, jobId, machineId, {
      expectedCycleTime: 10 * MIN,
      idealCycleTime: 8 * MIN,
      setuptime: 1800,
      startInSetup: 'planned',
    });
    await aShift(db, company, { startoffsetminutes: 0, endoffsetminutes: 1440 });
    const ctx = (): ServiceCtx => ({
      scope,
      at: clock,
      now: clock,
      caller: { kind: 'user', user, company, sessionToken: 'test' },
    });
    const startWorker = () =>
      startIngest({
        sourcePolicy: LOOPBACK_SOURCES,
        db,
        now,
        flushIntervalMs: 3_600_000,
        inboxIntervalMs: 20,
        rollupIntervalMs: 0,
        tickIntervalMs: 3_600_000,
        log: (m: string) => logs.push(m),
      });
    let service = (ingest = await startWorker());

    const store = gatewayPusher(db, company.id, machineId);
    /** What the push route stores for a gateway's records, then the worker's batch that takes them. */
    const push = async (lines: Array<[number, string]>, receivedAt: number) => {
      await store(
        lines.map(([ts, fields]) => `${iso(ts)}|${fields}`),
        receivedAt,
      );
      await expect
        .poll(
          async () => {
            await service.flush();
            return (await db.selectFrom('ingest_inbox').select('id').execute()).length;
          },
          { timeout: 10_000, interval: 20 },
        )
        .toBe(0);
      await service.flush();
    };
    let runId: string | null = null;
    const enter = async (type: SyncCommandType, payload: Record<string, unknown>) => {
      const c: SyncCommand = { id: crypto.randomUUID(), type, machineId, occurredAt: clock, payload };
      const [outcome] = await applySyncBatch(
        { scope, caller: ctx().caller, now: clock, bus: inProcessBus(), handlers: syncHandlers },
        { commands: [c] },
      );
      expect(outcome, type).toMatchObject({ status: 'applied' });
      if (type === 'start_job') runId = (outcome as { result: { id: string } }).result.id;
      await service.syncSetup();
    };
    const rollUp = async () => {
      for (let i = 0; i < 10; i++) {
        await service.rollUp();
        if ((await db.selectFrom('rollup_dirty').select('machine_id').execute()).length === 0) break;
      }
      expect(await db.selectFrom('rollup_dirty').select('machine_id').execute()).toEqual([]);
    };
    return {
      db,
      machineId,
      jobId,
      runId: () => runId!,
      ctx,
      push,
      enter,
      rollUp,
      restart: async () => {
        await service.stop();
        service = ingest = await startWorker();
      },
    };
  }

  it('leaves the stored history it has no machine data for as it was', async () => {
    const { db, machineId, jobId, runId, ctx, push, enter, rollUp, restart } = await world();
    const days = [D, D + DAY];
    const snapshot = async () => {
      const states = await db
        .selectFrom('state_intervals')
        .select(['start_at', 'end_at', 'state'])
        .where('machine_id', '=', machineId)
        .where('start_at', '<', D + 2 * DAY)
        .orderBy('start_at')
        .execute();
      const figures = [];
      for (const start of days) {
        const {
          recomputing: _,
          range: __,
          ...f
        } = await oeeReport(ctx(), { start, end: start + DAY, interval: 'hour' });
        figures.push(f);
      }
      return {
        // The interval open at the restart is closed by it: compared up to the history's end.
        states: states.map((s) => ({
          start_at: Number(s.start_at),
          end_at: s.end_at == null ? D + 2 * DAY : Math.min(Number(s.end_at), D + 2 * DAY),
          state: s.state,
        })),
        figures,
      };
    };

    // Two days of history, live through the first worker: the job run starts in setup at 00:00 (the machine's first
    // line is there), production at 00:30; the run stays open.
    for (let from = D; from < D + 2 * DAY; from += 2 * HOUR) {
      const lines = twoHours(from, from === D);
      if (from === D) {
        clock = from + 1000;
        await push(lines.slice(0, 1), clock);
        await enter('start_job', { id: machineId, jobId, setup: true });
        clock = from + 30 * MIN;
        await enter('start_production', { jsgId: runId(), machineId, keptParts: 0 });
        clock = from + 2 * HOUR - 1000;
        await push(lines.slice(1), clock);
      } else {
        clock = from + 2 * HOUR - 1000;
        await push(lines, clock);
      }
    }
    // The reports are read once the history's days are over.
    clock = D + 2 * DAY;
    await ingest!.flush();
    await rollUp();
    const before = await snapshot();
    expect(await overlappingIntervals(db, machineId)).toEqual([]);
    // The history is what the machine did: no No data in it, planned setup in the first half hour.
    expect(before.states.filter((s) => s.state === 'UNAVAILABLE')).toEqual([]);
    expect(before.states.find((s) => s.state === 'SETUP')).toMatchObject({
      start_at: D + 1000,
      end_at: D + 30 * MIN,
    });

    // A deploy: the worker restarts an hour after the history's end and the machine goes on sending.
    clock = D + 2 * DAY + HOUR;
    logs.length = 0;
    await restart();
    await ingest!.syncSetup();
    const after = twoHours(D + 2 * DAY + HOUR, false);
    clock = after[after.length - 1]![0] + 1000;
    await push(after, clock);
    await ingest!.syncSetup();
    await ingest!.flush();
    await rollUp();

    expect(await overlappingIntervals(db, machineId)).toEqual([]);
    // The new worker re-derived from storage once, from its own first data: not from the run's setup two days back
    // (a run open for weeks would read weeks of observations).
    expect(logs.filter((m) => m.includes('re-derived history'))).toEqual([
      expect.stringContaining(`after late data at ${iso(D + 2 * DAY + HOUR)}`),
    ]);
    const restarted = await snapshot();
    expect(restarted.states).toEqual(before.states);
    expect(restarted.figures).toEqual(before.figures);
    // The new data is stored after it.
    const newer = await db
      .selectFrom('state_intervals')
      .select(['start_at', 'state'])
      .where('machine_id', '=', machineId)
      .where('start_at', '>=', D + 2 * DAY + HOUR)
      .orderBy('start_at')
      .execute();
    expect(newer.map((s) => [Number(s.start_at), s.state])).toContainEqual([D + 2 * DAY + HOUR, 'ACTIVE']);
  }, 60_000);

  it('folds a setup begun before the machine ever sent data in once, from storage', async () => {
    const { db, machineId, jobId, push, enter } = await world();
    // The run starts in setup at 00:00; the machine's first line comes 10 minutes later.
    clock = D;
    await enter('start_job', { id: machineId, jobId, setup: true });
    await ingest!.flush();
    clock = D + 10 * MIN + 1000;
    await push([[D + 10 * MIN, 'avail|AVAILABLE|execution|READY|program|O100|part_count|0']], clock);
    clock = D + 20 * MIN + 1000;
    await push([[D + 20 * MIN, 'execution|ACTIVE']], clock);
    await ingest!.syncSetup();
    await ingest!.flush();
    expect(await overlappingIntervals(db, machineId)).toEqual([]);
    const states = await db
      .selectFrom('state_intervals')
      .select(['start_at', 'end_at', 'state'])
      .where('machine_id', '=', machineId)
      .orderBy('start_at')
      .execute();
    // Setup overrides the machine state from the run's start (METRICS.md §1), as it did before decision 1065.
    expect(
      states.map((s) => [Number(s.start_at), s.end_at == null ? null : Number(s.end_at), s.state]),
    ).toEqual([[D, null, 'SETUP']]);
    // The setup before the first data made the worker re-derive from storage once, not at every batch.
    expect(logs.filter((m) => m.includes('re-derived history'))).toHaveLength(1);
  }, 60_000);

  it('re-derives nothing at each tick for a run begun in setup longer ago than its setup memory', async () => {
    const { db, machineId, jobId, push, enter, restart } = await world();
    clock = D + 1000;
    await push([[D, 'avail|AVAILABLE|execution|READY|program|O100|part_count|0']], clock);
    await enter('start_job', { id: machineId, jobId, setup: true });
    // Nine days on, the run still in setup, the worker restarts: it re-derives from its first data (a week of
    // storage back), and its writes forget the run's start (8 days of setup memory).
    clock = D + 9 * DAY;
    logs.length = 0;
    await restart();
    await push([[clock - 1000, 'execution|ACTIVE']], clock);
    await ingest!.syncSetup();
    await ingest!.flush();
    for (let tick = 1; tick <= 3; tick++) {
      clock += MIN;
      await push([[clock - 1000, `part_count|${tick}`]], clock);
      await ingest!.syncSetup();
      await ingest!.flush();
    }
    // One re-derivation, from the new worker's first data: none from the run's start, nine days of observations back.
    expect(logs.filter((m) => m.includes('re-derived history'))).toEqual([
      expect.stringContaining(`after late data at ${iso(D + 9 * DAY - 1000)}`),
    ]);
    expect(await overlappingIntervals(db, machineId)).toEqual([]);
    const live = await db
      .selectFrom('machine_live')
      .select('state')
      .where('machine_id', '=', machineId)
      .execute();
    expect(live).toEqual([{ state: 'SETUP' }]);
  }, 60_000);
});
