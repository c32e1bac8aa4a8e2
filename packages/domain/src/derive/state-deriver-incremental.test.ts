// The incremental deriver (StateDeriver): appends, late inserts and forgetting stored history give what a
// one-shot derivation of every observation gives, and so does what a writer stores from each push's changes.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EpochMs } from '../brand';
import { epochMs } from '../brand';
import type { DeriverConfig, Observation } from './observations';
import type { DerivationResult } from './outputs';
import { compareObservations, deriveMachineHistory, StateDeriver } from './state-deriver';
import {
  at,
  avail,
  condition,
  connect,
  count,
  cycleSignal,
  disconnect,
  exec,
  feed,
  program,
  setupEnd,
  setupStart,
  spindle,
  T0,
} from './test-builders';

const PC: DeriverConfig = { cycleSource: 'part_count' };
const EX: DeriverConfig = { cycleSource: 'execution' };

/** Compact view of intervals: [startS, endS, state, reason]. */
function states(r: DerivationResult) {
  return r.intervals.map((i) => [(i.start - T0) / 1000, (i.end - T0) / 1000, i.state, i.reason]);
}

describe('incremental derivation', () => {
  const history: Observation[] = [
    exec(at(0), 'READY'),
    count(at(0), 10),
    exec(at(10), 'ACTIVE'),
    count(at(40), 11),
    condition(at(50), { level: 'FAULT', nativeCode: 'X', message: 'Chip jam' }),
    exec(at(60), 'STOPPED'),
    condition(at(90), { level: 'NORMAL' }),
    exec(at(100), 'ACTIVE'),
    count(at(160), 12),
    exec(at(170), 'READY'),
  ];

  it('appending never changes what came before and reports where changes start', () => {
    const d = new StateDeriver(PC);
    const first = d.push(history.slice(0, 5));
    expect(first.changedFrom).toBe(at(0));
    const second = d.push(history.slice(5));
    expect(second.changedFrom).toBe(at(50)); // the last folded instant before the append
    expect(d.result(at(200))).toEqual(deriveMachineHistory(history, PC, at(200)));
  });

  it('a late observation is merged into the right place', () => {
    const d = new StateDeriver(PC);
    const late = setupStart(at(20));
    d.push(history);
    const r = d.push([late, setupEnd(at(30))]);
    expect(r.changedFrom).not.toBeNull();
    expect(d.result(at(200))).toEqual(
      deriveMachineHistory([...history, late, setupEnd(at(30))], PC, at(200)),
    );
    expect(states(d.result(at(200))).slice(0, 3)).toEqual([
      [0, 10, 'INACTIVE', 'READY'],
      [10, 20, 'ACTIVE', null],
      [20, 30, 'SETUP', null],
    ]);
  });

  it('redelivered observations are ignored', () => {
    const d = new StateDeriver(PC);
    d.push(history);
    const again = d.push(history.slice(2, 6));
    expect(again).toEqual({ changedFrom: null, duplicates: 4, tooLate: [] });
    expect(d.size).toBe(history.length);
  });

  it('a late point restarts from a checkpoint, not from the beginning', () => {
    const d = new StateDeriver(PC);
    const many: Observation[] = [];
    for (let s = 0; s < 3000; s++) many.push(exec(at(s), s % 2 ? 'ACTIVE' : 'READY'));
    d.push(many);
    const r = d.push([count(at(2999.5), 1)]);
    // Only the tail after the last checkpoint was refolded: changes start late in the history.
    expect(r.changedFrom).toBeGreaterThan(at(2500));
    expect(d.result(at(3000))).toEqual(deriveMachineHistory([...many, count(at(2999.5), 1)], PC, at(3000)));
  });

  it('forgetBefore drops stored history and refuses input older than it', () => {
    const d = new StateDeriver(PC);
    const many: Observation[] = [];
    for (let s = 0; s < 2000; s++) many.push(exec(at(s), s % 3 ? 'ACTIVE' : 'READY'));
    d.push(many);
    const full = d.result(at(2000));
    d.forgetBefore(at(1500));
    expect(d.size).toBeLessThan(2000);
    const kept = d.result(at(2000));
    // What is still held is exactly the tail of the full result, and nothing ending long before the horizon
    // (checkpoints are 256 observations apart).
    expect(kept.intervals.length).toBeLessThan(full.intervals.length / 2);
    expect(kept.intervals).toEqual(full.intervals.slice(full.intervals.length - kept.intervals.length));
    expect(kept.intervals[0]!.end).toBeGreaterThanOrEqual(at(1500 - 256));
    // Forgetting again drops again (a node forgets after every write, for months).
    d.forgetBefore(at(1900));
    const again = d.result(at(2000));
    expect(again.intervals[0]!.end).toBeGreaterThanOrEqual(at(1900 - 256));
    expect(again.intervals).toEqual(full.intervals.slice(full.intervals.length - again.intervals.length));
    const late = d.push([exec(at(10.5), 'READY')]);
    expect(late.tooLate).toHaveLength(1);
    const ok = d.push([exec(at(1999.5), 'FEED_HOLD')]);
    expect(ok.tooLate).toHaveLength(0);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Properties

const EXECUTIONS = ['ACTIVE', 'READY', 'FEED_HOLD', 'PROGRAM_COMPLETED', 'STOPPED', 'UNAVAILABLE'];

/** Arbitrary observation at a second offset in [0, 1800) s: long quiet stretches happen too. */
const observationArb: fc.Arbitrary<Observation> = fc
  .tuple(fc.integer({ min: 0, max: 1799 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 5 }))
  .map(([s, kind, v]): Observation => {
    const ts = at(s);
    switch (kind) {
      case 0:
      case 1:
      case 2:
        return exec(ts, EXECUTIONS[v] ?? 'READY');
      case 3:
        return count(ts, v === 5 ? null : v);
      case 4:
        return condition(ts, {
          level: v % 2 ? 'FAULT' : 'NORMAL',
          nativeCode: v < 2 ? null : `C${v % 3}`,
          message: `m${v}`,
        });
      case 5:
        return v % 2 ? setupStart(ts) : setupEnd(ts);
      case 6:
        return spindle(ts, v * 100);
      case 7:
        return feed(ts, v % 3);
      case 8:
        return v === 0 ? disconnect(ts) : v === 1 ? cycleSignal(ts) : program(ts, `P${v}`);
      default:
        return avail(ts, v === 0 ? 'UNAVAILABLE' : 'AVAILABLE');
    }
  });

const historyArb = fc.array(observationArb, { minLength: 1, maxLength: 60 });
const configArb = fc.constantFrom<DeriverConfig>(PC, EX);
const NOW = at(2000);

function assertTiles(r: DerivationResult, from: EpochMs, to: EpochMs): void {
  let cursor: number = from;
  for (const i of r.intervals) {
    expect(i.start).toBe(cursor);
    expect(i.end).toBeGreaterThan(i.start);
    cursor = i.end;
  }
  expect(cursor).toBe(to);
}

describe('deriver properties', () => {
  it('state intervals tile [first observation, now) with no gap or overlap', () => {
    fc.assert(
      fc.property(historyArb, configArb, (obs, config) => {
        const r = deriveMachineHistory(obs, config, NOW);
        const first = [...obs].sort(compareObservations)[0] as Observation;
        assertTiles(r, first.ts, NOW);
        // Neighbours differ (maximal runs).
        for (let k = 1; k < r.intervals.length; k++) {
          const a = r.intervals[k - 1];
          const b = r.intervals[k];
          expect(a?.state === b?.state && a?.reason === b?.reason).toBe(false);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('the result does not change when the input is split at any point or delivered out of order', () => {
    fc.assert(
      fc.property(
        historyArb,
        configArb,
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.infiniteStream(fc.nat()),
        (obs, config, cuts, shuffle) => {
          const reference = deriveMachineHistory(obs, config, NOW);
          // Shuffle deterministically, then deliver in chunks split at arbitrary points.
          const order = obs.map((o, i) => ({ o, k: shuffle.next().value as number, i }));
          order.sort((a, b) => a.k - b.k || a.i - b.i);
          const shuffled = order.map((x) => x.o);
          const points = [...new Set(cuts.map((c) => c % (shuffled.length + 1)))].sort((a, b) => a - b);
          const d = new StateDeriver(config);
          let prev = 0;
          for (const p of [...points, shuffled.length]) {
            d.push(shuffled.slice(prev, p));
            prev = p;
          }
          expect(d.result(NOW)).toEqual(reference);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a result since a time holds every record a write from that time keeps, the same as the whole result', () => {
    /** What a write replacing records from `since` on stores (services/ingest writeDerived). */
    const kept = (r: DerivationResult, since: number) => {
      const ending = <T extends { end: number; open?: boolean }>(rows: readonly T[]) =>
        rows.filter((x) => x.open || x.end >= since);
      return {
        intervals: ending(r.intervals),
        cycles: r.cycles.filter((c) => c.end >= since),
        programs: ending(r.programs),
        subprograms: ending(r.subprograms),
        faults: ending(r.faults),
        spindle: r.spindle.filter((x) => x.end >= since),
        inCut: r.inCut.filter((x) => x.end >= since),
        current: r.current,
      };
    };
    fc.assert(
      fc.property(
        historyArb,
        configArb,
        fc.integer({ min: -10, max: 2010 }),
        fc.nat(),
        (obs, config, s, k) => {
          // Half the time exactly an observation's time, where records end.
          const since = k % 2 ? at(s) : obs[k % obs.length]!.ts;
          const d = new StateDeriver(config);
          d.push(obs);
          const part = d.result(NOW, since);
          expect(kept(part, since)).toEqual(kept(d.result(NOW), since));
          // Nothing closed before `since` is copied (spans: but for those merged into a kept one, decision 1123).
          for (const rows of [
            part.intervals,
            part.programs,
            part.subprograms,
            part.faults,
            part.spindle,
            part.inCut,
          ])
            for (const x of rows as ReadonlyArray<{ end: number; open?: boolean }>)
              expect(x.open || x.end >= since || x.end >= d.lastTs!).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('pushing the same observations twice changes nothing', () => {
    fc.assert(
      fc.property(historyArb, configArb, (obs, config) => {
        const d = new StateDeriver(config);
        d.push(obs);
        d.push(obs);
        expect(d.result(NOW)).toEqual(deriveMachineHistory(obs, config, NOW));
      }),
      { numRuns: 60 },
    );
  });

  it('a late observation into a long history equals the one-shot derivation (checkpoint rollback)', () => {
    const base: Observation[] = [];
    for (let s = 0; s < 1500; s += 1)
      base.push(s % 7 === 0 ? count(at(s), Math.floor(s / 7)) : exec(at(s), EXECUTIONS[s % 4] ?? 'READY'));
    fc.assert(
      fc.property(fc.array(observationArb, { minLength: 1, maxLength: 5 }), (late) => {
        const d = new StateDeriver(PC);
        d.push(base);
        for (const o of late) d.push([o]);
        expect(d.result(NOW)).toEqual(deriveMachineHistory([...base, ...late], PC, NOW));
      }),
      { numRuns: 40 },
    );
  });
});

describe('silence (METRICS.md §1: a value holds until it changes)', () => {
  /** Milliseconds per state and reason of a derivation. */
  function timePerState(r: DerivationResult): Map<string, number> {
    const out = new Map<string, number>();
    for (const i of r.intervals) {
      const k = `${i.state}|${i.reason ?? ''}`;
      out.set(k, (out.get(k) ?? 0) + i.end - i.start);
    }
    return out;
  }

  it('inserting silence of any length between two observations adds exactly that time to the state holding there', () => {
    fc.assert(
      fc.property(
        historyArb,
        configArb,
        fc.nat(),
        fc.integer({ min: 1, max: 30 * 24 * 3_600_000 }),
        (obs, config, cut, gap) => {
          const sorted = [...obs].sort(compareObservations);
          // The gap opens after the k-th distinct instant (never before the first observation).
          const instants = [...new Set(sorted.map((o) => o.ts as number))];
          const after = instants[cut % instants.length] as number;
          const shifted = sorted.map((o) => (o.ts > after ? { ...o, ts: epochMs(o.ts + gap) } : o));
          const end = (instants[instants.length - 1] as number) + 1000;
          const before = deriveMachineHistory(sorted, config, epochMs(end));
          const withGap = deriveMachineHistory(shifted, config, epochMs(end + gap));
          // The state holding just after `after` is the one the silence extends.
          const holding = before.intervals.find((i) => i.start <= after && after < i.end);
          const want = timePerState(before);
          if (holding) {
            const k = `${holding.state}|${holding.reason ?? ''}`;
            want.set(k, (want.get(k) ?? 0) + gap);
          }
          expect(timePerState(withGap)).toEqual(want);
        },
      ),
      { numRuns: 200 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// What a writer stores (services/ingest writeDerived): after each push it replaces every stored record ending at
// or after `changedFrom` (and every open one) with those of `result(now, changedFrom)`, then lets the deriver
// forget what it stored. The stored records must equal the one-shot derivation, however the input arrived.

type Stored = Pick<DerivationResult, 'intervals' | 'cycles' | 'programs' | 'subprograms' | 'faults'>;

function writeFrom(stored: Stored, r: DerivationResult, from: number): Stored {
  const replace = <T extends { end: number; open?: boolean }>(old: readonly T[], fresh: readonly T[]) => [
    ...old.filter((x) => !x.open && x.end < from),
    ...fresh.filter((x) => x.open || x.end >= from),
  ];
  return {
    intervals: replace(stored.intervals, r.intervals),
    cycles: replace(stored.cycles, r.cycles),
    programs: replace(stored.programs, r.programs),
    subprograms: replace(stored.subprograms, r.subprograms),
    faults: replace(stored.faults, r.faults),
  };
}

const storedOf = (r: DerivationResult): Stored => ({
  intervals: r.intervals,
  cycles: r.cycles,
  programs: r.programs,
  subprograms: r.subprograms,
  faults: r.faults,
});

const asSets = (s: Stored) =>
  Object.fromEntries(
    Object.entries(s).map(([k, rows]: [string, unknown[]]) => [k, rows.map((r) => JSON.stringify(r)).sort()]),
  );

/**
 * Pushes `held` first (a newer observation the deriver holds before the rest arrives, as a gateway's connect
 * stamped at its receipt), then `chunks` in order; after each push, stores what changed and forgets what is
 * older than the chunk's last observation. Returns what is stored.
 */
function storedAfterPushes(
  config: DeriverConfig,
  held: readonly Observation[],
  chunks: ReadonlyArray<readonly Observation[]>,
  now: EpochMs,
): Stored {
  const d = new StateDeriver(config);
  let stored: Stored = { intervals: [], cycles: [], programs: [], subprograms: [], faults: [] };
  for (const chunk of [held, ...chunks]) {
    const r = d.push(chunk);
    expect(r.tooLate).toEqual([]);
    if (r.changedFrom !== null) stored = writeFrom(stored, d.result(now, r.changedFrom), r.changedFrom);
    const last = [...chunk].sort(compareObservations).at(-1);
    if (last) d.forgetBefore(last.ts);
  }
  return stored;
}

describe('what a writer stores from each push', () => {
  it('loses no cycle when older chunks arrive after a newer observation and stored history is forgotten', () => {
    // A part counter over 1,000 observations, a count every 10 s; the link's connect, stamped later, is held first.
    const obs: Observation[] = [avail(at(0), 'AVAILABLE'), exec(at(0), 'ACTIVE'), count(at(0), 0)];
    for (let k = 1; k < 1000; k++) obs.push(count(at(k * 10), k));
    const held = [connect(at(10_000))];
    const chunks: Observation[][] = [];
    for (let i = 0; i < obs.length; i += 300) chunks.push(obs.slice(i, i + 300));
    const now = at(10_001);
    const stored = storedAfterPushes(PC, held, chunks, now);
    const reference = deriveMachineHistory([...held, ...obs], PC, now);
    // METRICS.md §3: each increment is one completed cycle.
    expect(stored.cycles.reduce((n, c) => n + c.count, 0)).toBe(999);
    expect(stored).toEqual(storedOf(reference));
  });

  it('stores the one-shot derivation for long histories delivered in chunks behind a newer observation', () => {
    const longHistoryArb = fc.array(observationArb, { minLength: 300, maxLength: 900 });
    fc.assert(
      fc.property(longHistoryArb, configArb, fc.array(fc.nat(), { maxLength: 5 }), (obs, config, cuts) => {
        const sorted = [...obs].sort(compareObservations);
        const held = [exec(at(1900), 'READY')];
        const points = [...new Set(cuts.map((c) => c % sorted.length))].sort((a, b) => a - b);
        const chunks: Observation[][] = [];
        let prev = 0;
        for (const p of [...points, sorted.length]) {
          chunks.push(sorted.slice(prev, p));
          prev = p;
        }
        const stored = storedAfterPushes(config, held, chunks, NOW);
        // A store keeps records, not the order a push wrote them in: compare each kind as a set.
        expect(asSets(stored)).toEqual(
          asSets(storedOf(deriveMachineHistory([...held, ...obs], config, NOW))),
        );
      }),
      { numRuns: 30, endOnFailure: true },
    );
  });
});
