import { randomUUID } from 'node:crypto';
import mqtt from 'mqtt';
import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../../testing/broker-test-support';
import { ensureMosquitto, startMosquitto } from '../../testing/broker-test-support';
import type { MqttMeta, MqttStatus, MqttSubscriberOptions } from './mqtt';
import { MqttSubscriber } from './mqtt';
import type { Observation } from '../shdr/shdr';
import { waitFor } from '../../testing/test-support';

let broker: TestBroker;
beforeAll(async () => {
  broker = await ensureMosquitto();
});
afterAll(async () => {
  await broker.stop();
});

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Received {
  machineRef: string;
  observations: Observation[];
  rejected: number;
  meta: MqttMeta;
}

async function subscriber(url: string, extra: Partial<MqttSubscriberOptions> = {}) {
  const prefix = extra.prefix ?? `test-${randomUUID()}`;
  const received: Received[] = [];
  const rejectedTopics: string[] = [];
  const statuses: MqttStatus[] = [];
  const machineStatus: Array<[string, boolean]> = [];
  const sub = new MqttSubscriber({
    url,
    prefix,
    reconnectMs: 50,
    onObservations: (machineRef, observations, rejected, meta) =>
      void received.push({ machineRef, observations, rejected, meta }),
    onRejected: (topic) => rejectedTopics.push(topic),
    onStatus: (s) => statuses.push(s),
    onMachineStatus: (machineRef, online) => machineStatus.push([machineRef, online]),
    ...extra,
  });
  cleanups.push(() => sub.stop());
  sub.start();
  await sub.subscribed();
  return { sub, prefix, received, rejectedTopics, statuses, machineStatus };
}

async function publisher(url: string, options: mqtt.IClientOptions = {}): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, ...options });
  cleanups.push(() => client.endAsync(true));
  return client;
}

const pairs = (r: Received[]) => r.flatMap((x) => x.observations.map((o) => [x.machineRef, o.key, o.value]));

