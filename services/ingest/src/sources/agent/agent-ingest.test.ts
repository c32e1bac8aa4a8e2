// End to end: a machine whose data comes from an MTConnect agent (a real HTTP server serving
// the NIST Hurco04 description) through startIngest into the database, across restarts and a buffer overrun.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { createAdapter } from '../../../../api/src/repositories/adapters';
import { machineSourceRow } from '../../../../api/src/repositories/machine-sources';
import { aCompany, aMachine } from '../../../../api/src/testing/builders';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { fieldFromDataItem } from '../devices/adapter-import';
import { FakeAgent } from '../../testing/agent-test-support';
import { LOOPBACK_SOURCES } from '../../testing/test-support';
import { parseDevicesXml } from '../devices/devices';
import { startIngest } from '../../worker/ingest';
import type { IngestService } from '../../worker/ingest';

const nist = readFileSync(
  new URL('../../../../../../shared/data/mtconnect/nist_smstestbed_Devices.xml', import.meta.url),
  'utf8',
);
/** The NIST test bed's Devices.xml cut down to Hurco04 (an agent serving that one machine). */
const hurcoXml = (() => {
  const start = nist.indexOf('<Device name="Hurco04"');
  const end = nist.indexOf('</Device>', start) + '</Device>'.length;
  return `${nist.slice(0, nist.indexOf('<Devices>') + '<Devices>'.length)}${nist.slice(start, end)}${nist.slice(nist.lastIndexOf('</Devices>'))}`;
})();
const DEVICE = 'Hurco04';

