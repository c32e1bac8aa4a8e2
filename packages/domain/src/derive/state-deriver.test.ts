import { describe, expect, it } from 'vitest';
import { epochMs, MINUTE_MS } from '../brand';
import type { DeriverConfig, Observation } from './observations';
import type { DerivationResult } from './outputs';
import { deriveMachineHistory, StateDeriver } from './state-deriver';
import {
  at,
  atMin,
  avail,
  condition,
  count,
  cycleSignal,
  disconnect,
  exec,
  feed,
  pings,
  program,
  setupEnd,
  setupStart,
  spindle,
  subprogram,
  T0,
} from './test-builders';

const PC: DeriverConfig = { cycleSource: 'part_count' };
const EX: DeriverConfig = { cycleSource: 'execution' };

/** Compact view of intervals: [startS, endS, state, reason]. */
function states(r: DerivationResult) {
  return r.intervals.map((i) => [(i.start - T0) / 1000, (i.end - T0) / 1000, i.state, i.reason]);
}
function cyclesOf(r: DerivationResult) {
  return r.cycles.map((c) => [(c.start - T0) / 1000, (c.end - T0) / 1000, c.count, c.source]);
}

describe('state intervals (METRICS.md §1)', () => {
  it.each([
    {
      name: 'READY → ACTIVE → READY',
      obs: [exec(at(0), 'READY'), exec(at(10), 'ACTIVE'), exec(at(70), 'READY')],
      now: 100,
      want: [
        [0, 10, 'INACTIVE', 'READY'],
        [10, 70, 'ACTIVE', null],
        [70, 100, 'INACTIVE', 'READY'],
      ],
    },
    {
      name: 'idle reason changes split INACTIVE intervals',
      obs: [exec(at(0), 'ACTIVE'), exec(at(10), 'FEED_HOLD'), exec(at(20), 'PROGRAM_STOPPED')],
      now: 30,
      want: [
        [0, 10, 'ACTIVE', null],
        [10, 20, 'INACTIVE', 'FEED_HOLD'],
        [20, 30, 'INACTIVE', 'PROGRAM_STOPPED'],
      ],
    },
    {
      name: 'execution UNAVAILABLE → UNAVAILABLE',
      obs: [exec(at(0), 'READY'), exec(at(10), 'UNAVAILABLE'), exec(at(20), 'READY')],
      now: 30,
      want: [
        [0, 10, 'INACTIVE', 'READY'],
        [10, 20, 'UNAVAILABLE', 'UNAVAILABLE'],
        [20, 30, 'INACTIVE', 'READY'],
      ],
    },
    {
      name: 'availability UNAVAILABLE overrides execution',
      obs: [exec(at(0), 'ACTIVE'), avail(at(10), 'UNAVAILABLE'), avail(at(20), 'AVAILABLE')],
      now: 30,
      want: [
        [0, 10, 'ACTIVE', null],
        [10, 20, 'UNAVAILABLE', 'UNAVAILABLE'],
        [20, 30, 'ACTIVE', null],
      ],
    },
    {
      name: 'a FAULT condition while idle → FAULT with its message; NORMAL clears it',
      obs: [
        exec(at(0), 'READY'),
        condition(at(10), { level: 'FAULT', nativeCode: 'E1', message: 'Door open' }),
        condition(at(20), { level: 'NORMAL', nativeCode: 'E1' }),
      ],
      now: 30,
      want: [
        [0, 10, 'INACTIVE', 'READY'],
        [10, 20, 'FAULT', 'Door open'],
        [20, 30, 'INACTIVE', 'READY'],
      ],
    },
    {
      name: 'a fault while in cycle is still ACTIVE (not in cycle → FAULT)',
      obs: [
        exec(at(0), 'ACTIVE'),
        condition(at(10), { level: 'FAULT', nativeCode: 'E1', message: 'Low oil' }),
        exec(at(20), 'STOPPED'),
      ],
      now: 30,
      want: [
        [0, 20, 'ACTIVE', null],
        [20, 30, 'FAULT', 'Low oil'],
      ],
    },
    {
      name: 'SETUP overrides the machine state',
      obs: [exec(at(0), 'ACTIVE'), setupStart(at(10)), setupEnd(at(20))],
      now: 30,
      want: [
        [0, 10, 'ACTIVE', null],
        [10, 20, 'SETUP', null],
        [20, 30, 'ACTIVE', null],
      ],
    },
    {
      name: 'several values at one instant leave no zero-length interval',
      obs: [
        exec(at(0), 'READY'),
        { ...exec(at(10), 'ACTIVE'), seq: 1 },
        { ...exec(at(10), 'READY'), seq: 2 },
      ],
      now: 20,
      want: [[0, 20, 'INACTIVE', 'READY']],
    },
  ])('$name', ({ obs, now, want }) => {
    expect(states(deriveMachineHistory(obs, PC, at(now)))).toEqual(want);
  });

  it('silence keeps the last state: a 12-minute FAULT with nothing said is 12 minutes of FAULT', () => {
    const r = deriveMachineHistory(
      [
        exec(at(0), 'READY'),
        condition(atMin(1), { level: 'FAULT', nativeCode: 'E1', message: 'Door open' }),
        condition(atMin(13), { level: 'NORMAL' }),
      ],
      PC,
      atMin(14),
    );
    expect(states(r)).toEqual([
      [0, 60, 'INACTIVE', 'READY'],
      [60, 780, 'FAULT', 'Door open'],
      [780, 840, 'INACTIVE', 'READY'],
    ]);
    expect(r.current.connected).toBe(true);
  });

  it('an idle machine that says nothing for an hour is idle for that hour, and ACTIVE resumes at once', () => {
    const r = deriveMachineHistory([exec(at(0), 'ACTIVE'), exec(atMin(80), 'READY')], PC, atMin(81));
    expect(states(r)).toEqual([
      [0, 4800, 'ACTIVE', null],
      [4800, 4860, 'INACTIVE', 'READY'],
    ]);
  });

  it('operator setup events are no link evidence, and heartbeats change no state', () => {
    const r = deriveMachineHistory(
      [exec(at(0), 'READY'), ...pings(30, 900), setupStart(at(200)), setupEnd(at(400))],
      PC,
      at(900),
    );
    expect(states(r)).toEqual([
      [0, 200, 'INACTIVE', 'READY'],
      [200, 400, 'SETUP', null],
      [400, 900, 'INACTIVE', 'READY'],
    ]);
    expect(r.current.lastHeartbeat).toBe(at(870));
  });

  it('a disconnect makes the machine UNAVAILABLE and closes open faults and programs', () => {
    const r = deriveMachineHistory(
      [
        exec(at(0), 'READY'),
        program(at(0), 'O100'),
        condition(at(5), { level: 'FAULT', nativeCode: 'E9', message: 'Servo' }),
        disconnect(at(10)),
        exec(at(40), 'READY'),
      ],
      PC,
      at(50),
    );
    expect(states(r)).toEqual([
      [0, 5, 'INACTIVE', 'READY'],
      [5, 10, 'FAULT', 'Servo'],
      [10, 40, 'UNAVAILABLE', 'DISCONNECTED'],
      [40, 50, 'INACTIVE', 'READY'],
    ]);
    expect(
      r.faults.map((f) => [(f.start - T0) / 1000, f.duration / 1000, f.value, f.nativecode, f.open]),
    ).toEqual([[5, 5, 'Servo', 'E9', undefined]]);
    expect(r.programs.map((p) => [(p.start - T0) / 1000, (p.end - T0) / 1000, p.name])).toEqual([
      [0, 10, 'O100'],
    ]);
  });
});

