import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ReplayObservation, ReplayOptions } from './replay';
import { parseReplaySpeed, replayShdr } from './replay';
import { parseShdrLine, splitShdrStream } from '../sources/shdr/shdr';

const dataFile = (name: string) =>
  fileURLToPath(new URL(`../../../../../shared/data/mtconnect/${name}`, import.meta.url));
const OKUMA = dataFile('cppagent_demo_okuma.shdr.txt');
const HURCO = dataFile('nist_2-1-2017-Hurco04-Clean.shdr.txt');

/** A simulated clock: time moves only when the replay sleeps (or a test moves it). */
function simulatedClock(start = 1_000_000) {
  const clock = {
    t: start,
    sleeps: [] as number[],
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.sleeps.push(ms);
      clock.t += ms;
    },
  };
  return clock;
}

async function* chunks(...parts: string[]): AsyncIterable<string> {
  yield* parts;
}

const at = (s: number) => new Date(Date.UTC(2024, 0, 1) + s * 1000).toISOString();

async function replayLines(lines: string[], options: Partial<ReplayOptions> = {}) {
  const clock = simulatedClock();
  const seen: Array<[string, string | null, number]> = [];
  const summary = await replayShdr({
    source: chunks(lines.join('\n')),
    now: clock.now,
    sleep: clock.sleep,
    onObservations: (obs) => {
      for (const o of obs) seen.push([o.key, o.value, clock.t]);
    },
    ...options,
  });
  return { clock, seen, summary };
}

describe('parseReplaySpeed', () => {
  it.each([
    ['max', 'max'],
    ['MAX', 'max'],
    ['realtime', 'realtime'],
    ['10', 10],
    ['0.5', 0.5],
    ['0', null],
    ['-2', null],
    ['fast', null],
    ['', null],
    ['1e3', null],
  ])('%j → %j', (text, speed) => {
    expect(parseReplaySpeed(text)).toBe(speed);
  });
});

describe('replayShdr pacing', () => {
  const lines = [`${at(0)}|a|1`, `${at(1)}|a|2`, `${at(1.5)}|a|3`, `${at(0.2)}|a|4`, `${at(0.4)}|a|5`];

  it.each([
    // speed, rewindMs → the waits between lines (ms), new runs, jitter lines
    // 1.5 s → 0.2 s is a new run when rewindMs ≤ 1.3 s: waits nothing, then paces on (0.2 → 0.4)
    ['realtime', 1_000, [1000, 500, 200], 1, 0],
    [10, 1_000, [100, 50, 20], 1, 0],
    [0.5, 1_000, [2000, 1000, 400], 1, 0],
    ['max', 1_000, [], 1, 0],
    // otherwise it is jitter: both late lines go out at once and the anchor stays
    ['realtime', 5_000, [1000, 500], 0, 2],
  ] as const)('%s with rewindMs %d waits %j', async (speed, rewindMs, sleeps, backJumps, outOfOrderLines) => {
    const { clock, seen, summary } = await replayLines(lines, { speed, rewindMs });
    expect(clock.sleeps.map((ms) => Math.round(ms))).toEqual(sleeps);
    expect(seen.map(([, v]) => v)).toEqual(['1', '2', '3', '4', '5']);
    expect({ backJumps: summary.backJumps, outOfOrderLines: summary.outOfOrderLines }).toEqual({
      backJumps,
      outOfOrderLines,
    });
  });

  it('jitter does not add up to drift: the anchor stays where it was', async () => {
    const { clock } = await replayLines(
      [0, 1, 0.9, 2, 1.95, 3].map((s) => `${at(s)}|a|${s}`),
      { speed: 'realtime' },
    );
    expect(clock.sleeps.map((ms) => Math.round(ms))).toEqual([1000, 1000, 1000]);
  });

  it('measures against the wall clock, so a slow consumer does not make the replay drift', async () => {
    const clock = simulatedClock();
    await replayShdr({
      source: chunks([0, 1, 2, 3].map((s) => `${at(s)}|a|${s}`).join('\n')),
      speed: 'realtime',
      now: clock.now,
      sleep: clock.sleep,
      onObservations: () => {
        clock.t += 300; // the consumer takes 300 ms per line
      },
    });
    expect(clock.sleeps).toEqual([700, 700, 700]);
  });

  it('caps a long pause at maxGapMs and paces on from there', async () => {
    const { clock } = await replayLines([`${at(0)}|a|1`, `${at(3600)}|a|2`, `${at(3601)}|a|3`], {
      speed: 'realtime',
      maxGapMs: 5_000,
    });
    expect(clock.sleeps).toEqual([5_000, 1_000]);
  });

  it('lines without a timestamp and command lines do not pace, and take the previous line time', async () => {
    const { clock, seen, summary } = await replayLines(
      [`${at(0)}|a|1`, '* PONG 1000', '|a|2', `${at(2)}|a|3`],
      {
        speed: 'realtime',
      },
    );
    expect(clock.sleeps).toEqual([2_000]);
    expect(seen.map(([, v]) => v)).toEqual(['1', '2', '3']);
    expect(summary).toMatchObject({
      lines: 4,
      commands: 1,
      observations: 3,
      from: Date.UTC(2024, 0, 1),
      to: Date.UTC(2024, 0, 1, 0, 0, 2),
    });
  });

  it('reads lines split across chunks, CRLF endings included', async () => {
    const clock = simulatedClock();
    const keys: string[] = [];
    const summary = await replayShdr({
      source: chunks(`${at(0)}|execu`, `tion|ACTIVE\r\n${at(1)}|part_count|`, '3\r\n'),
      now: clock.now,
      sleep: clock.sleep,
      onObservations: (obs) => void keys.push(...obs.map((o) => `${o.key}=${o.value}`)),
    });
    expect(keys).toEqual(['execution=ACTIVE', 'part_count=3']);
    expect(summary.lines).toBe(2);
  });
});

