// METRICS.md §1 "The newest evidence wins" (decision 1000) through the ingest pipeline: a source that sends
// its availability once, UNAVAILABLE, in its connect header and then reports reads the same live (each
// source kind's link clock), replayed, and re-derived from the rows it stored.
import { describe, expect, it } from 'vitest';
import { CONNECTION_KEY } from '@takt/db';
import type { SourceKind } from '@takt/domain';
import { MachinePipeline } from './pipeline';
import type { FieldMeaning } from './pipeline';
import type { Observation } from '../sources/shdr/shdr';
import { feedStored } from './rebuild';

const FIELDS: ReadonlyMap<string, FieldMeaning> = new Map([
  ['avail', { type: 'AVAILABILITY', subType: null }],
  ['execution', { type: 'EXECUTION', subType: null }],
  ['mode', { type: 'CONTROLLER_MODE', subType: null }],
  ['PartCountAct', { type: 'PART_COUNT', subType: null }],
]);
const T0 = Date.UTC(2026, 10, 20, 6);
const S = 1000;
const value = (ts: number, key: string, v: string | null): Observation => ({
  ts,
  key,
  value: v,
  kind: 'value',
});

/** Mazak01's shape: the header says UNAVAILABLE for everything (null), then the controller reports and cycles. */
const LINES: Array<{ at: number; values: Array<[string, string | null]> }> = [
  {
    at: 0,
    values: [
      ['avail', null],
      ['execution', null],
      ['mode', null],
      ['PartCountAct', null],
    ],
  },
  {
    at: 66_764,
    values: [
      ['execution', 'STOPPED'],
      ['mode', 'MANUAL'],
      ['PartCountAct', '0'],
    ],
  },
  {
    at: 180 * S,
    values: [
      ['mode', 'AUTOMATIC'],
      ['execution', 'ACTIVE'],
    ],
  },
  {
    at: 480 * S,
    values: [
      ['execution', 'STOPPED'],
      ['PartCountAct', '1'],
    ],
  },
  { at: 500 * S, values: [['execution', 'ACTIVE']] },
  {
    at: 800 * S,
    values: [
      ['execution', 'STOPPED'],
      ['PartCountAct', '2'],
    ],
  },
];
const NOW = T0 + 900 * S;

function live(kind: SourceKind) {
  const p = new MachinePipeline('c', 'm', FIELDS, 'part_count', kind, T0);
  const rows: Array<{ ts: number; key: string; value: string | null }> = [];
  rows.push({ ts: p.setConnection('CONNECTED', T0), key: CONNECTION_KEY, value: 'CONNECTED' });
  for (const line of LINES) {
    const obs = line.values.map(([k, v]) => value(T0 + line.at, k, v));
    // A replay reads a file long after it was written; live lines arrive as they are stamped.
    p.pushRaw(obs, kind === 'replay' ? NOW : T0 + line.at);
    for (const o of obs) rows.push({ ts: o.ts, key: o.key, value: o.value });
  }
  return { p, rows };
}

const states = (p: MachinePipeline) =>
  p.take(NOW)!.result.intervals.map((i) => [(i.start - T0) / S, (i.end - T0) / S, i.state]);

describe.each<SourceKind>(['shdr', 'agent', 'mqtt', 'gateway', 'replay'])('a %s source', (kind) => {
  it('reads the header UNAVAILABLE until the controller reports, then its states; a rebuild agrees', () => {
    const { p, rows } = live(kind);
    expect(p.liveRow(NOW).state).toBe('INACTIVE');
    const want = [
      [0, 66.764, 'UNAVAILABLE'],
      [66.764, 180, 'INACTIVE'],
      [180, 480, 'ACTIVE'],
      [480, 500, 'INACTIVE'],
      [500, 800, 'ACTIVE'],
      [800, 900.001, 'INACTIVE'],
    ];
    expect(states(p)).toEqual(want);
    const rebuilt = new MachinePipeline('c', 'm', FIELDS, 'part_count', kind, T0);
    feedStored(
      rebuilt,
      [...rows].sort((a, b) => a.ts - b.ts),
    );
    expect(states(rebuilt)).toEqual(want);
  });
});
