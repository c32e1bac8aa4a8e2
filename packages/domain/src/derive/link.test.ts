import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { epochMs } from '../brand';
import type { SourceKind } from './link';
import { GATEWAY_RESPONSE_TIMEOUT_MS, gatewayLinkLostAt, LinkClock, shdrSilenceLimitMs } from './link';
import type { DeriverConfig, Observation } from './observations';
import type { DerivationResult } from './outputs';
import { deriveMachineHistory } from './state-deriver';
import { at, avail, condition, connect, count, disconnect, exec, ping, T0 } from './test-builders';

const PC: DeriverConfig = { cycleSource: 'part_count' };

/** One observation as a source delivers it: stamped `o.ts` by the machine's clock, received at `receivedAt` (s). */
interface Arrival {
  o: Observation;
  receivedAt: number;
  /** Received with the arrival before it (one agent document). */
  together?: boolean;
}
const arrive = (o: Observation, receivedS: number): Arrival => ({ o, receivedAt: at(receivedS) });
/** Observations received as one (an agent's /current). */
const arriveTogether = (os: readonly Observation[], receivedS: number): Arrival[] =>
  os.map((o, i) => ({ o, receivedAt: at(receivedS), together: i > 0 }));

/** The source's arrivals, in arrival order, placed by its LinkClock and derived up to `nowS`. */
function derive(kind: SourceKind, arrivals: readonly Arrival[], nowS: number): DerivationResult {
  const clock = new LinkClock(kind);
  const placed = arrivals.map(({ o, receivedAt, together }) => {
    if (!together) clock.receipt();
    return { ...o, ts: epochMs(clock.place(o, receivedAt)) };
  });
  return deriveMachineHistory(placed, PC, at(nowS));
}

/** [startS, endS, state, reason] */
function states(r: DerivationResult) {
  return r.intervals.map((i) => [(i.start - T0) / 1000, (i.end - T0) / 1000, i.state, i.reason]);
}

describe('SHDR socket', () => {
  it('drops the link after 2× the PONG interval of silence; without PONG only the socket says so', () => {
    expect(shdrSilenceLimitMs(10_000)).toBe(20_000);
    expect(shdrSilenceLimitMs(null)).toBeNull();
  });

  it('an idle machine whose adapter only answers PONG stays idle for the hour; the socket drop makes it UNAVAILABLE', () => {
    const arrivals = [arrive(exec(at(0), 'READY'), 0)];
    for (let s = 10; s < 3600; s += 10) arrivals.push(arrive(ping(at(s)), s));
    arrivals.push(arrive(disconnect(at(3605)), 3605));
    arrivals.push(arrive(connect(at(3700)), 3700));
    arrivals.push(arrive(exec(at(3700), 'ACTIVE'), 3700));
    expect(states(derive('shdr', arrivals, 3800))).toEqual([
      [0, 3605, 'INACTIVE', 'READY'],
      [3605, 3700, 'UNAVAILABLE', 'DISCONNECTED'],
      [3700, 3800, 'ACTIVE', null],
    ]);
  });

  it('an adapter clock ahead of ours: data is placed at its receipt, so the drop after it still follows it', () => {
    const r = derive(
      'shdr',
      [arrive(exec(at(30), 'ACTIVE'), 10), arrive(disconnect(at(20)), 20), arrive(connect(at(40)), 40)],
      50,
    );
    expect(states(r)).toEqual([
      [10, 20, 'ACTIVE', null],
      [20, 40, 'UNAVAILABLE', 'DISCONNECTED'],
      [40, 50, 'UNAVAILABLE', 'UNAVAILABLE'],
    ]);
  });

  it('lines of an adapter clock ahead of ours read in one millisecond keep a millisecond each (decision 1154)', () => {
    const clock = new LinkClock('shdr');
    const line = (stampMs: number, receivedMs: number) => {
      clock.receipt();
      return [
        clock.place(exec(epochMs(at(0) + stampMs), 'ACTIVE'), at(0) + receivedMs),
        clock.place(count(epochMs(at(0) + stampMs), 1), at(0) + receivedMs),
      ];
    };
    expect(line(0, 0)).toEqual([at(0), at(0)]);
    // Stamped a millisecond ahead and read in the first one's millisecond: after it, not with it.
    expect(line(1, 0)).toEqual([at(0) + 1, at(0) + 1]);
    expect(line(2, 0)).toEqual([at(0) + 2, at(0) + 2]);
    expect(line(3, 3)).toEqual([at(0) + 3, at(0) + 3]);
    // Ahead and read in a millisecond no earlier line holds: placed at its receipt, as before.
    expect(line(9, 5)).toEqual([at(0) + 5, at(0) + 5]);
    expect(line(10, 10)).toEqual([at(0) + 10, at(0) + 10]);
    // The source's own lines of one stamp stay in one millisecond.
    expect(line(12, 12)).toEqual([at(0) + 12, at(0) + 12]);
    expect(line(12, 12)).toEqual([at(0) + 12, at(0) + 12]);
  });
});

