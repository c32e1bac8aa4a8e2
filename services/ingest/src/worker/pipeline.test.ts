import { describe, expect, it } from 'vitest';
import { epochMs } from '@takt/domain';
import { DERIVER_MEMORY_MS, MachinePipeline } from './pipeline';
import type { FieldMeaning } from './pipeline';
import type { Observation } from '../sources/shdr/shdr';
import { CONNECTION_KEY } from '@takt/db';
import { feedStored } from './rebuild';

const FIELDS: ReadonlyMap<string, FieldMeaning> = new Map([
  ['execution', { type: 'EXECUTION', subType: null }],
  ['part_count', { type: 'PART_COUNT', subType: null }],
]);
const T0 = Date.UTC(2026, 10, 20, 6);
const MIN = 60_000;
const value = (ts: number, key: string, v: string): Observation => ({ ts, key, value: v, kind: 'value' });

/** A pipeline fed one line a minute for `minutes`, stored (so older history is forgotten) at the end. */
function streamed(minutes: number, setup: Array<{ at: number; value: 'START' | 'END' }>) {
  const p = new MachinePipeline('c', 'm', FIELDS, 'part_count', 'shdr', T0);
  p.setConnection('CONNECTED', T0);
  p.setSetup(setup);
  for (let k = 0; k < minutes; k++)
    p.pushRaw(
      [value(T0 + k * MIN, 'execution', 'ACTIVE'), value(T0 + k * MIN, 'part_count', String(k))],
      T0 + k * MIN,
    );
  const now = T0 + minutes * MIN;
  p.take(now);
  p.stored(now);
  return { p, now };
}

describe('MachinePipeline setup events', () => {
  it('remembers setup events for rebuilds up to 8 days back, and forgets older ones after a write', () => {
    const setup = [
      { at: T0 + 5 * MIN, value: 'START' as const },
      { at: T0 + 9 * MIN, value: 'END' as const },
    ];
    const { p, now } = streamed(30, setup);
    expect(p.knownSetupEvents()).toEqual(setup);
    p.stored(now + 8 * 24 * 60 * MIN);
    expect(p.knownSetupEvents()).toEqual([]);
  });

  it('ignores the worker handing over the same setup events again, however old (no rebuild at every tick)', () => {
    const setup = [{ at: T0 + 5 * MIN, value: 'START' as const }];
    const { p, now } = streamed(300, setup);
    expect(now - setup[0]!.at).toBeGreaterThan(DERIVER_MEMORY_MS);
    p.setSetup(setup);
    expect(p.rebuildFrom).toBeNull();
    expect(p.dirty).toBe(false);
    expect(p.liveRow(now).state).toBe('SETUP');
  });

  it('passes the setup events it knows on, so a rebuilt pipeline keeps the SETUP state', () => {
    const setup = [
      { at: T0 + 5 * MIN, value: 'START' as const },
      { at: T0 + 20 * MIN, value: 'END' as const },
      { at: T0 + 200 * MIN, value: 'START' as const },
    ];
    const { p } = streamed(300, setup);
    const rebuilt = new MachinePipeline('c', 'm', FIELDS, 'part_count', 'shdr', T0);
    rebuilt.setSetup(p.knownSetupEvents());
    expect(rebuilt.knownSetupEvents()).toEqual(setup);
    // A new event next to known ones: only it is new.
    p.setSetup([...setup, { at: T0 + 299 * MIN, value: 'END' }]);
    expect(p.knownSetupEvents()).toHaveLength(4);
    expect(p.rebuildFrom).toBeNull();
  });

  it('marks a rebuild for observations older than its in-memory history', () => {
    const { p } = streamed(300, []);
    p.pushRaw([value(T0 + 10 * MIN + 30_000, 'execution', 'READY')], T0 + 301 * MIN);
    expect(p.rebuildFrom).toBe(T0 + 10 * MIN + 30_000);
  });

  it('asks for the job runs of machine data older than the setup events it knows (decision 1025)', () => {
    const { p } = streamed(300, []);
    p.setSetup([], T0); // the worker handed over every run reaching into the pipeline's history
    expect(p.setupNeededFrom).toBeNull();
    p.pushDomain([{ ts: epochMs(T0 - 90 * MIN), key: 'execution', value: 'READY' }]); // a backlog older than that
    expect(p.setupNeededFrom).toBe(T0 - 90 * MIN);
    p.setSetup([{ at: T0 - 100 * MIN, value: 'START' }], T0 - 90 * MIN);
    expect(p.setupNeededFrom).toBeNull();
  });

  it('re-derives from storage for a setup event before the history it derived itself (decision 1025)', () => {
    const { p } = streamed(300, []);
    expect(p.holdsHistoryFrom(T0)).toBe(true);
    expect(p.holdsHistoryFrom(T0 - 1)).toBe(false);
    p.setSetup([{ at: T0 - 30 * MIN, value: 'START' }]);
    expect(p.rebuildFrom).toBe(T0 - 30 * MIN);
  });

  it('takes over from its first machine data, and re-derives from storage there for an older setup event (decision 1065)', () => {
    const p = new MachinePipeline('c', 'm', FIELDS, 'part_count', 'shdr', T0);
    // A restart: the open job run's setup began two days before; the pipeline has no machine data yet.
    p.setSetup([{ at: T0 - 2 * 24 * 60 * MIN, value: 'START' }]);
    expect(p.rebuildFrom).toBeNull();
    expect(p.take(T0)).toBeNull();
    p.setConnection('CONNECTED', T0);
    p.pushRaw([value(T0, 'execution', 'ACTIVE')], T0);
    // Nothing before its own data is replaced: the worker re-derives from storage from that data on.
    expect(p.rebuildFrom).toBe(T0);
  });

  it('forgets the start of a run open longer than its setup memory, and the tick leaves it out (no rebuild at every tick)', () => {
    const DAY = 24 * 60 * MIN;
    const setup = [{ at: T0 - 10 * DAY, value: 'START' as const }];
    // A pipeline rebuilt from storage a week back: it folded the run's start in.
    const p = new MachinePipeline('c', 'm', FIELDS, 'part_count', 'shdr', T0);
    p.derivesStoredHistory();
    feedStored(p, [{ ts: T0 - 7 * DAY, key: 'execution', value: 'ACTIVE' }]);
    p.setSetup(setup, T0 - 7 * DAY);
    p.continueStoredHistory(T0 - 7 * DAY);
    p.replaceFrom(T0);
    p.take(T0);
    p.stored(T0);
    // The write forgot the start (older than 8 days): the tick leaves it out (handed again, it would be news).
    expect(p.knownSetupEvents()).toEqual([]);
    expect(p.remembersSetupFrom(setup[0]!.at)).toBe(false);
    expect(p.remembersSetupFrom(T0 - 7 * DAY)).toBe(true);
    p.setSetup(
      setup.filter((e) => p.remembersSetupFrom(e.at)),
      T0 - DAY,
    );
    expect(p.rebuildFrom).toBeNull();
    expect(p.liveRow(T0 + MIN).state).toBe('SETUP');
  });

  it('a pipeline re-deriving stored history folds in setup events before its first data', () => {
    const p = new MachinePipeline('c', 'm', FIELDS, 'part_count', 'shdr', T0);
    p.derivesStoredHistory();
    feedStored(p, [{ ts: T0, key: 'execution', value: 'ACTIVE' }]);
    p.setSetup([{ at: T0 - 5 * MIN, value: 'START' }]);
    expect(p.rebuildFrom).toBeNull();
    expect(p.liveRow(T0 + MIN).state).toBe('SETUP');
  });
});

