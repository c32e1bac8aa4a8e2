import mqtt from 'mqtt';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { createAdapter } from '../../../api/src/repositories/adapters';
import { machineSourceRow } from '../../../api/src/repositories/machine-sources';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import type { TestBroker } from '../testing/broker-test-support';
import { ensureMosquitto } from '../testing/broker-test-support';
import { LOOPBACK_SOURCES } from '../testing/test-support';
import { demoAdapterFields } from '../demo/demo-adapter';
import { startIngest } from '../worker/ingest';
import type { IngestService } from '../worker/ingest';

const iso = (ms: number) => new Date(ms).toISOString();

describe.each(DIALECTS)('ingest from MQTT and gateway pushes into %s', (dialect) => {
  let t: TestDb;
  let broker: TestBroker;
  let ingest: IngestService | undefined;

  beforeAll(async () => {
    broker = await ensureMosquitto();
  });
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await ingest?.stop();
    ingest = undefined;
    await t.cleanup();
  });

  async function machineWithSource(kind: 'mqtt' | 'gateway', ref: string) {
    const company = await aCompany(t.db);
    const scope = companyScope(t.db, company.id);
    const companyRef = `c${crypto.randomUUID().slice(0, 8)}`;
    await t.db.updateTable('companies').set({ mqtt_ref: companyRef }).where('id', '=', company.id).execute();
    const adapterId = await createAdapter(scope, { name: 'demo', fields: demoAdapterFields() }, 0);
    const machineId = await aMachine(t.db, company, { name: ref });
    await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', machineId).execute();
    let gatewayId: string | null = null;
    if (kind === 'gateway') {
      gatewayId = crypto.randomUUID();
      await t.db
        .insertInto('gateways')
        .values({
          id: gatewayId,
          company_id: company.id,
          name: 'edge',
          asset_serial: null,
          edge_ref: null,
          token_hash: crypto.randomUUID(),
          state: 'active',
          activation_status: 'activated',
          ingest_multiplier: 1,
          pusher_config: '{}',
          supervisor_config: '{}',
          last_sequence: null,
          last_response: null,
          buffered_records: null,
          last_shdr: null,
          supervisor_last_join: null,
          created_at: 0,
        } as never)
        .execute();
    }
    await scope
      .insertInto(
        'machine_sources',
        machineSourceRow({ machine_id: machineId, kind, gateway_id: gatewayId, machine_ref: ref }),
      )
      .execute();
    return { company, companyRef, machineId };
  }

  const live = (machineId: string) =>
    t.db.selectFrom('machine_live').selectAll().where('machine_id', '=', machineId).executeTakeFirst();

  it('derives a machine from SHDR lines published on its MQTT topic, stores them, and counts rejects', async () => {
    const { companyRef, machineId } = await machineWithSource('mqtt', 'press-7');
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      flushIntervalMs: 20,
      mqttUrl: broker.url,
      rollupIntervalMs: 0,
    });
    const client = await mqtt.connectAsync(broker.url);
    try {
      const t0 = Date.now() - 5000;
      await client.publishAsync(
        `takt/${companyRef}/press-7/shdr`,
        `${iso(t0)}|avail|AVAILABLE|execution|ACTIVE|program|O77\nnot a line at all\n`,
        { qos: 1 },
      );
      await expect.poll(async () => (await live(machineId))?.state, { timeout: 10_000 }).toBe('ACTIVE');
      expect(await live(machineId)).toMatchObject({ program: 'O77', connection: 'CONNECTED' });
      await ingest.flush();
      const stored = await t.db
        .selectFrom('observations')
        .select('key')
        .where('machine_id', '=', machineId)
        .execute();
      expect(stored.map((o) => o.key)).toEqual(expect.arrayContaining(['avail', 'execution', 'program']));
      await expect
        .poll(
          async () =>
            (
              await t.db
                .selectFrom('machine_sources')
                .select('stat_rejected')
                .where('machine_id', '=', machineId)
                .executeTakeFirstOrThrow()
            ).stat_rejected,
          {
            timeout: 5000,
          },
        )
        .toBe(1); // one message with a bad line: one rejected line
    } finally {
      await client.endAsync();
    }
  }, 30_000);

  it('reads MESSAGE items by the field mapping, and counts and logs refused messages and unknown machines', async () => {
    const { company, companyRef, machineId } = await machineWithSource('mqtt', 'press-9');
    const { adapter_id } = await t.db
      .selectFrom('machines')
      .select('adapter_id')
      .where('id', '=', machineId)
      .executeTakeFirstOrThrow();
    await companyScope(t.db, company.id)
      .insertInto('adapter_fields', {
        id: crypto.randomUUID(),
        adapter_id: adapter_id!,
        name: 'msg',
        data_item_type: 'MESSAGE',
        data_item_subtype: null,
        component_name: 'controller',
        component_type: 'Controller',
      })
      .execute();
    const logs: string[] = [];
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      flushIntervalMs: 20,
      mqttUrl: broker.url,
      rollupIntervalMs: 0,
      log: (m) => logs.push(m),
    });
    const client = await mqtt.connectAsync(broker.url);
    const topic = (machineRef: string, format: string) => `takt/${companyRef}/${machineRef}/${format}`;
    try {
      const t0 = Date.now() - 5000;
      await client.publishAsync(topic('press-9', 'shdr'), `${iso(t0)}|msg|M1|Door open|execution|ACTIVE`, {
        qos: 1,
      });
      await client.publishAsync(topic('press-9', 'status'), 'MAYBE', { qos: 1 });
      await client.publishAsync(topic('press-9', 'shdr'), 'x'.repeat((1 << 20) + 1), { qos: 1 });
      await client.publishAsync(topic('ghost', 'shdr'), `${iso(t0)}|execution|ACTIVE`, { qos: 1 });
      await client.publishAsync(topic('press-9', 'bogus'), 'anything', { qos: 1 });
      const counters = () =>
        t.db
          .selectFrom('machine_sources')
          .select(['stat_lines', 'stat_observations', 'stat_rejected'])
          .where('machine_id', '=', machineId)
          .executeTakeFirstOrThrow();
      await expect
        .poll(counters, { timeout: 10_000 })
        .toEqual({ stat_lines: 3, stat_observations: 2, stat_rejected: 2 });
      const msg = await t.db
        .selectFrom('observations')
        .select('value')
        .where('machine_id', '=', machineId)
        .where('key', '=', 'msg')
        .execute();
      expect(msg).toEqual([{ value: 'Door open' }]);
      await expect
        .poll(() => logs.filter((l) => /ghost/.test(l) && /no machine/.test(l)).length, { timeout: 5000 })
        .toBe(1);
      // The first refusal of the machine is logged at once; the next within a minute is held back.
      expect(logs.filter((l) => /refused/.test(l) && /press-9\/status/.test(l))).toHaveLength(1);
      // Published last and counted nowhere: the counters above can match before it is read.
      await expect
        .poll(() => logs.some((l) => /refused/.test(l) && /bogus/.test(l)), { timeout: 5000 })
        .toBe(true);
    } finally {
      await client.endAsync();
    }
  }, 30_000);

  it('acknowledges an MQTT message only once it is stored: a worker stopped while the database fails gets it again', async () => {
    const { companyRef, machineId } = await machineWithSource('mqtt', 'press-8');
    let failing = false;
    // The database goes away: every statement fails while `failing` is set.
    const flaky = t.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        if (failing) throw new Error('database down');
        return args.result;
      },
    });
    const mqttClientId = `takt-test-${crypto.randomUUID().slice(0, 8)}`;
    const options = {
      flushIntervalMs: 20,
      mqttUrl: broker.url,
      mqttClientId,
      rollupIntervalMs: 0,
      log: () => {},
    };
    ingest = await startIngest({ sourcePolicy: LOOPBACK_SOURCES, db: flaky, ...options });
    const client = await mqtt.connectAsync(broker.url);
    try {
      failing = true;
      await client.publishAsync(
        `takt/${companyRef}/press-8/shdr`,
        `${iso(Date.now() - 1000)}|execution|ACTIVE`,
        {
          qos: 1,
        },
      );
      await expect
        .poll(() => [...ingest!.counters().values()].reduce((n, c) => n + c.lines, 0), { timeout: 10_000 })
        .toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 200)); // a few failed writes
      await ingest.stop(); // the worker goes away before it could store the message
      ingest = undefined;
      failing = false;
      const stored = () =>
        t.db
          .selectFrom('observations')
          .select('value')
          .where('machine_id', '=', machineId)
          .where('key', '=', 'execution')
          .execute();
      expect(await stored()).toEqual([]);

      // Same client id, persistent session: the broker delivers the unacknowledged message again.
      ingest = await startIngest({ sourcePolicy: LOOPBACK_SOURCES, db: t.db, ...options });
      await expect.poll(async () => (await live(machineId))?.state, { timeout: 10_000 }).toBe('ACTIVE');
      expect(await stored()).toEqual([{ value: 'ACTIVE' }]);
    } finally {
      await client.endAsync();
    }
  }, 30_000);

  it('derives pushed gateway lines from the inbox once, without storing their observations twice', async () => {
    const { company, machineId } = await machineWithSource('gateway', 'lathe-3');
    const t0 = Date.now() - 60_000;
    const lines = [
      `${iso(t0)}|avail|AVAILABLE|execution|READY`,
      `${iso(t0 + 1000)}|execution|ACTIVE|part_count|5`,
    ];
    // What the push route stores: the observations, and the lines for the worker.
    await t.db
      .insertInto('observations')
      .values([
        { company_id: company.id, machine_id: machineId, ts: t0, key: 'execution', value: 'READY' },
        { company_id: company.id, machine_id: machineId, ts: t0 + 1000, key: 'execution', value: 'ACTIVE' },
      ])
      .execute();
    await t.db
      .insertInto('ingest_inbox')
      .values(
        lines.map((line, i) => ({
          id: crypto.randomUUID(),
          company_id: company.id,
          machine_id: machineId,
          received_at: t0 + i * 1000 + 10,
          seq: i + 1,
          line,
        })),
      )
      .execute();
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      flushIntervalMs: 20,
      inboxIntervalMs: 20,
      rollupIntervalMs: 0,
    });
    await expect.poll(async () => (await live(machineId))?.state, { timeout: 10_000 }).toBe('ACTIVE');
    await expect
      .poll(async () => (await t.db.selectFrom('ingest_inbox').selectAll().execute()).length, {
        timeout: 5000,
      })
      .toBe(0);
    await ingest.flush();
    const intervals = await t.db
      .selectFrom('state_intervals')
      .select(['state', 'start_at'])
      .where('machine_id', '=', machineId)
      .orderBy('start_at')
      .execute();
    expect(intervals.at(-1)).toMatchObject({ state: 'ACTIVE', start_at: t0 + 1000 });
    const execs = await t.db
      .selectFrom('observations')
      .select('value')
      .where('machine_id', '=', machineId)
      .where('key', '=', 'execution')
      .execute();
    expect(execs).toHaveLength(2);
  }, 30_000);

  /** One pushed line as the push route leaves it: the gateway's last response, and the line in the inbox. */
  async function pushed(companyId: string, machineId: string, line: string, receivedAt: number) {
    const source = await t.db
      .selectFrom('machine_sources')
      .select('gateway_id')
      .where('machine_id', '=', machineId)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('gateways')
      .set({ last_response: receivedAt })
      .where('id', '=', source.gateway_id!)
      .execute();
    await t.db
      .insertInto('ingest_inbox')
      .values({
        id: crypto.randomUUID(),
        company_id: companyId,
        machine_id: machineId,
        received_at: receivedAt,
        seq: receivedAt,
        line,
      })
      .execute();
  }

  it("keeps a quiet gateway machine's state while the gateway reports, and drops its link when edge health turns NotReporting", async () => {
    const { company, machineId } = await machineWithSource('gateway', 'mill-9');
    const quiet = await machineWithSource('gateway', 'mill-10');
    const t0 = Date.now();
    // mill-9's gateway last answered 400 s ago: past the 300000 ms of reports-admin §9.
    await pushed(company.id, machineId, `${iso(t0 - 400_000)}|avail|AVAILABLE|execution|READY`, t0 - 400_000);
    // mill-10's gateway answered 100 s ago, and its machine has said nothing since it went idle then.
    await pushed(
      quiet.company.id,
      quiet.machineId,
      `${iso(t0 - 100_000)}|avail|AVAILABLE|execution|READY`,
      t0 - 100_000,
    );
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      flushIntervalMs: 20,
      inboxIntervalMs: 20,
      tickIntervalMs: 50,
      rollupIntervalMs: 0,
    });
    await expect
      .poll(async () => (await live(machineId))?.connection, { timeout: 10_000 })
      .toBe('DISCONNECTED');
    await ingest.flush();
    const intervals = await t.db
      .selectFrom('state_intervals')
      .select(['state', 'start_at', 'end_at'])
      .where('machine_id', '=', machineId)
      .orderBy('start_at')
      .execute();
    expect(intervals).toEqual([
      { state: 'INACTIVE', start_at: t0 - 400_000, end_at: t0 - 100_000 },
      { state: 'UNAVAILABLE', start_at: t0 - 100_000, end_at: null },
    ]);
    const drop = await t.db
      .selectFrom('observations')
      .select(['ts', 'value'])
      .where('machine_id', '=', machineId)
      .where('key', '=', '@connection')
      .execute();
    expect(drop).toContainEqual({ ts: t0 - 100_000, value: 'DISCONNECTED' });

    // The quiet machine keeps its state, and the worker vouches for its link (the gateway reports).
    const q = await live(quiet.machineId);
    expect(q).toMatchObject({ state: 'INACTIVE', connection: 'CONNECTED' });
    expect(q!.last_heartbeat!).toBeGreaterThanOrEqual(t0);

    // The gateway comes back: its next line ends the drop.
    const back = Date.now();
    await pushed(company.id, machineId, `${iso(back)}|execution|ACTIVE`, back);
    await expect.poll(async () => (await live(machineId))?.state, { timeout: 10_000 }).toBe('ACTIVE');
    expect((await live(machineId))?.connection).toBe('CONNECTED');
  }, 30_000);
});