describe('MTConnect agent', () => {
  it('a disconnect stamped before data received earlier takes effect after that data, not before', () => {
    // The agent's clock runs behind the adapter's: ACTIVE stamped 104 (adapter) arrives, then the agent
    // stamps the adapter it lost at 102 (its own clock).
    const r = derive(
      'agent',
      [
        arrive(exec(at(100), 'READY'), 100),
        arrive(exec(at(104), 'ACTIVE'), 104.5),
        arrive(disconnect(at(102)), 105),
        arrive(exec(at(106), 'ACTIVE'), 106),
      ],
      200,
    );
    // The drop lands 1 ms after 104 (the data received before it), and the data received after it ends it.
    expect(r.intervals.map((i) => [i.start - T0, i.end - T0, i.state])).toEqual([
      [100_000, 104_000, 'INACTIVE'],
      [104_000, 104_001, 'ACTIVE'],
      [104_001, 106_000, 'UNAVAILABLE'],
      [106_000, 200_000, 'ACTIVE'],
    ]);
  });

  it('data received before the drop never re-opens the link; only data received after it does', () => {
    const r = derive(
      'agent',
      [
        arrive(exec(at(0), 'ACTIVE'), 0),
        arrive(count(at(50), 7), 50), // stamped by the adapter's clock, received before the drop
        arrive(disconnect(at(30)), 55), // stamped by the agent's clock, 25 s behind
      ],
      100,
    );
    expect(r.intervals.map((i) => [i.start - T0, i.end - T0, i.state, i.reason])).toEqual([
      [0, 50_001, 'ACTIVE', null],
      [50_001, 100_000, 'UNAVAILABLE', 'DISCONNECTED'],
    ]);
  });

  it('data received after a drop but stamped before it ends the drop at the drop (a lagging adapter clock)', () => {
    const r = derive(
      'agent',
      [arrive(exec(at(0), 'READY'), 0), arrive(disconnect(at(60)), 60), arrive(exec(at(55), 'ACTIVE'), 90)],
      120,
    );
    expect(states(r)).toEqual([
      [0, 60, 'INACTIVE', 'READY'],
      [60, 120, 'ACTIVE', null],
    ]);
  });

  it('the agent saying UNAVAILABLE is a drop too: placed after the data received before it, ended by AVAILABLE', () => {
    const r = derive(
      'agent',
      [
        arrive(avail(at(0), 'AVAILABLE'), 0),
        arrive(exec(at(0), 'READY'), 0),
        arrive(exec(at(20), 'ACTIVE'), 20),
        arrive(avail(at(15), 'UNAVAILABLE'), 31), // the agent's clock, behind the adapter's
        arrive(avail(at(70), 'AVAILABLE'), 70),
      ],
      100,
    );
    expect(r.intervals.map((i) => [i.start - T0, i.end - T0, i.state])).toEqual([
      [0, 20_000, 'INACTIVE'],
      [20_000, 20_001, 'ACTIVE'],
      [20_001, 70_000, 'UNAVAILABLE'],
      [70_000, 100_000, 'ACTIVE'],
    ]);
  });
});

