// Decision 1130: the same machine id under another company is another machine. Late data re-derives a machine from
// its company's stored observations only: another company's rows stored under the id (a gateway or adapter of that
// company reporting it) never enter its history.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { aCompany } from '../../../api/src/testing/builders';
import { aGatewayMachine, drainInbox, gatewayPusher } from '../testing/gateway-push';
import { LOOPBACK_SOURCES } from '../testing/test-support';
import { startIngest } from './ingest';
import type { IngestService } from './ingest';
import { MachinePipeline } from './pipeline';
import { feedStored } from './rebuild';
import { loadFieldMaps } from './store';

const iso = (ms: number) => new Date(ms).toISOString();
const MIN = 60_000;
const HOUR = 3_600_000;

describe.each(DIALECTS)('late data of a machine id two companies store on %s', (dialect) => {
  let t: TestDb;
  let ingest: IngestService | undefined;
  let clock = 0;
  const now = () => clock;

  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await ingest?.stop();
    ingest = undefined;
    await t.cleanup();
  });

  it("re-derives the company's machine from its own observations, not another company's of the same id", async () => {
    const mine = await aCompany(t.db);
    const theirs = await aCompany(t.db);
    const { scope, machineId } = await aGatewayMachine(t.db, mine);
    const inboxEmpty = () => drainInbox(t.db, ingest!);

    const push = gatewayPusher(t.db, mine.id, machineId);
    const T = Date.UTC(2026, 10, 20, 12);
    const lines = [`${iso(T - 30 * HOUR)}|avail|AVAILABLE|execution|ACTIVE|program|O100|part_count|0`];
    for (let k = 1; k < 450; k++) lines.push(`${iso(T - 30 * HOUR + k * 4 * MIN)}|part_count|${k}`);
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

    // Another company's rows under the same id, in the time the late data re-derives: a stop and a disconnect.
    const late = T - 24 * HOUR + 2 * MIN;
    await gatewayPusher(t.db, theirs.id, machineId, { inbox: false })(
      [
        `${iso(late + 30 * MIN)}|execution|STOPPED|avail|UNAVAILABLE`,
        `${iso(late + 90 * MIN)}|execution|ACTIVE`,
      ],
      T,
    );
    // This company's edge comes back with a stop held for a day.
    clock = T + MIN;
    await push([`${iso(late)}|execution|READY`, `${iso(late + 16 * MIN)}|execution|ACTIVE`], T + MIN - 10);
    await inboxEmpty();

    // What is stored equals a derivation of this company's observations alone.
    const rows = await scope
      .selectFrom('observations')
      .select(['ts', 'key', 'value'])
      .where('machine_id', '=', machineId)
      .orderBy('ts')
      .execute();
    const fields = (await loadFieldMaps(t.db, [machineId])).get(machineId)!;
    const pipeline = new MachinePipeline(mine.id, machineId, fields, 'part_count', 'gateway', rows[0]!.ts);
    feedStored(pipeline, rows);
    const want = pipeline.take(clock)!.result.intervals.map((r) => ({
      start_at: r.start,
      end_at: r.open ? null : r.end,
      state: r.state,
    }));
    const states = await scope
      .selectFrom('state_intervals')
      .select(['start_at', 'end_at', 'state'])
      .where('machine_id', '=', machineId)
      .orderBy('start_at')
      .execute();
    expect(
      states.map((s) => ({
        ...s,
        start_at: Number(s.start_at),
        end_at: s.end_at == null ? null : Number(s.end_at),
      })),
    ).toEqual(want);
    expect(states.some((s) => s.state === 'INACTIVE' && Number(s.start_at) === late)).toBe(true);
    expect(states.some((s) => s.state === 'UNAVAILABLE')).toBe(false);
  }, 60_000);
});