describe.each(DIALECTS)('ingest from an MTConnect agent into %s', (dialect) => {
  let t: TestDb;
  let agent: FakeAgent;
  let ingest: IngestService | undefined;
  let machineId: string;
  let sourceId: string;

  let logs: string[] = [];
  async function setUp(bufferSize: number, withFields = true) {
    agent = await new FakeAgent({ devicesXml: hurcoXml, bufferSize }).listen();
    const company = await aCompany(t.db);
    const scope = companyScope(t.db, company.id);
    const items = parseDevicesXml(hurcoXml)[0]!.dataItems.filter((i) => i.name);
    const fields = withFields ? items.map((i) => fieldFromDataItem(i.name!, i)) : [];
    const adapterId = await createAdapter(scope, { name: 'Hurco', fields }, 0);
    machineId = await aMachine(t.db, company, { name: DEVICE });
    await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', machineId).execute();
    const row = machineSourceRow({
      machine_id: machineId,
      kind: 'agent',
      base_url: agent.url,
      poll_interval_ms: 20,
    });
    sourceId = row.id;
    await scope.insertInto('machine_sources', row).execute();
  }

  const start = async () => {
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      flushIntervalMs: 20,
      rollupIntervalMs: 0,
      backoff: { initialMs: 10, maxMs: 50 },
      log: (m) => logs.push(m),
    });
  };
  const stop = async () => {
    await ingest?.stop();
    ingest = undefined;
  };
  const position = async () =>
    (
      await t.db
        .selectFrom('machine_sources')
        .select('agent_next_sequence')
        .where('id', '=', sourceId)
        .executeTakeFirstOrThrow()
    ).agent_next_sequence;
  const stored = (key: string) =>
    t.db
      .selectFrom('observations')
      .select(['ts', 'value'])
      .where('machine_id', '=', machineId)
      .where('key', '=', key)
      .orderBy('ts')
      .execute();
  const live = () =>
    t.db.selectFrom('machine_live').selectAll().where('machine_id', '=', machineId).executeTakeFirst();
  /** What the agent's adapter reports: each call one observation, a millisecond after the previous. */
  let clock = 0;
  const report = (key: string, value: string) =>
    agent.add(DEVICE, key, value, (clock = Math.max(Date.now(), clock + 1)));
  /** Starts the worker again, waits until it caught up, returns its requests (a poll of the stopped one may come first). */
  const restart = async () => {
    const before = agent.requests.length;
    await start();
    await caughtUp();
    return agent.requests.slice(agent.requests.indexOf('probe', before));
  };
  /** Waits until the saved position reached the agent's; a worker that never gets there says what it did. */
  const caughtUp = async () => {
    const wanted = agent.lastSequence + 1;
    try {
      // Generous: with every suite running at once on two cores, a restart's probe, sample and /current plus
      // the write that saves the position can take seconds.
      await expect.poll(position, { timeout: 30_000, interval: 20 }).toBe(wanted);
    } catch {
      const flushed = await Promise.race([
        ingest?.flush().then(() => 'a flush completes'),
        new Promise((resolve) => setTimeout(() => resolve('a flush hangs'), 5_000)),
      ]);
      throw new Error(
        `the saved position stayed at ${await position()}, not ${wanted} (${String(flushed)}); ` +
          `worker log: ${JSON.stringify(logs.slice(-30))}; agent requests: ${JSON.stringify(agent.requests.slice(-30))}`,
      );
    }
  };

  beforeEach(async () => {
    t = await freshDb(dialect);
    logs = [];
  });
  afterEach(async () => {
    await stop();
    await agent.close();
    await t.cleanup();
  });

  it('stores and derives what the agent reports, and resumes from the saved sequence without doubling', async () => {
    await setUp(10_000);
    await start();
    await caughtUp(); // the first /current: every item UNAVAILABLE, as an agent starts
    report('avail', 'AVAILABLE');
    report('Program_Name_Running', 'O1234');
    report('Part_Count', '10');
    report('Program_Status', 'ACTIVE');
    await caughtUp();
    await expect.poll(async () => (await live())?.state, { timeout: 5000 }).toBe('ACTIVE');
    expect((await live())?.program).toBe('O1234');
    // One part per millisecond at least: the worker caps machine times at its own clock, and counts that land
    // in one millisecond are one cycle (decision 0100).
    for (let part = 11; part <= 13; part++) {
      report('Part_Count', String(part));
      await new Promise((r) => setTimeout(r, 5));
    }
    await caughtUp();
    await expect
      .poll(
        async () =>
          (await t.db.selectFrom('cycles').select('count').where('machine_id', '=', machineId).execute())
            .length,
      )
      .toBe(3);

    // Down for a while: the agent goes on buffering, the worker picks up exactly where it stopped.
    await stop();
    const saved = await position();
    report('Part_Count', '14');
    report('Program_Status', 'READY');
    const requests = await restart();
    expect(requests.slice(0, 2)).toEqual(['probe', `sample?from=${saved}&count=1000`]);
    expect(requests).not.toContain('current');
    await expect.poll(async () => (await live())?.state, { timeout: 5000 }).toBe('INACTIVE');
    expect((await stored('Part_Count')).map((o) => o.value)).toEqual([null, '10', '11', '12', '13', '14']);
    // The /current at first start brought each item's UNAVAILABLE once; nothing came twice since.
    expect((await stored('Program_Status')).map((o) => o.value)).toEqual([null, 'ACTIVE', 'READY']);
    const cycles = await t.db
      .selectFrom('cycles')
      .select('count')
      .where('machine_id', '=', machineId)
      .execute();
    // Decision 0100: the first count after a disconnect is a baseline, so 13 → 14 across the restart is none.
    expect(cycles.map((c) => c.count)).toEqual([1, 1, 1]);
  });

  it('places an UNAVAILABLE the agent stamped before data it had already sent after that data (METRICS.md §1)', async () => {
    await setUp(10_000);
    await start();
    await caughtUp();
    report('avail', 'AVAILABLE');
    report('Program_Status', 'READY');
    report('Program_Status', 'ACTIVE');
    await caughtUp();
    await expect.poll(async () => (await live())?.state, { timeout: 5000 }).toBe('ACTIVE');
    const active = (await stored('Program_Status')).at(-1)!.ts;
    // The agent loses the adapter and stamps it with its own clock, 5 s behind the adapter's.
    agent.add(DEVICE, 'avail', 'UNAVAILABLE', active - 5000);
    await caughtUp();
    await expect.poll(async () => (await live())?.state, { timeout: 5000 }).toBe('UNAVAILABLE');
    await ingest!.flush();
    // Stored as the agent said it (no value), at the time it takes effect.
    expect((await stored('avail')).at(-1)).toEqual({ ts: active + 1, value: null });
    const intervals = await t.db
      .selectFrom('state_intervals')
      .select(['state', 'start_at'])
      .where('machine_id', '=', machineId)
      .orderBy('start_at')
      .execute();
    expect(intervals.slice(-2)).toEqual([
      { state: 'ACTIVE', start_at: active },
      { state: 'UNAVAILABLE', start_at: active + 1 },
    ]);
  });

  it('recovers through /current when the agent buffer moved past the saved sequence', async () => {
    await setUp(30);
    await start();
    report('avail', 'AVAILABLE');
    report('Program_Status', 'ACTIVE');
    report('Part_Count', '1');
    await caughtUp();
    await stop();
    const saved = await position();

    // Far more than the buffer holds arrives while the worker is away: `saved` is no longer in the buffer.
    for (let part = 2; part <= 60; part++) report('Part_Count', String(part));
    report('Program_Status', 'FEED_HOLD');
    expect(agent.firstSequence).toBeGreaterThan(saved!);
    expect((await restart()).slice(0, 3)).toEqual(['probe', `sample?from=${saved}&count=1000`, 'current']);
    await expect.poll(async () => (await live())?.execution, { timeout: 5000 }).toBe('FEED_HOLD');
    expect((await live())?.part_count).toBe(60);

    // And it carries on from the /current's position.
    report('Program_Status', 'ACTIVE');
    await caughtUp();
    await expect.poll(async () => (await live())?.state, { timeout: 5000 }).toBe('ACTIVE');
    const statuses = (await stored('Program_Status')).map((o) => o.value);
    expect(statuses.slice(-2)).toEqual(['FEED_HOLD', 'ACTIVE']);
    // The overrun lost data: the worker's log says so.
    expect(logs.filter((l) => /buffer moved past sequence/.test(l))).toHaveLength(1);
  }, 90_000);

  it('counts what the agent sent that could not be read against the source, a document at a time', async () => {
    await setUp(10_000);
    await start();
    await caughtUp();
    const counters = () =>
      t.db
        .selectFrom('machine_sources')
        .select(['stat_lines', 'stat_rejected'])
        .where('id', '=', sourceId)
        .executeTakeFirstOrThrow();
    const before = await counters();
    const next = agent.lastSequence + 1;
    // Two observations without a sequence in one answer (one rejected "line"), then no document at all.
    agent.script(
      {
        status: 200,
        body:
          `<MTConnectStreams><Header instanceId="${agent.instanceId}" firstSequence="1" nextSequence="${next}" lastSequence="${next - 1}"/>` +
          `<Streams><DeviceStream name="${DEVICE}"><ComponentStream component="Controller" name="controller"><Events>` +
          `<Execution dataItemId="x1" timestamp="2024-01-01T00:00:00Z">ACTIVE</Execution>` +
          `<Execution dataItemId="x2" timestamp="2024-01-01T00:00:00Z">READY</Execution>` +
          `</Events></ComponentStream></DeviceStream></Streams></MTConnectStreams>`,
      },
      { status: 200, body: 'not an MTConnect document' },
    );
    await expect
      .poll(async () => (await counters()).stat_rejected, { timeout: 5000 })
      .toBe(before.stat_rejected + 2);
    report('Program_Status', 'ACTIVE');
    await caughtUp();
    await ingest!.flush();
    expect((await counters()).stat_rejected).toBe(before.stat_rejected + 2);
  });

  it("derives through the /probe's data items when the machine's adapter maps no fields", async () => {
    await setUp(10_000, false);
    await start();
    await caughtUp();
    report('avail', 'AVAILABLE');
    report('Program_Status', 'ACTIVE');
    await caughtUp();
    await expect.poll(async () => (await live())?.state, { timeout: 5000 }).toBe('ACTIVE');
  });
});
