// Issue 27 point 6, decision 1025: late data is the same data. One scenario (a machine's morning through a gateway,
// a job run started in planned setup, a categorized stop, a reject, a shift version change) fed in several orders:
// live; a week late through the gateway's backlog; with the tablet's commands (run, setup end, categorization,
// reject, stop) entered at their time or a week after the data. The report figures (OEE and its factors, the
// loss waterfall with its downtime by reason, parts) are the same in every order.
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncCommand, SyncCommandType } from '@takt/domain';
import { efficiencyTotals, sumRollups } from '@takt/domain';
import { loadCalendar } from '@takt/db/rollups';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { inProcessBus } from '../../../api/src/live/bus';
import type { ServiceCtx } from '../../../api/src/services/context';
import { oeeReport } from '../../../api/src/services/production-report';
import { reportRollups } from '../../../api/src/services/reports';
import { updateShift } from '../../../api/src/services/shifts';
import { applySyncBatch } from '../../../api/src/services/sync';
import { syncHandlers } from '../../../api/src/services/sync-handlers';
import { aCompany, aUser } from '../../../api/src/testing/builders';
import { aDowntimeReason, aRejectReason } from '../../../api/src/testing/downtime-builders';
import { aJob, aJobMachine, aShift } from '../../../api/src/testing/live-builders';
import { LOOPBACK_SOURCES } from '../testing/test-support';
import { overlappingIntervals } from '../testing/intervals';
import { startIngest } from './ingest';
import type { IngestService } from './ingest';
import { aGatewayMachine, gatewayPusher } from '../testing/gateway-push';

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const iso = (ms: number) => new Date(ms).toISOString();

/** The scenario's day (company time zone UTC). */
const D = Date.UTC(2026, 10, 16);
const at = (h: number, m = 0) => D + h * HOUR + m * MIN;

/** The machine's lines: [time, SHDR fields]. Setup 06:00–06:30, a stop 08:00–08:20, a fault 10:00–10:10. */
function machineLines(): Array<[number, string]> {
  const out: Array<[number, string]> = [[at(6), 'avail|AVAILABLE|execution|READY|program|O100|part_count|0']];
  out.push([at(6, 30), 'execution|ACTIVE']);
  let parts = 0;
  const making = (from: number, to: number) => {
    for (let t = from + 5 * MIN; t < to; t += 5 * MIN) out.push([t, `part_count|${++parts}|Sspeed|900`]);
  };
  making(at(6, 30), at(8));
  out.push([at(8), 'execution|READY']);
  out.push([at(8, 20), 'execution|ACTIVE']);
  making(at(8, 20), at(10));
  out.push([at(10), 'execution|STOPPED|system|FAULT|E12|1||Jam']);
  out.push([at(10, 10), 'execution|ACTIVE|system|NORMAL||||']);
  making(at(10, 10), at(12));
  out.push([at(12), 'execution|READY']);
  return out;
}

type Order = {
  name: string;
  /** When the machine's lines arrive: as they happen, or all at once a week later. */
  data: 'live' | 'backlog';
  /** When the tablet's commands are entered: at their time, or a week later (before or after the backlog). */
  facts: 'onTime' | 'weekLateBeforeData' | 'weekLateAfterData';
};

const ORDERS: Order[] = [
  { name: 'live', data: 'live', facts: 'onTime' },
  { name: 'backlog a week late, commands on time', data: 'backlog', facts: 'onTime' },
  { name: 'data live, commands a week late', data: 'live', facts: 'weekLateAfterData' },
  { name: 'commands a week late, then the backlog', data: 'backlog', facts: 'weekLateBeforeData' },
  { name: 'backlog a week late, then the commands', data: 'backlog', facts: 'weekLateAfterData' },
];