describe('faults (live-operations §3 Fault)', () => {
  it('records start, duration, value, nativecode, type; NORMAL without a code clears every code of the item', () => {
    const r = deriveMachineHistory(
      [
        exec(at(0), 'READY'),
        condition(at(10), { level: 'FAULT', nativeCode: 'A', message: 'Alarm A', type: 'LOGIC_PROGRAM' }),
        condition(at(15), { level: 'FAULT', nativeCode: 'B', message: 'Alarm B' }),
        condition(at(15), { item: 'hydraulic', level: 'FAULT', nativeCode: 'H', message: 'Pressure' }),
        condition(at(30), { level: 'NORMAL' }),
        condition(at(40), { item: 'hydraulic', level: 'WARNING', nativeCode: 'H' }),
      ],
      PC,
      at(60),
    );
    expect(
      r.faults.map((f) => [(f.start - T0) / 1000, f.duration / 1000, f.value, f.nativecode, f.type, f.item]),
    ).toEqual([
      [10, 20, 'Alarm A', 'A', 'LOGIC_PROGRAM', 'system'],
      [15, 15, 'Alarm B', 'B', 'SYSTEM', 'system'],
      [15, 25, 'Pressure', 'H', 'SYSTEM', 'hydraulic'],
    ]);
    expect(states(r)).toEqual([
      [0, 10, 'INACTIVE', 'READY'],
      [10, 30, 'FAULT', 'Alarm A'],
      [30, 40, 'FAULT', 'Pressure'], // the hydraulic fault is still active
      [40, 60, 'INACTIVE', 'READY'],
    ]);
  });

  it('an uncleared fault is open and cut at now', () => {
    const r = deriveMachineHistory(
      [exec(at(0), 'READY'), condition(at(10), { level: 'FAULT', message: 'E-stop' }), ...pings(30, 120)],
      PC,
      at(120),
    );
    expect(r.faults).toHaveLength(1);
    expect(r.faults[0]).toMatchObject({ start: at(10), end: at(120), open: true, value: 'E-stop' });
    expect(r.current).toMatchObject({ state: 'FAULT', faultSince: at(10), faultMessage: 'E-stop' });
  });
});

