// Decision 1132: late data older than the raw retention floor is refused (counted and logged), never derived from a
// history that is no longer whole; late data after the floor whose rebuild would read back past it starts at the
// floor from the kept seeds (each key's last value), not from nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runRawRetention } from '@takt/db';
import { aCompany } from '../../../api/src/testing/builders';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { startIngest } from './ingest';
import type { IngestService } from './ingest';
import { LOOPBACK_SOURCES } from '../testing/test-support';
import { aGatewayMachine, gatewayPusher } from '../testing/gateway-push';

const iso = (ms: number) => new Date(ms).toISOString();
const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(DIALECTS)('late data and raw retention on %s', (dialect) => {
  let t: TestDb;
  let ingest: IngestService | undefined;
  let clock = 0;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await ingest?.stop();
    ingest = undefined;
    await t.cleanup();
  });

  it('refuses late data before the floor with a count, and rebuilds after it from the kept seeds', async () => {
    const company = await aCompany(t.db);
    const { scope, machineId } = await aGatewayMachine(t.db, company);
    // What the push route stores for a gateway's records: their observations and the inbox lines, together.
    const push = gatewayPusher(t.db, company.id, machineId);
    const logged: string[] = [];
    const refused: number[] = [];
    const T = Date.UTC(2026, 10, 20, 12);
    clock = T;
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      now: () => clock,
      flushIntervalMs: 20,
      inboxIntervalMs: 20,
      rollupIntervalMs: 0,
      tickIntervalMs: 3_600_000,
      log: (line) => logged.push(line),
      onLateRefused: (n) => refused.push(n),
    });
    const derived = async () => {
      await expect
        .poll(async () => (await t.db.selectFrom('ingest_inbox').select('id').execute()).length, {
          timeout: 10_000,
        })
        .toBe(0);
      await ingest!.flush();
    };
    // Ten days in cycle: execution, availability and the program sent once, at the start.
    const first = T - 10 * DAY;
    const lines = [`${iso(first)}|avail|AVAILABLE|execution|ACTIVE|program|O100|part_count|0`];
    for (let k = 1; k < 10 * 48; k++) lines.push(`${iso(first + k * 30 * MIN)}|part_count|${k}`);
    for (let i = 0; i < lines.length; i += 300) {
      await push(lines.slice(i, i + 300), T - MIN);
      await derived();
    }
    // Keep 4 days: the floor is the start of the UTC day 4 days back; the rows before it go, their last values stay.
    const pass = await runRawRetention(t.db, 4, T);
    const floor = pass.floor;
    expect(floor).toBe(Math.floor((T - 4 * DAY) / DAY) * DAY);
    const intervalsBefore = await scope
      .selectFrom('state_intervals')
      .select(['start_at', 'end_at', 'state'])
      .where('machine_id', '=', machineId)
      .where('start_at', '<', floor)
      .orderBy('start_at')
      .execute();

    // (1) The edge sends a stop from before the floor: refused, counted, logged; the derived past is unchanged.
    clock = T + MIN;
    await push([`${iso(floor - 6 * HOUR)}|execution|READY`], T + MIN - 10);
    await derived();
    expect(refused).toEqual([1]);
    expect(logged.some((l) => l.includes('refused 1 late observations') && l.includes(iso(floor)))).toBe(
      true,
    );
    expect(
      await scope
        .selectFrom('state_intervals')
        .select(['start_at', 'end_at', 'state'])
        .where('machine_id', '=', machineId)
        .where('start_at', '<', floor)
        .orderBy('start_at')
        .execute(),
    ).toEqual(intervalsBefore);

    // (2) A stop a day after the floor: the rebuild would read back past the floor; it starts there from the
    // seeds (execution ACTIVE, kept from before the floor), so the time before the stop stays in cycle.
    const late = floor + DAY + 2 * MIN;
    clock = T + 2 * MIN;
    await push(
      [`${iso(late)}|execution|READY`, `${iso(late + 16 * MIN)}|execution|ACTIVE`],
      T + 2 * MIN - 10,
    );
    await derived();
    expect(refused).toEqual([1]);
    const after = await scope
      .selectFrom('state_intervals')
      .select(['start_at', 'end_at', 'state'])
      .where('machine_id', '=', machineId)
      .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', floor)]))
      .where('start_at', '<=', late + 17 * MIN)
      .orderBy('start_at')
      .execute();
    const at = (ms: number) =>
      after.find((i) => i.start_at <= ms && (i.end_at == null || i.end_at > ms))?.state;
    expect(at(floor + HOUR)).toBe('ACTIVE');
    expect(at(late + MIN)).not.toBe('ACTIVE');
    expect(at(late + 17 * MIN)).toBe('ACTIVE');
  }, 90_000);
});
