// METRICS.md §1 "The newest evidence wins" (decision 1000): an availability UNAVAILABLE holds only until the
// device sends newer data; UNAVAILABLE again only when the source says so again or the link drops.
import { describe, expect, it } from 'vitest';
import { epochMs } from '../brand';
import { heldAvailability, isReportingEvidence } from './availability';
import { LinkClock } from './link';
import type { DeriverConfig, Observation } from './observations';
import type { DerivationResult } from './outputs';
import { deriveMachineHistory, StateDeriver } from './state-deriver';
import {
  at,
  avail,
  condition,
  connect,
  count,
  disconnect,
  exec,
  feed,
  mode,
  ping,
  program,
  spindle,
  T0,
} from './test-builders';

const PC: DeriverConfig = { cycleSource: 'part_count' };

/** [startS, endS, state, reason] */
function states(r: DerivationResult) {
  return r.intervals.map((i) => [(i.start - T0) / 1000, (i.end - T0) / 1000, i.state, i.reason]);
}

describe('availability UNAVAILABLE and newer evidence', () => {
  it.each([
    {
      name: 'UNAVAILABLE, then execution ACTIVE → ACTIVE from the execution’s time',
      obs: [avail(at(0), 'UNAVAILABLE'), exec(at(10), 'ACTIVE')],
      want: [
        [0, 10, 'UNAVAILABLE', 'UNAVAILABLE'],
        [10, 100, 'ACTIVE', null],
      ],
    },
    {
      name: 'a Mazak01-shaped header (everything UNAVAILABLE at once), then STOPPED → INACTIVE from STOPPED',
      obs: [
        avail(at(0), 'UNAVAILABLE'),
        exec(at(0), 'UNAVAILABLE'),
        mode(at(0), null),
        count(at(0), null),
        exec(at(60), 'STOPPED'),
      ],
      want: [
        [0, 60, 'UNAVAILABLE', 'UNAVAILABLE'],
        [60, 100, 'INACTIVE', 'STOPPED'],
      ],
    },
    {
      name: 'execution ACTIVE, then availability UNAVAILABLE → UNAVAILABLE, held through silence',
      obs: [exec(at(0), 'ACTIVE'), avail(at(10), 'UNAVAILABLE')],
      want: [
        [0, 10, 'ACTIVE', null],
        [10, 100, 'UNAVAILABLE', 'UNAVAILABLE'],
      ],
    },
    {
      name: 'UNAVAILABLE again later → UNAVAILABLE again, until newer evidence again',
      obs: [
        avail(at(0), 'UNAVAILABLE'),
        exec(at(10), 'ACTIVE'),
        avail(at(50), 'UNAVAILABLE'),
        exec(at(70), 'READY'),
      ],
      want: [
        [0, 10, 'UNAVAILABLE', 'UNAVAILABLE'],
        [10, 50, 'ACTIVE', null],
        [50, 70, 'UNAVAILABLE', 'UNAVAILABLE'],
        [70, 100, 'INACTIVE', 'READY'],
      ],
    },
    {
      name: 'a later AVAILABLE changes nothing while the device reports',
      obs: [avail(at(0), 'UNAVAILABLE'), exec(at(10), 'ACTIVE'), avail(at(20), 'AVAILABLE')],
      want: [
        [0, 10, 'UNAVAILABLE', 'UNAVAILABLE'],
        [10, 100, 'ACTIVE', null],
      ],
    },
    {
      name: 'a part count after the UNAVAILABLE is evidence: the held execution ACTIVE counts again',
      obs: [exec(at(0), 'ACTIVE'), avail(at(10), 'UNAVAILABLE'), count(at(40), 7)],
      want: [
        [0, 10, 'ACTIVE', null],
        [10, 40, 'UNAVAILABLE', 'UNAVAILABLE'],
        [40, 100, 'ACTIVE', null],
      ],
    },
    {
      name: 'a controller mode after the UNAVAILABLE is evidence',
      obs: [exec(at(0), 'READY'), avail(at(10), 'UNAVAILABLE'), mode(at(30), 'AUTOMATIC')],
      want: [
        [0, 10, 'INACTIVE', 'READY'],
        [10, 30, 'UNAVAILABLE', 'UNAVAILABLE'],
        [30, 100, 'INACTIVE', 'READY'],
      ],
    },
    {
      name: 'samples, programs, conditions, heartbeats and UNAVAILABLE or blank values are no evidence',
      obs: [
        exec(at(0), 'ACTIVE'),
        avail(at(10), 'UNAVAILABLE'),
        spindle(at(20), 1200),
        feed(at(21), 300),
        program(at(22), 'O1000'),
        condition(at(23), { level: 'NORMAL' }),
        ping(at(24)),
        exec(at(25), 'UNAVAILABLE'),
        mode(at(26), ''),
        mode(at(27), 'UNAVAILABLE'),
        count(at(28), null),
      ],
      want: [
        [0, 10, 'ACTIVE', null],
        [10, 100, 'UNAVAILABLE', 'UNAVAILABLE'],
      ],
    },
    {
      name: 'evidence in the same millisecond as the UNAVAILABLE does not end it (either key first)',
      obs: [avail(at(0), 'UNAVAILABLE'), exec(at(0), 'ACTIVE'), exec(at(40), 'ACTIVE')],
      want: [
        [0, 40, 'UNAVAILABLE', 'UNAVAILABLE'],
        [40, 100, 'ACTIVE', null],
      ],
    },
    {
      name: 'execution then UNAVAILABLE in one millisecond → UNAVAILABLE',
      obs: [exec(at(0), 'READY'), exec(at(10), 'ACTIVE'), avail(at(10), 'UNAVAILABLE')],
      want: [
        [0, 10, 'INACTIVE', 'READY'],
        [10, 100, 'UNAVAILABLE', 'UNAVAILABLE'],
      ],
    },
    {
      name: 'a link drop is UNAVAILABLE whatever the evidence before it; data after the reconnect ends it',
      obs: [
        avail(at(0), 'UNAVAILABLE'),
        exec(at(10), 'ACTIVE'),
        disconnect(at(50)),
        connect(at(60)),
        avail(at(60), 'UNAVAILABLE'),
        exec(at(80), 'ACTIVE'),
      ],
      want: [
        [0, 10, 'UNAVAILABLE', 'UNAVAILABLE'],
        [10, 50, 'ACTIVE', null],
        [50, 60, 'UNAVAILABLE', 'DISCONNECTED'],
        [60, 80, 'UNAVAILABLE', 'UNAVAILABLE'],
        [80, 100, 'ACTIVE', null],
      ],
    },
  ])('$name', ({ obs, want }) => {
    expect(states(deriveMachineHistory(obs, PC, at(100)))).toEqual(want);
    // Delivery order never matters (late data, a rebuild from storage): reversed, one by one.
    const d = new StateDeriver(PC);
    for (const o of [...obs].reverse()) d.push([o]);
    expect(states(d.result(at(100)))).toEqual(want);
  });

  it('the live view says what the source said, and the state the evidence gives', () => {
    const r = deriveMachineHistory([avail(at(0), 'UNAVAILABLE'), exec(at(5), 'ACTIVE')], PC, at(9));
    expect(r.current).toMatchObject({ state: 'ACTIVE', since: at(5), availability: 'UNAVAILABLE' });
  });

  it('an SHDR header UNAVAILABLE placed by the link clock (a drop) is ended by the data after it', () => {
    // Live ingest places an availability UNAVAILABLE as a drop; the adapter's later lines keep their times.
    const clock = new LinkClock('shdr');
    const arrivals: Array<[Observation, number]> = [
      [avail(at(0), 'UNAVAILABLE'), 0],
      [exec(at(0), 'UNAVAILABLE'), 0],
      [exec(at(30), 'ACTIVE'), 30],
      [count(at(30), 0), 30],
      [count(at(90), 1), 90],
    ];
    const placed = arrivals.map(([o, s]) => {
      clock.receipt();
      return { ...o, ts: epochMs(clock.place(o, at(s))) };
    });
    const r = deriveMachineHistory(placed, PC, at(120));
    expect(states(r)).toEqual([
      [0, 30, 'UNAVAILABLE', 'UNAVAILABLE'],
      [30, 120, 'ACTIVE', null],
    ]);
    expect(r.cycles.map((c) => [(c.start - T0) / 1000, (c.end - T0) / 1000, c.count])).toEqual([[30, 90, 1]]);
  });
});