describe('a new run (a worker started again, decision 0201)', () => {
  it("places what its connection brings no earlier than the connect: an agent's /current re-announces old values", () => {
    // A fresh worker connects at 500 s; the agent's /current carries each item's last change: AVAILABLE at
    // 100 s and FEED_HOLD at 400 s (before this run: the previous run's stored history covers that time).
    const r = derive(
      'agent',
      [
        arrive(connect(at(500)), 500),
        ...arriveTogether([avail(at(100), 'AVAILABLE'), exec(at(400), 'FEED_HOLD')], 501),
        arrive(exec(at(530), 'ACTIVE'), 530),
      ],
      600,
    );
    expect(states(r)).toEqual([
      [500, 530, 'INACTIVE', 'FEED_HOLD'],
      [530, 600, 'ACTIVE', null],
    ]);
  });

  it('re-derived from storage, a run keeps its connect as the floor for what came after it', () => {
    const clock = new LinkClock('shdr');
    clock.seen(at(500), connect(at(500)));
    expect(clock.place(exec(at(490), 'READY'), at(501))).toBe(at(500));
    // A gateway's backlog keeps the edge's times (it fills the gap with what really happened).
    const edge = new LinkClock('gateway');
    edge.seen(at(500), connect(at(500)));
    expect(edge.place(exec(at(490), 'READY'), at(501))).toBe(at(490));
  });
  it('lines stamped before a connect noted late keep their order, a millisecond each', () => {
    // Under load the worker notes the connect after the adapter already stamped and sent its first lines.
    const clock = new LinkClock('shdr');
    clock.place(exec(at(0), 'READY'), at(0));
    expect(clock.place(connect(at(1)), at(1))).toBe(at(1));
    const line = (stampMs: number, receivedMs: number) => {
      clock.receipt();
      return [
        clock.place(exec(epochMs(at(1) + stampMs), 'ACTIVE'), at(1) + receivedMs),
        clock.place(count(epochMs(at(1) + stampMs), 1), at(1) + receivedMs),
      ];
    };
    expect(line(-10, 1)).toEqual([at(1), at(1)]); // the items of one line stay together
    expect(line(-5, 1)).toEqual([at(1) + 1, at(1) + 1]);
    expect(line(0, 3)).toEqual([at(1) + 2, at(1) + 2]); // stamped at the connect, after two placed there
    expect(line(1, 4)).toEqual([at(1) + 3, at(1) + 3]);
    expect(line(9, 10)).toEqual([at(1) + 9, at(1) + 9]); // the stamps passed what was placed: kept
    expect(line(7, 11)).toEqual([at(1) + 7, at(1) + 7]); // an adapter's own disorder is not ours to mend
  });
});

describe('MQTT', () => {
  it("silence between messages keeps the state; the edge's last will (OFFLINE) drops the link", () => {
    const r = derive(
      'mqtt',
      [
        arrive(exec(at(0), 'READY'), 0),
        arrive(condition(at(600), { level: 'FAULT', nativeCode: 'A1', message: 'Coolant low' }), 600),
        arrive(disconnect(at(4200)), 4200), // the broker published the last will
        arrive(connect(at(4300)), 4300),
      ],
      4400,
    );
    expect(states(r)).toEqual([
      [0, 600, 'INACTIVE', 'READY'],
      [600, 4200, 'FAULT', 'Coolant low'],
      [4200, 4300, 'UNAVAILABLE', 'DISCONNECTED'],
      [4300, 4400, 'UNAVAILABLE', 'UNAVAILABLE'],
    ]);
  });
});