describe('MachinePipeline link order (METRICS.md §1)', () => {
  const S = 1000;
  /** An agent link whose adapter clock runs ahead of the agent's: data stamped later than the drop that follows it. */
  function live() {
    const p = new MachinePipeline('c', 'm', FIELDS, 'part_count', 'agent', T0);
    const rows: Array<{ ts: number; key: string; value: string | null }> = [];
    const receive = (o: Observation, at: number) => {
      p.pushRaw([o], at);
      rows.push({ ts: o.ts, key: o.key, value: o.value });
    };
    const link = (status: 'CONNECTED' | 'DISCONNECTED', at: number) =>
      rows.push({ ts: p.setConnection(status, at), key: CONNECTION_KEY, value: status });
    link('CONNECTED', T0);
    receive(value(T0, 'execution', 'READY'), T0);
    receive(value(T0 + 40 * S, 'execution', 'ACTIVE'), T0 + 40 * S);
    link('DISCONNECTED', T0 + 30 * S); // the agent's own clock, 10 s behind
    receive(value(T0 + 35 * S, 'execution', 'ACTIVE'), T0 + 60 * S); // after the drop, stamped before it
    return { p, rows };
  }

  it('stores the drop after the data received before it, and data received after it no earlier than the drop', () => {
    const { p, rows } = live();
    expect(rows.map((r) => [r.ts - T0, r.value])).toEqual([
      [0, 'CONNECTED'],
      [0, 'READY'],
      [40 * S, 'ACTIVE'],
      [40 * S + 1, 'DISCONNECTED'],
      [40 * S + 1, 'ACTIVE'],
    ]);
    const states = p.take(T0 + 90 * S)!.result.intervals.map((i) => [i.start - T0, i.end - T0, i.state]);
    expect(states).toEqual([
      [0, 40 * S, 'INACTIVE'],
      [40 * S, 90 * S + 1, 'ACTIVE'],
    ]);
  });

  it('a re-derivation from the stored rows, in any order of equal times, equals the live derivation', () => {
    const { p, rows } = live();
    const want = p.take(T0 + 90 * S)!.result.intervals;
    for (const order of [rows, [...rows].reverse()]) {
      const sorted = [...order].sort((a, b) => a.ts - b.ts);
      const rebuilt = new MachinePipeline('c', 'm', FIELDS, 'part_count', 'agent', T0);
      feedStored(rebuilt, sorted);
      expect(rebuilt.take(T0 + 90 * S)!.result.intervals).toEqual(want);
    }
  });
});

