import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentBatch, AgentClientOptions, AgentGap, AgentPosition, AgentStatus } from './agent-client';
import { AgentClient } from './agent-client';
import type { AgentObservation } from './agent-streams';
import { parseAgentDocument } from './agent-streams';
import { FakeAgent } from '../../testing/agent-test-support';
import { keyKindsFrom, parseDevicesXml, resolverForDevice } from '../devices/devices';
import { parseShdrLine, splitShdrStream } from '../shdr/shdr';
import { waitFor } from '../../testing/test-support';

function mtconnectFile(name: string): string {
  return readFileSync(new URL(`../../../../../../shared/data/mtconnect/${name}`, import.meta.url), 'utf8');
}

const cppagentXml = mtconnectFile('cppagent_demo_Devices.xml');
const nistXml = mtconnectFile('nist_smstestbed_Devices.xml');
const cppagentItems = parseDevicesXml(cppagentXml).flatMap((d) => d.dataItems).length;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function agent(options: Partial<ConstructorParameters<typeof FakeAgent>[0]> = {}): Promise<FakeAgent> {
  const fake = await new FakeAgent({ devicesXml: cppagentXml, bufferSize: 100_000, ...options }).listen();
  cleanups.push(() => fake.close());
  return fake;
}

/** Feeds the first `lines` data lines of a real SHDR log into the fake agent, as its adapter would. */
function feed(fake: FakeAgent, devicesXml: string, device: string, file: string, lines: number): number {
  const resolve = resolverForDevice(parseDevicesXml(devicesXml), device);
  const kinds = keyKindsFrom(resolve);
  const splitter = splitShdrStream();
  let added = 0;
  let taken = 0;
  for (const raw of splitter.push(mtconnectFile(file))) {
    if (taken++ >= lines) break;
    const line = parseShdrLine(raw, 0, kinds);
    if (line.type !== 'data') continue;
    for (const o of line.observations) {
      if (o.kind === 'asset' || !resolve(o.key)) continue;
      fake.add(device, o.key, o.value, o.ts, o.condition);
      added++;
    }
  }
  return added;
}

interface Harness {
  client: AgentClient;
  received: AgentObservation[];
  batches: AgentBatch[];
  saved: AgentPosition[];
  gaps: AgentGap[];
  statuses: AgentStatus[];
  errors: Error[];
}

function client(
  fake: FakeAgent,
  extra: Partial<AgentClientOptions> = {},
  stored: AgentPosition | null = null,
): Harness {
  const h: Omit<Harness, 'client'> = {
    received: [],
    batches: [],
    saved: [],
    gaps: [],
    statuses: [],
    errors: [],
  };
  const c = new AgentClient({
    baseUrl: fake.url,
    intervalMs: 10,
    count: 1_000,
    backoff: { initialMs: 5, maxMs: 40 },
    loadSequence: () => stored,
    saveSequence: (p) => void h.saved.push(p),
    onObservations: (obs, batch) => {
      h.received.push(...obs);
      h.batches.push(batch);
    },
    onGap: (gap) => h.gaps.push(gap),
    onStatus: (s) => h.statuses.push(s),
    onError: (e) => h.errors.push(e),
    ...extra,
  });
  cleanups.push(() => c.stop());
  return { client: c, ...h };
}

async function steps(c: AgentClient, n: number) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await c.step());
  return out;
}

