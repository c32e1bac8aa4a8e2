import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EdgeHealthInput, PushBatch } from './gateway';
import { keyKindsFromFields } from './devices';
import {
  bufferTone,
  decidePush,
  EDGE_HEALTH_LABEL,
  EDGE_HEALTH_TONE,
  edgeHealth,
  lastResponseTone,
  memoryGatewayStore,
  observationsByMachine,
  receivePush,
  supervisorHeartbeat,
  validatePushBatch,
} from './gateway';

const NOW = Date.UTC(2024, 0, 1, 12);
const line = (seq: number) => `2024-01-01T00:00:${String(seq % 60).padStart(2, '0')}Z|part_count|${seq}`;

/** Compact notation: `[1, 2, 2, 5]` → records with those sequences on machine m1. */
function batch(seqs: number[], extra: Partial<PushBatch> = {}): PushBatch {
  return {
    gatewayId: 'gw1',
    records: seqs.map((seq) => ({ seq, machineRef: 'm1', line: line(seq) })),
    ...extra,
  };
}

describe('decidePush', () => {
  it.each([
    // stored, batch sequences → accepted sequences, ack, duplicates, reordered, skipped
    [null, [1, 2, 3], [1, 2, 3], 3, 0, false, 0],
    [null, [], [], null, 0, false, 0],
    [5, [], [], 5, 0, false, 0],
    [3, [1, 2, 3], [], 3, 3, false, 0],
    [3, [2, 3, 4, 5], [4, 5], 5, 2, false, 0],
    [3, [4, 4, 5, 5, 5], [4, 5], 5, 3, false, 0],
    [3, [6, 4, 5], [4, 5, 6], 6, 0, true, 0],
    [3, [4, 7, 10], [4, 7, 10], 10, 0, false, 4],
    [0, [0, 1], [1], 1, 1, false, 0],
    [null, [9, 10], [9, 10], 10, 0, false, 0],
  ])(
    'stored %j, batch %j → accepts %j, acks %j',
    (stored, seqs, accepted, ack, duplicates, reordered, skipped) => {
      const d = decidePush(batch(seqs), stored, NOW);
      expect(d.accepted.map((r) => r.seq)).toEqual(accepted);
      expect({ ack: d.ack, duplicates: d.duplicates, reordered: d.reordered, skipped: d.skipped }).toEqual({
        ack,
        duplicates,
        reordered,
        skipped,
      });
    },
  );

  it('keeps the first of repeated sequences inside a batch and counts a differing repeat as a conflict', () => {
    const d = decidePush(
      {
        gatewayId: 'gw1',
        records: [
          { seq: 1, machineRef: 'm1', line: 'x|a|first' },
          { seq: 1, machineRef: 'm1', line: 'x|a|first' },
          { seq: 1, machineRef: 'm1', line: 'x|a|second' },
        ],
      },
      null,
      NOW,
    );
    expect(d.accepted.map((r) => r.line)).toEqual(['x|a|first']);
    expect({ duplicates: d.duplicates, conflicts: d.conflicts }).toEqual({ duplicates: 2, conflicts: 1 });
  });

  it('parses the lines: stores malformed ones all the same (their sequence is spent), counting what was bad', () => {
    const d = decidePush(
      {
        gatewayId: 'gw1',
        records: [
          { seq: 1, machineRef: 'm1', line: '2024-01-01T00:00:00Z|execution|ACTIVE|part_count|7' },
          { seq: 2, machineRef: 'm2', line: '2017' },
          { seq: 3, machineRef: 'm2', line: '|execution|READY||junk' },
          { seq: 4, machineRef: 'm2', line: '* PONG 1000' },
        ],
      },
      null,
      NOW,
    );
    expect(d.ack).toBe(4);
    expect({ observations: d.observations, rejected: d.rejected }).toEqual({ observations: 3, rejected: 2 });
    const byMachine = observationsByMachine(d.accepted);
    expect([...byMachine].map(([m, o]) => [m, o.map((x) => [x.key, x.value, x.ts])])).toEqual([
      [
        'm1',
        [
          ['execution', 'ACTIVE', Date.UTC(2024, 0, 1)],
          ['part_count', '7', Date.UTC(2024, 0, 1)],
        ],
      ],
      ['m2', [['execution', 'READY', NOW]]],
    ]);
  });

  it("reads a MESSAGE item's code and text when the machine's field mapping is passed", () => {
    const kinds = new Map([['m1', keyKindsFromFields(new Map([['msg', { type: 'MESSAGE' }]]))]]);
    const line = '2024-01-01T00:00:00Z|msg|M1|Door open|execution|ACTIVE';
    const records = [
      { seq: 1, machineRef: 'm1', line },
      { seq: 2, machineRef: 'm2', line },
    ];
    const d = decidePush({ gatewayId: 'gw1', records }, null, NOW, (ref) => kinds.get(ref));
    const byMachine = observationsByMachine(d.accepted);
    expect(byMachine.get('m1')?.map((o) => [o.key, o.value, o.kind])).toEqual([
      ['msg', 'Door open', 'message'],
      ['execution', 'ACTIVE', 'value'],
    ]);
    // Without a mapping the code is read as the value, and every pair after it is off by one.
    expect(byMachine.get('m2')?.map((o) => [o.key, o.value])).toEqual([
      ['msg', 'M1'],
      ['Door open', 'execution'],
    ]);
    expect(d.rejected).toBe(1);
  });
});