describe('the rule itself', () => {
  it.each([
    { availability: 'UNAVAILABLE', at: 10, reporting: 11, want: null },
    { availability: 'unavailable', at: 10, reporting: 11, want: null },
    { availability: 'UNAVAILABLE', at: 10, reporting: 10, want: 'UNAVAILABLE' },
    { availability: 'UNAVAILABLE', at: 10, reporting: 9, want: 'UNAVAILABLE' },
    { availability: 'UNAVAILABLE', at: 10, reporting: -Infinity, want: 'UNAVAILABLE' },
    { availability: 'AVAILABLE', at: 10, reporting: 11, want: 'AVAILABLE' },
    { availability: null, at: -Infinity, reporting: 11, want: null },
  ])('$availability at $at, reporting at $reporting → $want', ({ availability, at: t, reporting, want }) => {
    expect(heldAvailability(availability, t, reporting)).toBe(want);
  });

  it.each([
    [exec(at(0), 'READY'), true],
    [exec(at(0), null), false],
    [mode(at(0), 'MANUAL'), true],
    [mode(at(0), ' '), false],
    [count(at(0), 0), true],
    [count(at(0), null), false],
    [avail(at(0), 'AVAILABLE'), false],
    [program(at(0), 'O1'), false],
    [spindle(at(0), 100), false],
  ] as const)('%o is evidence: %s', (o, want) => {
    expect(isReportingEvidence(o)).toBe(want);
  });
});