describe('AgentClient', () => {
  it('probes, takes /current, then samples the real Okuma stream in sequence order', async () => {
    const fake = await agent();
    const h = client(fake);
    const [probe, current] = await steps(h.client, 2);
    expect(probe).toMatchObject({ ok: true, action: 'probe' });
    expect(h.client.devices?.map((d) => d.name)).toEqual(['OKUMA', 'Mazak']);
    expect(current).toMatchObject({ ok: true, action: 'current', observations: cppagentItems });
    expect(h.received.every((o) => o.value === null || o.kind === 'condition')).toBe(true);
    expect(h.saved.at(-1)).toEqual({ instanceId: String(fake.instanceId), nextSequence: cppagentItems + 1 });

    const added = feed(fake, cppagentXml, 'OKUMA', 'cppagent_demo_okuma.shdr.txt', 400);
    h.received.length = 0;
    const [sample] = await steps(h.client, 1);
    expect(sample).toMatchObject({ ok: true, action: 'sample', observations: added, more: false });
    expect(h.received.map((o) => o.sequence)).toEqual(
      Array.from({ length: added }, (_, i) => cppagentItems + 1 + i),
    );
    // Keys are the adapter's names, so the device description resolves them like SHDR keys.
    const resolve = resolverForDevice(parseDevicesXml(cppagentXml), 'OKUMA');
    const execution = h.received.filter((o) => resolve(o.key)?.type === 'EXECUTION');
    expect(execution.map((o) => o.value)).toContain('ACTIVE');
    expect(execution[0]).toMatchObject({ key: 'pexecution', deviceName: 'OKUMA', category: 'EVENT' });
    const partCount = h.received.find((o) => o.key === 'ppartcount');
    expect(partCount).toMatchObject({
      value: '0',
      dataItemId: 'Lppartcount',
      componentType: 'Controller',
      componentName: 'Controller',
    });
    const condition = h.received.find((o) => o.kind === 'condition');
    expect(condition?.condition?.level).toBe('NORMAL');
    expect(h.client.counters).toMatchObject({ rejected: 0, rejectedDocuments: 0, gaps: 0 });
  });

  it('pages through a backlog with count=N, each observation exactly once, asking again at once while behind', async () => {
    const fake = await agent();
    const h = client(fake, { count: 50 });
    await steps(h.client, 2);
    const added = feed(fake, cppagentXml, 'OKUMA', 'cppagent_demo_okuma.shdr.txt', 300);
    h.received.length = 0;
    const pages = [];
    for (;;) {
      const s = await h.client.step();
      pages.push(s);
      if (s.ok && !s.more) break;
    }
    expect(pages).toHaveLength(Math.ceil(added / 50));
    const sequences = h.received.map((o) => o.sequence);
    expect(new Set(sequences).size).toBe(added);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(fake.requests.at(-1)).toBe(`sample?from=${cppagentItems + 1 + 50 * (pages.length - 1)}&count=50`);
  });

  it('resumes from the saved sequence after a restart: no /current, no repeat, no gap', async () => {
    const fake = await agent();
    const first = client(fake);
    await steps(first.client, 3);
    feed(fake, cppagentXml, 'OKUMA', 'cppagent_demo_okuma.shdr.txt', 100);
    await steps(first.client, 1);
    const saved = first.saved.at(-1);
    expect(saved).toBeDefined();
    await first.client.stop();

    feed(fake, cppagentXml, 'OKUMA', 'cppagent_demo_okuma.shdr.txt', 200); // more arrive while we are down
    fake.requests.length = 0;
    const second = client(fake, {}, saved ?? null);
    await steps(second.client, 2);
    expect(fake.requests).toEqual(['probe', `sample?from=${saved?.nextSequence}&count=1000`]);
    expect(second.received[0]?.sequence).toBe(saved?.nextSequence);
    expect(second.received.at(-1)?.sequence).toBe(fake.lastSequence);
    expect(second.gaps).toEqual([]);
  });

  it('recovers when the buffer moved past the saved sequence (cppagent OUT_OF_RANGE): gap, /current, continue', async () => {
    const fake = await agent({ bufferSize: 64 });
    feed(fake, cppagentXml, 'OKUMA', 'cppagent_demo_okuma.shdr.txt', 300);
    const stored = { instanceId: String(fake.instanceId), nextSequence: 5 };
    const h = client(fake, {}, stored);
    const [, overrun] = await steps(h.client, 2);
    expect(overrun).toMatchObject({ ok: true, action: 'current', observations: cppagentItems });
    expect(fake.requests).toEqual(['probe', 'sample?from=5&count=1000', 'current']);
    expect(h.gaps).toMatchObject([
      { reason: 'overrun', wanted: 5, firstSequence: null, previousInstanceId: stored.instanceId },
    ]);
    expect(h.saved.at(-1)?.nextSequence).toBe(fake.lastSequence + 1);

    const next = fake.add('OKUMA', 'pexecution', 'ACTIVE', Date.UTC(2022, 7, 8, 14));
    await steps(h.client, 1);
    expect(h.received.at(-1)).toMatchObject({ sequence: next, key: 'pexecution', value: 'ACTIVE' });
    expect(h.client.counters.gaps).toBe(1);
  });

  it('recovers when an agent answers from its first sequence instead (firstSequence > from)', async () => {
    const fake = await agent({ bufferSize: 64, overrun: 'serve' });
    feed(fake, cppagentXml, 'OKUMA', 'cppagent_demo_okuma.shdr.txt', 300);
    const h = client(fake, {}, { instanceId: String(fake.instanceId), nextSequence: 5 });
    await steps(h.client, 2);
    expect(h.gaps).toMatchObject([{ reason: 'overrun', wanted: 5, firstSequence: fake.firstSequence }]);
    expect(fake.requests.at(-1)).toBe('current');
    expect(h.batches.map((b) => b.source)).toEqual(['current']);
  });

  it('notices an agent restart (instanceId changed): gap, re-probe, /current, continue with new sequences', async () => {
    const fake = await agent();
    const h = client(fake);
    await steps(h.client, 2);
    feed(fake, cppagentXml, 'OKUMA', 'cppagent_demo_okuma.shdr.txt', 50);
    await steps(h.client, 1);
    const before = h.saved.at(-1);
    fake.restart();
    fake.requests.length = 0;
    await steps(h.client, 3);
    expect(fake.requests).toEqual([`sample?from=${before?.nextSequence}&count=1000`, 'probe', 'current']);
    expect(h.gaps).toMatchObject([
      { reason: 'restart', previousInstanceId: before?.instanceId, instanceId: String(fake.instanceId) },
    ]);
    expect(h.saved.at(-1)).toEqual({ instanceId: String(fake.instanceId), nextSequence: cppagentItems + 1 });
    const seq = fake.add('OKUMA', 'ppartcount', '3', Date.UTC(2022, 7, 8, 15));
    await steps(h.client, 1);
    expect(h.received.at(-1)).toMatchObject({ sequence: seq, value: '3' });
  });

  it('keeps the position when the consumer fails, so the batch comes again (at-least-once)', async () => {
    const fake = await agent();
    let fail = true;
    const h = client(fake, {
      onObservations: () => {
        if (fail) throw new Error('database down');
      },
    });
    const [, current] = await steps(h.client, 2);
    expect(current).toMatchObject({ ok: false });
    expect(h.saved).toEqual([]);
    fail = false;
    const [again] = await steps(h.client, 1);
    expect(again).toMatchObject({ ok: true, action: 'current' });
  });

  it('backs off on HTTP errors and broken documents, counts them, never throws, then carries on', async () => {
    const fake = await agent();
    fake.script(
      { status: 503, body: 'busy' },
      { status: 500, body: '<MTConnectStreams><Header instanceId="x"/>' },
      { status: 200, body: '<html><body>proxy login</body></html>' },
      { status: 200, body: '\u0000\u0001 not xml at all <<<' },
    );
    const h = client(fake, { backoff: { initialMs: 20, maxMs: 80 } });
    const started = Date.now();
    h.client.start();
    await waitFor(() => h.batches.length > 0, 5_000, 'a first batch');
    // 20 + 40 + 80 + 80 ms of backoff before the probe succeeds.
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(h.client.counters).toMatchObject({ httpErrors: 2, rejectedDocuments: 2 });
    expect(h.errors).toHaveLength(4);
    expect(h.statuses).toEqual(['CONNECTING', 'DISCONNECTED', 'CONNECTED']);
    // Polls on its own once caught up.
    const seq = fake.add('OKUMA', 'pexecution', 'ACTIVE', Date.UTC(2022, 7, 8, 14));
    await waitFor(() => h.received.some((o) => o.sequence === seq), 5_000, 'the polled observation');
    await h.client.stop();
    expect(h.client.status).toBe('DISCONNECTED');
  });

  it('keeps the good observations of a document with broken elements, counting the broken ones', async () => {
    const fake = await agent();
    const h = client(fake, {}, { instanceId: 'i1', nextSequence: 10 });
    fake.script(
      { status: 200, body: cppagentXml },
      {
        status: 200,
        body: `<MTConnectStreams><Header instanceId="i1" firstSequence="1" nextSequence="14" lastSequence="13"/><Streams>
          <DeviceStream name="OKUMA" uuid="OKUMA.123456"><ComponentStream component="Path" name="path" componentId="p1">
          <Events><Execution dataItemId="p1execution" name="pexecution" sequence="11" timestamp="2022-08-08T13:51:35Z">ACTIVE</Execution>
          <Execution name="noid" sequence="12">READY</Execution><PartCount dataItemId="pc" sequence="twelve">1</PartCount>
          <Program dataItemId="p1program" sequence="10" timestamp="garbage">O100</Program></Events>
          <Condition><Bogus dataItemId="c1" sequence="13"/></Condition></ComponentStream></DeviceStream></Streams></MTConnectStreams>`,
      },
    );
    const [, sample] = await steps(h.client, 2);
    expect(sample).toMatchObject({ ok: true, observations: 2 });
    expect(h.received.map((o) => [o.sequence, o.key, o.value])).toEqual([
      [10, 'p1program', 'O100'],
      [11, 'pexecution', 'ACTIVE'],
    ]);
    expect(h.client.counters.rejected).toBe(3);
    expect(h.saved.at(-1)).toEqual({ instanceId: 'i1', nextSequence: 14 });
  });

  it('serves the NIST Hurco04 through the agent path: Program_Status resolves to EXECUTION', async () => {
    const fake = await agent({ devicesXml: nistXml });
    const h = client(fake, { keyBy: 'name' });
    await steps(h.client, 2);
    feed(fake, nistXml, 'Hurco04', 'nist_2-1-2017-Hurco04-Clean.shdr.txt', 200);
    h.received.length = 0;
    await steps(h.client, 1);
    const resolve = resolverForDevice(parseDevicesXml(nistXml), 'Hurco04');
    const status = h.received.find((o) => o.key === 'Program_Status');
    expect(status).toMatchObject({ value: 'READY', deviceName: 'Hurco04' });
    expect(resolve(status?.key ?? '')?.type).toBe('EXECUTION');
    expect(h.received.find((o) => o.key === 'Part_Count')?.value).toBe('1065');
  });
});