describe('validatePushBatch', () => {
  it.each([
    [null, [{ path: '', message: expect.stringContaining('object') }]],
    [{ records: [] }, [{ path: 'gatewayId', message: expect.any(String) }]],
    [{ gatewayId: 'gw1' }, [{ path: 'records', message: expect.any(String) }]],
    [{ gatewayId: ' ', records: [] }, [{ path: 'gatewayId', message: expect.stringContaining('1') }]],
    [
      { gatewayId: 'gw1', records: [{ seq: 1.5, machineRef: 'm', line: '' }] },
      [{ path: 'records.0.seq', message: expect.stringContaining('int') }],
    ],
    [
      { gatewayId: 'gw1', records: [{ seq: -1, machineRef: 'm', line: '' }] },
      [{ path: 'records.0.seq', message: expect.any(String) }],
    ],
    [
      { gatewayId: 'gw1', records: [{ seq: '1', machineRef: 'm', line: '' }] },
      [{ path: 'records.0.seq', message: expect.stringContaining('number') }],
    ],
    [
      { gatewayId: 'gw1', records: [{ seq: 1, line: 5 }] },
      [
        { path: 'records.0.machineRef', message: expect.any(String) },
        { path: 'records.0.line', message: expect.stringContaining('string') },
      ],
    ],
    [
      { gatewayId: 'gw1', records: [], bufferedRecords: -3 },
      [{ path: 'bufferedRecords', message: expect.any(String) }],
    ],
  ])('%j → %j', (body, problems) => {
    expect(validatePushBatch(body)).toEqual({ ok: false, problems });
  });

  it('accepts a good batch and trims the refs', () => {
    expect(
      validatePushBatch({
        gatewayId: ' gw1 ',
        records: [{ seq: 0, machineRef: ' m1 ', line: 'x|a|1' }],
        bufferedRecords: 12,
      }),
    ).toEqual({
      ok: true,
      batch: {
        gatewayId: 'gw1',
        records: [{ seq: 0, machineRef: 'm1', line: 'x|a|1' }],
        bufferedRecords: 12,
      },
    });
  });
});

describe('receivePush', () => {
  it('stores each record once across redeliveries and acknowledges the highest stored sequence', async () => {
    const { store, gateways } = memoryGatewayStore(['gw1']);
    const first = await receivePush(store, batch([1, 2, 3], { bufferedRecords: 40 }), NOW);
    expect(first).toEqual({ status: 200, body: { ack: 3, accepted: 3, duplicates: 0, rejected: 0 } });
    // The answer was lost: the gateway sends the same records again, plus new ones.
    const again = await receivePush(store, batch([1, 2, 3, 4]), NOW + 1);
    expect(again).toEqual({ status: 200, body: { ack: 4, accepted: 1, duplicates: 3, rejected: 0 } });
    const g = gateways.get('gw1');
    expect(g?.records.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(g).toMatchObject({ seq: 4, lastResponse: NOW + 1, bufferedRecords: null, lastShdr: line(4) });
  });

  it('takes concurrent pushes of one gateway one after the other, never the same record twice', async () => {
    const { store, gateways } = memoryGatewayStore(['gw1']);
    const answers = await Promise.all([
      receivePush(store, batch([1, 2, 3]), NOW),
      receivePush(store, batch([2, 3, 4, 5]), NOW),
    ]);
    expect(answers.map((a) => a.status === 200 && a.body.ack)).toEqual([3, 5]);
    expect(gateways.get('gw1')?.records.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('answers 400 with the problems, 400 for another gateway than the token, 404 for an unknown gateway', async () => {
    const { store, gateways } = memoryGatewayStore(['gw1']);
    expect(await receivePush(store, { gatewayId: 'gw1', records: 'x' }, NOW)).toMatchObject({
      status: 400,
      body: { error: 'ValidationError', problems: [{ path: 'records' }] },
    });
    expect(await receivePush(store, batch([1]), NOW, { authenticatedGatewayId: 'gw2' })).toMatchObject({
      status: 400,
      body: { problems: [{ path: 'gatewayId', message: 'does not match the gateway token' }] },
    });
    expect(await receivePush(store, { ...batch([1]), gatewayId: 'nope' }, NOW)).toMatchObject({
      status: 404,
    });
    expect(gateways.get('gw1')?.seq).toBeNull();
  });

  it('stores nothing when the store fails mid-way, so the redelivered batch is taken whole', async () => {
    const { store, gateways } = memoryGatewayStore(['gw1']);
    const failing: typeof store = {
      transaction: (id, work) =>
        store.transaction(id, async (tx) => {
          await work(tx);
          throw new Error('disk full');
        }),
    };
    await expect(receivePush(failing, batch([1, 2]), NOW)).rejects.toThrow('disk full');
    expect(gateways.get('gw1')?.records).toEqual([]);
    expect(await receivePush(store, batch([1, 2]), NOW)).toMatchObject({ body: { ack: 2, accepted: 2 } });
  });
});

// Issue 4 point 10: random and malformed push bodies.
describe('push validation and decision under random input', () => {
  it('never throws on any JSON body, and a refused body always names its problems', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        const v = validatePushBatch(body);
        if (!v.ok) expect(v.problems.length).toBeGreaterThan(0);
      }),
      { numRuns: 1_000 },
    );
  });

  const record = fc.record({
    seq: fc.nat({ max: 50 }),
    machineRef: fc.constantFrom('m1', 'm2'),
    line: fc.oneof(
      fc.string(),
      fc.nat().map((n) => `2024-01-01T00:00:00Z|k|${n}`),
    ),
  });

  it('stores every sequence exactly once over any series of (re)deliveries, and acks the highest', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(record, { maxLength: 20 }), { maxLength: 6 }), async (pushes) => {
        const { store, gateways } = memoryGatewayStore(['gw1']);
        let highest: number | null = null;
        for (const records of pushes) {
          const answer = await receivePush(store, { gatewayId: 'gw1', records }, NOW);
          if (answer.status !== 200) throw new Error('a valid batch was refused');
          for (const r of records) if (highest === null || r.seq > highest) highest = r.seq;
          expect(answer.body.ack).toBe(highest);
        }
        const stored = gateways.get('gw1')?.records.map((r) => r.seq) ?? [];
        expect(new Set(stored).size).toBe(stored.length);
        expect(stored).toEqual([...stored].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });
});