describe('cycles', () => {
  it('part_count: a cycle ends at each increment and starts at the first ACTIVE since the previous end', () => {
    const r = deriveMachineHistory(
      [
        exec(at(0), 'READY'),
        count(at(0), 1065), // baseline, not a cycle
        exec(at(10), 'ACTIVE'),
        exec(at(40), 'FEED_HOLD'), // a pause inside the cycle does not end it
        exec(at(50), 'ACTIVE'),
        exec(at(100), 'PROGRAM_COMPLETED'),
        count(at(101), 1066),
        exec(at(110), 'ACTIVE'),
        count(at(170), 1068), // +2 in one step
        count(at(230), 1069), // continuous production: the next cycle starts at the previous end
        exec(at(240), 'READY'),
      ],
      PC,
      at(300),
    );
    expect(cyclesOf(r)).toEqual([
      [10, 101, 1, 'part_count'],
      [110, 170, 2, 'part_count'],
      [170, 230, 1, 'part_count'],
    ]);
  });

  it('counts in the same millisecond make one cycle with their summed count (a cycle is known by its end)', () => {
    // Two steps stamped alike: an agent batch, or machine times clamped to the time they were received.
    const obs = [
      exec(at(0), 'ACTIVE'),
      count(at(0), 10),
      count(at(20), 11),
      count(at(30), 12),
      count(at(30), 13),
    ];
    expect(cyclesOf(deriveMachineHistory(obs, PC, at(100)))).toEqual([
      [0, 20, 1, 'part_count'],
      [20, 30, 2, 'part_count'],
    ]);
    // Delivered one at a time, the same.
    const d = new StateDeriver(PC);
    for (const o of obs) d.push([o]);
    expect(cyclesOf(d.result(at(100)))).toEqual([
      [0, 20, 1, 'part_count'],
      [20, 30, 2, 'part_count'],
    ]);
  });

  it.each([
    { name: 'a decrease is a counter reset and the new baseline', seq: [5, 0, 1], want: 1 },
    { name: 'UNAVAILABLE makes the next value a baseline', seq: [5, null, 9, 10], want: 1 },
    { name: 'a repeated value is not a cycle', seq: [5, 5, 5, 6], want: 1 },
    { name: 'the first value is a baseline', seq: [7], want: 0 },
  ])('part_count: $name', ({ seq, want }) => {
    const obs = [exec(at(0), 'ACTIVE'), ...seq.map((v, i) => count(at(10 + i * 10), v))];
    expect(deriveMachineHistory(obs, PC, at(100)).cycles).toHaveLength(want);
  });

  it('execution: a cycle ends when execution leaves ACTIVE for PROGRAM_COMPLETED, only then', () => {
    const r = deriveMachineHistory(
      [
        exec(at(0), 'READY'),
        count(at(0), 0),
        exec(at(10), 'ACTIVE'),
        exec(at(70), 'PROGRAM_COMPLETED'), // cycle 1
        count(at(71), 1), // ignored in execution mode
        exec(at(80), 'ACTIVE'),
        exec(at(90), 'FEED_HOLD'),
        exec(at(95), 'PROGRAM_COMPLETED'), // left ACTIVE for FEED_HOLD, not for PROGRAM_COMPLETED
        exec(at(100), 'ACTIVE'),
        exec(at(130), 'STOPPED'),
        cycleSignal(at(140)), // the adapter's mapped cycle signal
      ],
      EX,
      at(200),
    );
    expect(cyclesOf(r)).toEqual([
      [10, 70, 1, 'execution'],
      [80, 140, 1, 'cycle_signal'],
    ]);
  });

  it('part_count mode ignores PROGRAM_COMPLETED and the cycle signal', () => {
    const r = deriveMachineHistory(
      [exec(at(0), 'ACTIVE'), exec(at(10), 'PROGRAM_COMPLETED'), cycleSignal(at(11))],
      PC,
      at(20),
    );
    expect(r.cycles).toEqual([]);
  });

  it('a cycle that ends in setup is marked setup', () => {
    const r = deriveMachineHistory(
      [
        exec(at(0), 'ACTIVE'),
        setupStart(at(1)),
        count(at(2), 1),
        count(at(30), 2),
        setupEnd(at(40)),
        count(at(60), 3),
      ],
      PC,
      at(70),
    );
    expect(r.cycles.map((c) => c.setup)).toEqual([true, false]);
  });

  it('the okuma quirks (shared/data): counter back to 0 per run, a jump across a 23-minute gap', () => {
    // The four concatenated runs of cppagent_demo_okuma.shdr.txt, in time order, reduced to the cycle fields.
    const t = (iso: string) => epochMs(Date.parse(iso));
    const obs: Observation[] = [
      exec(t('2022-08-08T13:37:18.85Z'), 'READY'),
      count(t('2022-08-08T13:37:18.85Z'), 0),
      exec(t('2022-08-08T13:37:22.79Z'), 'ACTIVE'),
      exec(t('2022-08-08T13:47:27.75Z'), 'PROGRAM_COMPLETED'),
      count(t('2022-08-08T13:47:27.83Z'), 1),
      exec(t('2022-08-08T13:47:28.00Z'), 'READY'),
      exec(t('2022-08-08T13:51:34.71Z'), 'READY'),
      count(t('2022-08-08T13:51:34.71Z'), 0),
      exec(t('2022-08-08T13:51:36.77Z'), 'ACTIVE'),
      exec(t('2022-08-08T13:54:43.50Z'), 'PROGRAM_COMPLETED'),
      exec(t('2022-08-08T13:54:43.74Z'), 'READY'),
      count(t('2022-08-08T13:54:43.82Z'), 1),
      exec(t('2022-08-08T13:57:41.91Z'), 'READY'),
      count(t('2022-08-08T13:57:41.91Z'), 0),
      exec(t('2022-08-08T13:57:44.32Z'), 'ACTIVE'),
      exec(t('2022-08-08T13:58:01.08Z'), 'PROGRAM_COMPLETED'),
      count(t('2022-08-08T13:58:01.15Z'), 1),
      exec(t('2022-08-08T13:58:01.32Z'), 'READY'),
      exec(t('2022-08-08T14:21:07.64Z'), 'READY'),
      count(t('2022-08-08T14:21:07.64Z'), 2),
      exec(t('2022-08-08T14:21:10.51Z'), 'ACTIVE'),
      exec(t('2022-08-08T14:30:19.44Z'), 'PROGRAM_COMPLETED'),
      count(t('2022-08-08T14:30:19.51Z'), 3),
    ];
    const now = t('2022-08-08T14:31:00Z');
    const byExecution = deriveMachineHistory(obs, EX, now);
    expect(byExecution.cycles).toHaveLength(4);
    expect(byExecution.cycles.map((c) => Math.round(c.duration / 1000))).toEqual([605, 187, 17, 549]);
    // Counting increments would credit a cycle to the reconnect (1 → 2 after the gap) with no ACTIVE in it,
    // spanning the 23-minute gap: that is why this machine's part count is not usable (execution mode).
    const byCount = deriveMachineHistory(obs, PC, now);
    expect(byCount.cycles).toHaveLength(5);
    expect(byCount.cycles[3]).toMatchObject({
      start: t('2022-08-08T13:58:01.15Z'),
      end: t('2022-08-08T14:21:07.64Z'),
    });
  });
});