describe('MachinePipeline takeover (decisions 0201, 1065)', () => {
  it('a new run takes over at its first machine data, not at its connect: the time between is the previous run’s', () => {
    // The adapter's values changed between the worker's connect and its answer: its first line is stamped after the
    // connect (the multi-host test's restarted node, 1 ms before a data step).
    const p = new MachinePipeline('c', 'm', FIELDS, 'part_count', 'shdr', T0);
    p.setConnection('CONNECTED', T0);
    p.heartbeat(T0 + 1);
    expect(p.take(T0 + 1)).toBeNull();
    expect(p.pendingFrom).toBeNull();
    p.pushRaw([value(T0 + 5, 'execution', 'ACTIVE'), value(T0 + 5, 'part_count', '7')], T0 + 5);
    const taken = p.take(T0 + 10)!;
    expect(taken.takeOverAt).toBe(T0 + 5);
    // Marked from the connect (the stored observations start there), written from the first data.
    expect(taken.from).toBe(T0);
    expect(taken.result.intervals.map((i) => [i.start - T0, i.state])).toEqual([[5, 'ACTIVE']]);
    p.stored(T0 + 10);
    p.pushRaw([value(T0 + 20, 'execution', 'READY')], T0 + 20);
    const next = p.take(T0 + 30)!;
    expect(next.takeOverAt).toBeUndefined();
    expect(next.result.intervals.map((i) => [i.start - T0, i.end - T0, i.state])).toEqual([
      [5, 20, 'ACTIVE'],
      [20, 31, 'INACTIVE'],
    ]);
  });

  it('a first line that does not tell the state starts the new run’s no-value interval at that line', () => {
    const p = new MachinePipeline('c', 'm', FIELDS, 'part_count', 'shdr', T0);
    p.setConnection('CONNECTED', T0);
    p.pushRaw([value(T0 + 5, 'part_count', '7')], T0 + 5);
    const taken = p.take(T0 + 10)!;
    expect(taken.takeOverAt).toBe(T0 + 5);
    expect(taken.result.intervals.map((i) => [i.start - T0, i.state])).toEqual([[5, 'UNAVAILABLE']]);
    p.stored(T0 + 10);
    p.pushRaw([value(T0 + 20, 'execution', 'ACTIVE')], T0 + 20);
    expect(p.take(T0 + 30)!.result.intervals.map((i) => [i.start - T0, i.state])).toEqual([
      [5, 'UNAVAILABLE'],
      [20, 'ACTIVE'],
    ]);
  });

  it('a link connected and silent for hours takes nothing, then takes over at its first line', () => {
    const p = new MachinePipeline('c', 'm', FIELDS, 'part_count', 'shdr', T0);
    p.setConnection('CONNECTED', T0);
    for (let m = 1; m <= 120; m++) {
      p.heartbeat(T0 + m * MIN);
      expect(p.take(T0 + m * MIN)).toBeNull();
    }
    const at = T0 + 121 * MIN;
    p.pushRaw([value(at, 'execution', 'ACTIVE'), value(at, 'part_count', '3')], at);
    const taken = p.take(at + 10)!;
    expect(taken.takeOverAt).toBe(at);
    expect(taken.result.intervals.map((i) => [i.start - T0, i.state])).toEqual([[121 * MIN, 'ACTIVE']]);
  });

  it('a link that drops before any data takes over at the drop', () => {
    const p = new MachinePipeline('c', 'm', FIELDS, 'part_count', 'shdr', T0);
    p.setConnection('CONNECTED', T0);
    p.setConnection('DISCONNECTED', T0 + 50);
    const taken = p.take(T0 + 60)!;
    expect(taken.takeOverAt).toBe(T0 + 50);
    expect(taken.result.intervals.map((i) => [i.start - T0, i.state, i.reason])).toEqual([
      [50, 'UNAVAILABLE', 'DISCONNECTED'],
    ]);
  });
});