describe('edgeHealth (reports-admin §4)', () => {
  const ago = (ms: number) => NOW - ms;
  it.each<[string, EdgeHealthInput, string]>([
    ['never reported', { lastResponse: null }, 'NeverReported'],
    ['never reported, machines listed', { lastResponse: null, machines: ['CONNECTED'] }, 'NeverReported'],
    ['answered just now, no machines', { lastResponse: ago(0) }, 'Normal'],
    [
      'answered 300000 ms ago: still in time',
      { lastResponse: ago(300_000), machines: ['CONNECTED'] },
      'Normal',
    ],
    ['answered 300001 ms ago', { lastResponse: ago(300_001), machines: ['CONNECTED'] }, 'NotReporting'],
    [
      'some machines silent',
      { lastResponse: ago(1_000), machines: ['CONNECTED', 'DISCONNECTED'] },
      'MixedStatus',
    ],
    ['every machine silent', { lastResponse: ago(1_000), machines: ['DISCONNECTED'] }, 'MixedStatus'],
    ['a machine unknown', { lastResponse: ago(1_000), machines: ['CONNECTED', 'UNKNOWN'] }, 'Unknown'],
    ['a clock far ahead', { lastResponse: NOW + 3_600_000 }, 'Unknown'],
    ['a clock slightly ahead', { lastResponse: NOW + 5_000 }, 'Normal'],
    ['not a number', { lastResponse: Number.NaN }, 'Unknown'],
  ])('%s → %s', (_, input, health) => {
    expect(edgeHealth(input, NOW)).toBe(health);
  });

  it.each([
    ['NeverReported', 'warning', 'Never Reported'],
    ['NotReporting', 'danger', 'Not Reporting'],
    ['MixedStatus', 'warning', 'Degraded'],
    ['Normal', 'success', 'Normal'],
    ['Unknown', 'danger', 'Unknown'],
  ] as const)('%s shows %s as %s', (health, tone, label) => {
    expect([EDGE_HEALTH_TONE[health], EDGE_HEALTH_LABEL[health]]).toEqual([tone, label]);
  });

  it.each([
    [null, null],
    [0, 'success'],
    [1_000, 'success'],
    [1_001, 'danger'],
  ])('buffer %j → %j', (buffered, tone) => {
    expect(bufferTone(buffered)).toBe(tone);
  });

  it.each([
    [null, null],
    [ago(300_000), 'success'],
    [ago(300_001), 'danger'],
  ])('last response %j → %j', (last, tone) => {
    expect(lastResponseTone(last, NOW)).toBe(tone);
  });

  it.each([
    [null, { tone: null, text: 'waiting' }],
    [ago(60_000), { tone: 'success', text: 'ok' }],
    [ago(120_001), { tone: 'warning', text: 'late' }],
    [ago(300_001), { tone: 'danger', text: 'lost' }],
  ])('supervisor last join %j → %j', (last, expected) => {
    expect(supervisorHeartbeat(last, NOW)).toEqual(expected);
  });
});