describe('programs and utilization flags', () => {
  it('program and sub-program intervals; blank names are no program', () => {
    const r = deriveMachineHistory(
      [
        exec(at(0), 'ACTIVE'),
        program(at(0), 'O100'),
        subprogram(at(10), 'O9001'),
        subprogram(at(20), ' '),
        program(at(30), 'O200'),
        ...pings(30, 60),
      ],
      PC,
      at(60),
    );
    expect(
      r.programs.map((p) => [(p.start - T0) / 1000, (p.end - T0) / 1000, p.name, p.open ?? false]),
    ).toEqual([
      [0, 30, 'O100', false],
      [30, 60, 'O200', true],
    ]);
    expect(r.subprograms.map((p) => [(p.start - T0) / 1000, (p.end - T0) / 1000, p.name])).toEqual([
      [10, 20, 'O9001'],
    ]);
  });

  it('spindle rotating while speed > 0 with data; in cut only while ACTIVE with feedrate > 0', () => {
    const r = deriveMachineHistory(
      [
        exec(at(0), 'READY'),
        spindle(at(5), 1000), // warm-up while idle counts as rotating
        feed(at(5), 50), // feeding while idle is not in cut
        exec(at(10), 'ACTIVE'),
        feed(at(20), 0),
        feed(at(25), 80),
        exec(at(30), 'READY'),
        spindle(at(40), 0),
      ],
      PC,
      at(50),
    );
    const spans = (xs: { start: number; end: number }[]) =>
      xs.map((s) => [(s.start - T0) / 1000, (s.end - T0) / 1000]);
    expect(spans(r.spindle)).toEqual([[5, 40]]);
    expect(spans(r.inCut)).toEqual([
      [10, 20],
      [25, 30],
    ]);
  });
});

describe('current signals for the live view', () => {
  it('reports state, since and the last values', () => {
    const r = deriveMachineHistory(
      [exec(at(0), 'READY'), program(at(0), 'O1'), count(at(0), 4), exec(at(30), 'ACTIVE'), ...pings(30, 90)],
      PC,
      at(90),
    );
    expect(r.current).toMatchObject({
      state: 'ACTIVE',
      since: at(30),
      execution: 'ACTIVE',
      program: 'O1',
      partCount: 4,
      connected: true,
      lastHeartbeat: at(60),
    });
    expect(MINUTE_MS).toBe(60_000);
  });
});