describe('replayShdr on the real logs', () => {
  /** Data-line timestamps of a log, as the parser reads them (asset records aside). */
  function timestamps(file: string): number[] {
    const splitter = splitShdrStream();
    const out: number[] = [];
    for (const raw of [...splitter.push(readFileSync(file)), ...splitter.end()]) {
      const line = parseShdrLine(raw, Number.NaN);
      if (line.type !== 'data' || Number.isNaN(line.ts)) continue;
      if (line.observations.some((o) => o.kind !== 'asset')) out.push(line.ts);
    }
    return out;
  }

  it('replays the Okuma log at max speed: two jumps back to an earlier run, jitter, every asset block consumed', async () => {
    const clock = simulatedClock();
    const assets: string[] = [];
    const summary = await replayShdr({
      source: OKUMA,
      now: clock.now,
      sleep: clock.sleep,
      onObservations: (obs) => void assets.push(...obs.filter((o) => o.kind === 'asset').map((o) => o.key)),
    });
    expect(clock.sleeps).toEqual([]);
    // Stream time jumps back twice, by 17 and 33 minutes; over a thousand lines are up to 250 ms late.
    expect(summary.backJumps).toBe(2);
    expect(summary.outOfOrderLines).toBeGreaterThan(1_000);
    expect(assets.filter((k) => k === '@ASSET@')).toHaveLength(118);
    expect(summary.observations).toBeGreaterThan(10_000);
    expect(summary.rejected).toBe(0);
  });

  it('replays the Okuma log at recorded speed in simulated time: waits add up to the runs, never to the jumps', async () => {
    // What recorded speed means: each run takes as long as it spans, the jumps between runs take nothing.
    let forward = 0;
    let high: number | null = null;
    for (const t of timestamps(OKUMA)) {
      if (high !== null && t > high) forward += t - high;
      if (high === null || t > high || high - t >= 5_000) high = t;
    }
    const clock = simulatedClock();
    const summary = await replayShdr({
      source: OKUMA,
      speed: 'realtime',
      now: clock.now,
      sleep: clock.sleep,
    });
    expect(summary.backJumps).toBe(2);
    expect(Math.abs(summary.sleptMs - forward)).toBeLessThan(1);
    expect(Math.max(...clock.sleeps)).toBeLessThan(forward);
    expect(clock.sleeps.every((ms) => ms > 0)).toBe(true);
  });

  it('resolves the Hurco04 keys through the NIST Devices.xml and counts the nine broken lines', async () => {
    const executions: ReplayObservation[] = [];
    const keys = new Set<string>();
    const summary = await replayShdr({
      source: HURCO,
      devicesXml: readFileSync(dataFile('nist_smstestbed_Devices.xml'), 'utf8'),
      device: 'Hurco04',
      onObservations: (obs) => {
        for (const o of obs) {
          keys.add(o.key);
          if (o.dataItem?.type === 'EXECUTION') executions.push(o);
        }
      },
    });
    expect(summary).toMatchObject({ rejected: 9, rejectedLines: 9, unresolvedKeys: [], backJumps: 0 });
    expect(summary.from).toBe(Date.UTC(2017, 1, 1, 12, 18, 2, 234));
    expect(summary.to).toBe(Date.UTC(2017, 1, 1, 20, 11, 13, 453));
    expect(executions[0]).toMatchObject({ key: 'Program_Status', value: 'READY' });
    expect(new Set(executions.map((o) => o.value))).toContain('ACTIVE');
    expect(keys.size).toBe(15);
  });
});