describe('MqttSubscriber', () => {
  it('turns SHDR and JSON payloads into observations for the machine in the topic', async () => {
    const s = await subscriber(broker.url);
    const pub = await publisher(broker.url);
    await pub.publishAsync(
      `${s.prefix}/acme/lathe-1/shdr`,
      '2022-08-08T13:51:34.7167146Z|pexecution|ACTIVE|ppartcount|3\r\n2022-08-08T13:51:35Z|system|FAULT|E12|2||Overtravel\n',
      { qos: 1 },
    );
    await pub.publishAsync(
      `${s.prefix}/acme/mill-2/json`,
      JSON.stringify([
        { ts: '2024-05-01T10:00:00Z', values: { execution: 'READY', Sspeed: 1200, door: null } },
        { ts: 1_714_557_601_000, conditions: [{ key: 'system', level: 'warning', nativeCode: 'W1' }] },
      ]),
      { qos: 1 },
    );
    await waitFor(() => s.received.length === 2, 5_000, 'two messages');
    expect(pairs(s.received)).toEqual([
      ['lathe-1', 'pexecution', 'ACTIVE'],
      ['lathe-1', 'ppartcount', '3'],
      ['lathe-1', 'system', 'FAULT'],
      ['mill-2', 'execution', 'READY'],
      ['mill-2', 'Sspeed', '1200'],
      ['mill-2', 'door', null],
      ['mill-2', 'system', 'WARNING'],
    ]);
    expect(s.received[0]?.observations[0]?.ts).toBe(Date.UTC(2022, 7, 8, 13, 51, 34, 716));
    expect(s.received[0]?.observations[2]?.condition).toMatchObject({
      nativeCode: 'E12',
      message: 'Overtravel',
    });
    expect(s.received[1]?.meta).toMatchObject({ companyRef: 'acme', format: 'json' });
    expect(s.sub.counters).toMatchObject({ messages: 2, observations: 7, rejected: 0 });
  });

  it('counts malformed payloads and topics, keeps the good pairs, and keeps going', async () => {
    const s = await subscriber(broker.url);
    const pub = await publisher(broker.url);
    const t = (machine: string, format: string) => `${s.prefix}/acme/${machine}/${format}`;
    await pub.publishAsync(t('m1', 'json'), '{"values": {"a": 1', { qos: 1 }); // cut JSON
    await pub.publishAsync(t('m1', 'xml'), '<x/>', { qos: 1 }); // unknown format
    await pub.publishAsync(t('m1', 'json'), '{"values": {"a": {"nested": 1}, "b": "ok"}}', { qos: 1 });
    await pub.publishAsync(t('m1', 'shdr'), '2017\n2024-01-01T00:00:00Z|execution|ACTIVE||x', { qos: 1 });
    await pub.publishAsync(t('m1', 'shdr'), Buffer.from([0xff, 0xfe, 0x00, 0x7c]), { qos: 1 });
    await pub.publishAsync(t('m1', 'json'), '{"values": {"last": "yes"}}', { qos: 1 });
    await waitFor(() => pairs(s.received).some((p) => p[1] === 'last'), 5_000, 'the last good message');
    expect(pairs(s.received)).toEqual([
      ['m1', 'b', 'ok'],
      ['m1', 'execution', 'ACTIVE'],
      ['m1', 'last', 'yes'],
    ]);
    expect(s.rejectedTopics).toEqual([t('m1', 'xml')]);
    expect(s.sub.counters).toMatchObject({ messages: 6, rejectedMessages: 1 });
    // cut JSON 1 + topic 1 + nested value 1 + `2017` 1 + empty key 1 + binary junk ≥1
    expect(s.sub.counters.rejected).toBeGreaterThanOrEqual(6);
  });

  it('listens to one company only when told so', async () => {
    const prefix = `test-${randomUUID()}`;
    const s = await subscriber(broker.url, { prefix, companyRef: 'acme' });
    const pub = await publisher(broker.url);
    await pub.publishAsync(`${prefix}/other/m1/json`, '{"values":{"x":"other"}}', { qos: 1 });
    await pub.publishAsync(`${prefix}/acme/m1/json`, '{"values":{"x":"mine"}}', { qos: 1 });
    await waitFor(() => s.received.length > 0, 5_000, 'a message');
    expect(pairs(s.received)).toEqual([['m1', 'x', 'mine']]);
    expect(s.sub.filter).toBe(`${prefix}/acme/+/+`);
  });

  it("reports an edge's status topic, including the broker's last will when it vanishes", async () => {
    const s = await subscriber(broker.url);
    const topic = `${s.prefix}/acme/m7/status`;
    const edge = await publisher(broker.url, {
      will: { topic, payload: Buffer.from('OFFLINE'), qos: 1, retain: false },
    });
    await edge.publishAsync(topic, 'ONLINE', { qos: 1 });
    await waitFor(() => s.machineStatus.length === 1, 5_000, 'ONLINE');
    edge.stream.destroy(); // a crash, not a clean DISCONNECT: the broker sends the will
    await waitFor(() => s.machineStatus.length === 2, 5_000, 'the last will');
    expect(s.machineStatus).toEqual([
      ['m7', true],
      ['m7', false],
    ]);
  });

  it('reconnects and resubscribes after the broker restarts', async () => {
    const own = await startMosquitto();
    let current: TestBroker | null = own;
    cleanups.push(async () => {
      await current?.stop();
    });
    const s = await subscriber(own.url);
    await own.stop();
    current = null;
    await waitFor(() => s.sub.status !== 'CONNECTED', 5_000, 'the lost link');
    current = await startMosquitto(own.port);
    await waitFor(() => s.sub.counters.connects >= 2 && s.sub.status === 'CONNECTED', 10_000, 'a reconnect');
    const pub = await publisher(own.url);
    // The subscription is renewed right after CONNACK; publish until it is in place.
    await waitFor(
      () => {
        pub
          .publishAsync(`${s.prefix}/acme/m1/json`, '{"values":{"after":"restart"}}', { qos: 1 })
          .catch(() => {}); // the ones still in flight when the test ends are cut off: fine
        return s.received.length > 0;
      },
      5_000,
      'data after the restart',
    );
    expect(pairs(s.received)[0]).toEqual(['m1', 'after', 'restart']);
    expect(s.statuses).toContain('DISCONNECTED');
  });

  it('with a persistent session, gets the QoS 1 messages published while it was away', async () => {
    const clientId = `takt-test-${randomUUID().slice(0, 8)}`;
    const prefix = `test-${randomUUID()}`;
    const first = await subscriber(broker.url, { prefix, clientId });
    await first.sub.stop();
    const pub = await publisher(broker.url);
    await pub.publishAsync(`${prefix}/acme/m1/shdr`, '2024-01-01T00:00:00Z|part_count|41', { qos: 1 });
    await pub.publishAsync(`${prefix}/acme/m1/shdr`, '2024-01-01T00:00:01Z|part_count|42', { qos: 1 });
    const second = await subscriber(broker.url, { prefix, clientId });
    await waitFor(() => second.received.length === 2, 5_000, 'the queued messages');
    expect(pairs(second.received)).toEqual([
      ['m1', 'part_count', '41'],
      ['m1', 'part_count', '42'],
    ]);
  });
});
