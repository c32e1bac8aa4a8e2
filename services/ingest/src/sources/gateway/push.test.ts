import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PushBatch } from './push';
import { keyKindsFromFields } from '../devices/devices';
import type { Observation } from '../shdr/shdr';
import type { AcceptedRecord } from './push';
import { decidePush, validatePushBatch } from './push';

const NOW = Date.UTC(2024, 0, 1, 12);
const line = (seq: number) => `2024-01-01T00:00:${String(seq % 60).padStart(2, '0')}Z|part_count|${seq}`;

/** The observations of accepted records, per machine. */
function observationsByMachine(accepted: readonly AcceptedRecord[]): Map<string, Observation[]> {
  const out = new Map<string, Observation[]>();
  for (const r of accepted) {
    if (r.parsed.type !== 'data' || r.parsed.observations.length === 0) continue;
    const list = out.get(r.machineRef) ?? [];
    out.set(r.machineRef, list);
    list.push(...r.parsed.observations);
  }
  return out;
}

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

// Ingest never crashes on input (ARCHITECTURE.md "Ingest contract"): random and malformed push bodies.
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

  it('takes every sequence exactly once over any series of (re)deliveries, and acks the highest', () => {
    fc.assert(
      fc.property(fc.array(fc.array(record, { maxLength: 20 }), { maxLength: 6 }), (pushes) => {
        // What the push route stores: the accepted records and the acknowledged sequence.
        const stored: number[] = [];
        let ack: number | null = null;
        let highest: number | null = null;
        for (const records of pushes) {
          const d = decidePush({ gatewayId: 'gw1', records }, ack, NOW);
          stored.push(...d.accepted.map((r) => r.seq));
          ack = d.ack;
          for (const r of records) if (highest === null || r.seq > highest) highest = r.seq;
          expect(d.ack).toBe(highest);
        }
        expect(new Set(stored).size).toBe(stored.length);
        expect(stored).toEqual([...stored].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });

  it('with the holes carried between pushes (decision 0981), stores every sequence sent exactly once, late or not', () => {
    fc.assert(
      fc.property(fc.array(fc.array(record, { maxLength: 20 }), { maxLength: 6 }), (pushes) => {
        const stored: number[] = [];
        let ack: number | null = null;
        let gaps: Array<[number, number]> = [];
        const sent = new Set<number>();
        let base: number | null = null;
        for (const records of pushes) {
          const d = decidePush({ gatewayId: 'gw1', records }, ack, NOW, undefined, gaps);
          stored.push(...d.accepted.map((r) => r.seq));
          ack = d.ack;
          gaps = d.gaps;
          // The first sequence ever seen starts the gateway's count: nothing below it is a hole.
          base ??= records.length > 0 ? Math.min(...records.map((r) => r.seq)) : null;
          for (const r of records) if (base !== null && r.seq >= base) sent.add(r.seq);
        }
        expect(new Set(stored).size).toBe(stored.length);
        expect(new Set(stored)).toEqual(sent);
      }),
      { numRuns: 300 },
    );
  });
});

describe('decidePush: late records and times (decisions 0980, 0981)', () => {
  it('stores a record below the stored sequence once when it fills a hole; other ones are repeats', () => {
    const first = decidePush(batch([1, 5]), null, NOW);
    expect(first.gaps).toEqual([[2, 4]]);
    const late = decidePush(batch([3]), first.ack, NOW, undefined, first.gaps);
    expect(late.accepted.map((r) => r.seq)).toEqual([3]);
    expect({ ack: late.ack, duplicates: late.duplicates, gaps: late.gaps }).toEqual({
      ack: 5,
      duplicates: 0,
      gaps: [
        [2, 2],
        [4, 4],
      ],
    });
    const again = decidePush(batch([3, 5, 1]), late.ack, NOW, undefined, late.gaps);
    expect({ accepted: again.accepted.length, duplicates: again.duplicates }).toEqual({
      accepted: 0,
      duplicates: 3,
    });
  });

  it('refuses and counts a line dated before 2014-04-01 or in the future, and spends its sequence', () => {
    const d = decidePush(
      {
        gatewayId: 'gw1',
        records: [
          { seq: 1, machineRef: 'm1', line: '0001-01-01T00:00:00Z|part_count|1' },
          { seq: 2, machineRef: 'm1', line: '2024-01-01T11:59:00Z|part_count|2' },
          { seq: 3, machineRef: 'm1', line: '9999-12-31T00:00:00Z|part_count|3' },
          { seq: 4, machineRef: 'm1', line: '2024-01-01T12:10:00Z|part_count|4' },
        ],
      },
      null,
      NOW,
    );
    expect(d.accepted.map((r) => r.seq)).toEqual([2]);
    expect({ ack: d.ack, timeRefused: d.timeRefused }).toEqual({ ack: 4, timeRefused: 3 });
  });
});