describe.each(DIALECTS)('late data is the same data on %s', (dialect) => {
  let t: TestDb | undefined;
  let ingest: IngestService | undefined;
  afterEach(async () => {
    await ingest?.stop();
    ingest = undefined;
    await t?.cleanup();
    t = undefined;
  });

  /** Runs one order in a fresh database; returns the day's report figures. */
  async function figuresOf(order: Order) {
    t = await freshDb(dialect);
    const db = t.db;
    let clock = at(-2 * 24);
    const now = () => clock;
    const company = await aCompany(db, { timezone: 'UTC' });
    const { scope, machineId } = await aGatewayMachine(db, company);
    const user = await aUser(db, company);
    const jobId = await aJob(db, company, { setuptime: 1800 });
    await aJobMachine(db, company, jobId, machineId, {
      expectedCycleTime: 5 * MIN,
      idealCycleTime: 4 * MIN,
      setuptime: 1800,
      startInSetup: 'planned',
    });
    const maintenance = await aDowntimeReason(db, company, {
      name: 'Maintenance',
      plannedBehavior: 'unplanned',
    });
    const scrap = await aRejectReason(db, company, { name: 'Burr' });
    const shiftId = await aShift(db, company, { startoffsetminutes: 360, endoffsetminutes: 840 });
    const ctx = (occurredAt: number): ServiceCtx => ({
      scope,
      at: occurredAt,
      now: clock,
      caller: { kind: 'user', user, company, sessionToken: 'test' },
    });
    // The day before, the shift is changed from the scenario's day on: 06:00–13:00 (a version entered ahead, as
    // reports-admin §4 asks).
    clock = at(-14);
    await updateShift(ctx(clock), shiftId, {
      startoffsetminutes: 360,
      endoffsetminutes: 780,
      effectivedate: iso(D).slice(0, 10),
    });

    const startWorker = async () =>
      (ingest = await startIngest({
        sourcePolicy: LOOPBACK_SOURCES,
        db,
        now,
        flushIntervalMs: 3_600_000,
        // Each push waits for the worker's next inbox read (below): a short interval keeps that wait short.
        inboxIntervalMs: 5,
        rollupIntervalMs: 0,
        tickIntervalMs: 3_600_000,
        log: () => {},
      }));
    let service = await startWorker();

    const store = gatewayPusher(db, company.id, machineId);
    /** What the push route stores for a gateway's records, then the worker's batch that takes them. */
    const push = async (lines: string[], receivedAt: number) => {
      await store(lines, receivedAt);
      await expect
        .poll(
          async () => {
            // The worker reads the inbox on its timer; a batch stores what it derived and removes the lines.
            await service.flush();
            return (await db.selectFrom('ingest_inbox').select('id').execute()).length;
          },
          {
            timeout: 10_000,
            interval: 5,
          },
        )
        .toBe(0);
      await service.flush();
    };

    let runId: string | null = null;
    const command = (
      type: SyncCommandType,
      occurredAt: number,
      payload: Record<string, unknown>,
    ): SyncCommand => ({
      id: crypto.randomUUID(),
      type,
      machineId,
      occurredAt,
      payload,
    });
    /** The tablet's commands, each as the sync endpoint applies it (ctx.at = occurredAt, ctx.now = arrival). */
    const facts: Array<[number, () => SyncCommand]> = [
      [at(6), () => command('start_job', at(6), { id: machineId, jobId, setup: true })],
      [at(6, 30), () => command('start_production', at(6, 30), { jsgId: runId!, machineId, keptParts: 0 })],
      [
        at(8, 5),
        () =>
          command('categorize_downtime', at(8, 5), {
            machineId,
            start: at(8),
            end: null,
            category_id: maintenance.id,
          }),
      ],
      [
        at(9),
        () =>
          command('reject_part', at(9), {
            machine_id: machineId,
            adjustmenttime: at(9),
            category_id: scrap.id,
            scrapcount: 2,
            deductFromGoodParts: false,
          }),
      ],
      [at(12), () => command('stop_job', at(12), { id: machineId, jobId })],
    ];
    const enter = async (c: SyncCommand, tick: boolean) => {
      const [outcome] = await applySyncBatch(
        {
          scope,
          caller: { kind: 'user', user, company, sessionToken: 'test' },
          now: clock,
          bus: inProcessBus(),
          handlers: syncHandlers,
        },
        { commands: [c] },
      );
      expect(outcome, `${c.type} at ${iso(c.occurredAt)}`).toMatchObject({ status: 'applied' });
      if (c.type === 'start_job') runId = (outcome as { result: { id: string } }).result.id;
      // Live, the worker's tick reads the job runs' setup between commands (every few seconds).
      if (tick) await service.syncSetup();
    };

    const lines = machineLines();
    // Live: the facts and the lines in time order, each line arriving a second after it happened.
    const events: Array<[number, () => Promise<void>]> = [];
    if (order.data === 'live')
      for (const [ts, fields] of lines) events.push([ts, () => push([`${iso(ts)}|${fields}`], ts + 1000)]);
    if (order.facts === 'onTime') for (const [ts, c] of facts) events.push([ts, () => enter(c(), true)]);
    events.sort((a, b) => a[0] - b[0]);
    for (const [ts, run] of events) {
      clock = Math.max(clock, ts + 1000);
      await run();
    }
    // A week later: the backlog and the late commands, in the order's order.
    clock = at(13) + WEEK;
    // The worker was restarted during the week (a deploy): it remembers nothing of the scenario's day.
    await service.stop();
    service = await startWorker();
    // The backlog comes in two pushes: the records from 09:00 on, then those before, which the edge had left in a
    // sequence hole (decision 0981): older than what the worker just derived, they make it re-derive from storage.
    const backlog = async () => {
      const record = ([ts, fields]: [number, string]) => `${iso(ts)}|${fields}`;
      await push(lines.filter(([ts]) => ts >= at(9)).map(record), clock);
      await push(lines.filter(([ts]) => ts < at(9)).map(record), clock + MIN);
    };
    // A tablet back after a week: its queued commands arrive one after the other, before the worker's next tick
    // (the run ended a week ago by then).
    const lateFacts = async () => {
      for (const [, c] of facts) await enter(c(), false);
    };
    if (order.facts === 'weekLateBeforeData') await lateFacts();
    if (order.data === 'backlog') await backlog();
    if (order.facts === 'weekLateAfterData') await lateFacts();
    await service.syncSetup();
    await service.flush();
    // The rollup worker recomputes what every change marked.
    for (let i = 0; i < 10; i++) {
      await service.rollUp();
      if ((await db.selectFrom('rollup_dirty').select('machine_id').execute()).length === 0) break;
    }
    expect(await db.selectFrom('rollup_dirty').select('machine_id').execute()).toEqual([]);
    expect(await db.selectFrom('setup_dirty').select('machine_id').execute()).toEqual([]);

    const day = { start: D, end: D + DAY };
    const report = await oeeReport(ctx(clock), { ...day, interval: 'hour' });
    const calendar = await loadCalendar(db, company.id);
    const { rows } = await reportRollups(ctx(clock), calendar, [machineId], day, {
      useStored: true,
      key: 'late-order',
    });
    const totals = efficiencyTotals(sumRollups(rows.get(machineId) ?? [], day as never));
    const states = await db
      .selectFrom('state_intervals')
      .select(['start_at', 'end_at', 'state'])
      .where('machine_id', '=', machineId)
      .where('start_at', '<', D + DAY)
      .orderBy('start_at')
      .execute();
    expect(await overlappingIntervals(db, machineId), order.name).toEqual([]);
    const { recomputing: _, range: __, ...figures } = report;
    return {
      figures,
      totals,
      states: states.map((s) => ({ ...s, end_at: s.end_at == null ? null : Math.min(s.end_at, D + DAY) })),
      ids: { maintenance: maintenance.id, scrap: scrap.id, shift: shiftId, machine: machineId },
    };
  }

  it('gives the same report figures whatever order its data and commands arrive in', async () => {
    const results = [];
    for (const order of ORDERS) {
      const r = await figuresOf(order);
      results.push({ order: order.name, ...r });
      await ingest?.stop();
      ingest = undefined;
      await t?.cleanup();
      t = undefined;
    }
    const live = results[0]!;
    // The live figures are the scenario's: 30 minutes of planned setup, 20 minutes of Maintenance, a 10-minute
    // fault uncategorized, 2 parts rejected, in a 06:00–13:00 shift (the version the day before set it).
    expect(live.totals).toMatchObject({
      shiftTimeMs: 7 * HOUR,
      plannedDowntimeMs: 30 * MIN,
      rejectedParts: 2,
    });
    const step = (reasonId: string) =>
      live.figures.waterfall.filter((s) => s.reasonId === reasonId).map((s) => [s.key, s.ms]);
    expect(step('setup')).toEqual([['plannedDowntime', 30 * MIN]]);
    expect(step(live.ids.maintenance)).toEqual([['availabilityLoss', 20 * MIN]]);
    expect(live.figures.efficiency.quality).toBeLessThan(1);
    // Each order has its own database: its ids are named by what they are before comparing.
    const named = (x: typeof live) => {
      let text = JSON.stringify({ figures: x.figures, totals: x.totals, states: x.states });
      for (const [name, id] of Object.entries(x.ids)) text = text.replaceAll(id, name);
      return JSON.parse(text) as unknown;
    };
    for (const r of results.slice(1)) expect(named(r), r.order).toEqual(named(live));
  }, 120_000);
});