describe('gateway push', () => {
  it('the link is lost when edge health turns NotReporting: 300000 ms after the last response', () => {
    const last = at(1000);
    expect(GATEWAY_RESPONSE_TIMEOUT_MS).toBe(300_000);
    expect(gatewayLinkLostAt(last, last + 300_000)).toBeNull();
    expect(gatewayLinkLostAt(last, last + 300_001)).toBe(last + 300_000);
    expect(gatewayLinkLostAt(null, last)).toBeNull();
  });

  it("the backlog an edge pushes after the drop keeps the edge's times and fills the gap", () => {
    const r = derive(
      'gateway',
      [
        arrive(exec(at(0), 'READY'), 1),
        arrive(disconnect(at(300)), 330), // edge health NotReporting
        arrive(connect(at(3600)), 3600),
        arrive(exec(at(1200), 'ACTIVE'), 3600), // buffered by the edge while it could not push
        arrive(exec(at(2400), 'READY'), 3600),
      ],
      3700,
    );
    expect(states(r)).toEqual([
      [0, 300, 'INACTIVE', 'READY'],
      [300, 1200, 'UNAVAILABLE', 'DISCONNECTED'],
      [1200, 2400, 'ACTIVE', null],
      [2400, 3700, 'INACTIVE', 'READY'],
    ]);
  });
});

describe('replay of a recorded log', () => {
  it('has no heartbeat: its gaps of any length keep the last state, and recorded times are kept', () => {
    const r = derive(
      'replay',
      [
        // Replayed today: every recorded time is long before its receipt.
        arrive(exec(at(0), 'ACTIVE'), 1e6),
        arrive(exec(at(7200), 'READY'), 1e6),
        // A second recording concatenated after the first, with earlier times: read in recorded time.
        arrive(exec(at(-600), 'READY'), 1e6),
      ],
      7300,
    );
    expect(states(r)).toEqual([
      [-600, 0, 'INACTIVE', 'READY'],
      [0, 7200, 'ACTIVE', null],
      [7200, 7300, 'INACTIVE', 'READY'],
    ]);
  });
});

describe('every source kind', () => {
  const kinds: SourceKind[] = ['shdr', 'agent', 'mqtt', 'gateway', 'replay'];
  const EXECUTIONS = ['ACTIVE', 'READY', 'FEED_HOLD', 'STOPPED'];
  /** Data of one clock, in order, with heartbeats: a link that never drops. */
  const arrivalsArb = fc
    .array(fc.tuple(fc.integer({ min: 1, max: 600 }), fc.integer({ min: 0, max: 5 })), {
      minLength: 1,
      maxLength: 40,
    })
    .map((steps) => {
      let s = 0;
      return steps.map(([d, v]) => {
        s += d;
        const o =
          v < 4
            ? exec(at(s), EXECUTIONS[v]!)
            : v === 4
              ? ping(at(s))
              : condition(at(s), { level: 'FAULT', nativeCode: 'X', message: 'x' });
        return arrive(o, s);
      });
    });

  it('inserting silence of any length between two arrivals never creates UNAVAILABLE time and moves nothing else', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        arrivalsArb,
        fc.nat(),
        fc.integer({ min: 1, max: 7 * 24 * 3600 }),
        (kind, arrivals, cut, gapS) => {
          const k = cut % arrivals.length;
          const gapMs = gapS * 1000;
          const shifted = arrivals.map((a, i) =>
            i > k ? { o: { ...a.o, ts: epochMs(a.o.ts + gapMs) }, receivedAt: a.receivedAt + gapMs } : a,
          );
          const endS = (arrivals[arrivals.length - 1]!.receivedAt - T0) / 1000 + 1;
          const before = derive(kind, [arrive(exec(at(0), 'READY'), 0), ...arrivals], endS);
          const after = derive(kind, [arrive(exec(at(0), 'READY'), 0), ...shifted], endS + gapS);
          const total = (r: DerivationResult, state: string) =>
            r.intervals.filter((i) => i.state === state).reduce((t, i) => t + i.end - i.start, 0);
          expect(total(after, 'UNAVAILABLE')).toBe(total(before, 'UNAVAILABLE'));
          expect(after.intervals.length).toBe(before.intervals.length);
          const all = (r: DerivationResult) => r.intervals.reduce((t, i) => t + i.end - i.start, 0);
          expect(all(after) - all(before)).toBe(gapMs);
        },
      ),
      { numRuns: 200 },
    );
  });
});