describe('parseAgentDocument', () => {
  const streams = (body: string) =>
    `<MTConnectStreams><Header instanceId="7" firstSequence="1" nextSequence="9" lastSequence="8"/><Streams><DeviceStream name="M" uuid="u"><ComponentStream component="Controller" name="c" componentId="c1">${body}</ComponentStream></DeviceStream></Streams></MTConnectStreams>`;

  it.each([
    [
      'a fault with native code, severity, qualifier and message',
      '<Condition><Fault dataItemId="sys" name="system" sequence="3" timestamp="2024-01-01T00:00:00Z" nativeCode="E12" nativeSeverity="2" qualifier="HIGH" type="SYSTEM">Spindle &amp; coolant</Fault></Condition>',
      {
        key: 'system',
        kind: 'condition',
        value: 'FAULT',
        condition: {
          level: 'FAULT',
          nativeCode: 'E12',
          nativeSeverity: '2',
          qualifier: 'HIGH',
          message: 'Spindle & coolant',
        },
      },
    ],
    [
      'an unavailable condition',
      '<Condition><Unavailable dataItemId="sys" sequence="3" type="SYSTEM"/></Condition>',
      {
        key: 'sys',
        kind: 'condition',
        value: null,
        condition: { level: 'UNAVAILABLE', nativeCode: '', message: '' },
      },
    ],
    [
      'a message with its native code',
      '<Events><Message dataItemId="msg" sequence="3" nativeCode="M1">Door open</Message></Events>',
      { key: 'msg', kind: 'message', value: 'Door open', nativeCode: 'M1' },
    ],
    [
      'a data set, in the SHDR form',
      '<Events><VariableDataSet dataItemId="v" sequence="3" count="3"><Entry key="a">1</Entry><Entry key="b">two words</Entry><Entry key="c" removed="true"/></VariableDataSet></Events>',
      { key: 'v', value: "a=1 b='two words' c" },
    ],
    [
      'a table with cells',
      '<Events><WorkOffsetTable dataItemId="w" sequence="3"><Entry key="G54"><Cell key="X">1.5</Cell><Cell key="Y">2</Cell></Entry></WorkOffsetTable></Events>',
      { key: 'w', value: 'G54={X=1.5 Y=2}' },
    ],
    [
      'a time series',
      '<Samples><PositionTimeSeries dataItemId="p" sequence="3" sampleCount="3" sampleRate="100">1 2\n 3</PositionTimeSeries></Samples>',
      { key: 'p', value: '1 2 3', timeSeries: { count: 3, rate: 100 } },
    ],
    [
      'UNAVAILABLE as no value',
      '<Samples><SpindleSpeed dataItemId="s" sequence="3">UNAVAILABLE</SpindleSpeed></Samples>',
      { key: 's', value: null, kind: 'value', category: 'SAMPLE', element: 'SpindleSpeed' },
    ],
  ])('reads %s', (_, body, expected) => {
    // Received in 2025: the window of decision 0980 keeps the 2024 timestamp and the fallback to receivedAt.
    const doc = parseAgentDocument(streams(body), Date.UTC(2025, 0, 1));
    expect(doc).toMatchObject({ kind: 'streams', rejected: 0, observations: [expected] });
  });

  it.each([
    ['', 'invalid'],
    ['plain text', 'invalid'],
    ['<html/>', 'invalid'],
    ['<MTConnectStreams><Streams/></MTConnectStreams>', 'invalid'],
    [
      '<MTConnectStreams><Header instanceId="1" firstSequence="a" nextSequence="1" lastSequence="1"/></MTConnectStreams>',
      'invalid',
    ],
    [
      '<MTConnectError><Header instanceId="1"/><Errors><Error errorCode="OUT_OF_RANGE">too old</Error></Errors></MTConnectError>',
      'error',
    ],
  ])('classifies %j as %s', (xml, kind) => {
    expect(parseAgentDocument(xml, 0).kind).toBe(kind);
  });

  it('reads the real Devices.xml as a devices document', () => {
    const doc = parseAgentDocument(nistXml, 0);
    expect(doc.kind === 'devices' && doc.devices.map((d) => d.name)).toContain('Hurco04');
  });

  it('never throws on cut or mangled documents', () => {
    const whole = streams(
      '<Events><Execution dataItemId="e" sequence="3" timestamp="2024-01-01T00:00:00Z">ACTIVE</Execution></Events><Condition><Fault dataItemId="f" sequence="4" nativeCode="1">x</Fault></Condition>',
    );
    fc.assert(
      fc.property(fc.nat(whole.length), fc.string(), fc.nat(whole.length), (cut, junk, at) => {
        const mangled = whole.slice(0, at) + junk + whole.slice(at, Math.max(at, cut));
        const doc = parseAgentDocument(mangled, 0);
        expect(['streams', 'invalid', 'error', 'devices']).toContain(doc.kind);
      }),
      { numRuns: 500 },
    );
  });
});
