// Decision 1243: the sources' counters are written a slice a batch, each source's at most once a period (decision
// 1145) and about once a period, instead of every source's in one batch every period. A source's first counts and a
// forced flush are written at once, whole.
import { describe, expect, it } from 'vitest';
import type { PendingStats } from './source-counters';
import { SourceCounters } from './source-counters';

const PERIOD = 10_000;
const all = () => true;

/** `n` sources on a hand clock, each sending a line when asked; what each batch wrote. Mutable. */
class Plant {
  clock = 0;
  readonly counters = new SourceCounters(PERIOD, () => this.clock);
  readonly ids: string[];
  /** Each source's write times. */
  readonly writes = new Map<string, number[]>();
  linesSent = 0;
  linesWritten = 0;

  constructor(n: number) {
    this.ids = Array.from({ length: n }, (_, i) => `s${i}`);
  }

  line(id: string): void {
    this.linesSent++;
    this.counters.add({
      sourceId: id,
      machineId: `m-${id}`,
      lines: 1,
      observations: 2,
      rejected: 0,
      lastLineAt: this.clock,
    });
  }

  /** A batch that commits: what it wrote. */
  batch(force = false): PendingStats[] {
    const taken = this.counters.take(all, force);
    this.counters.stored(taken);
    for (const s of taken) {
      this.writes.set(s.sourceId, [...(this.writes.get(s.sourceId) ?? []), this.clock]);
      this.linesWritten += s.lines;
    }
    return taken;
  }

  /** The longest and shortest time between two writes of one source, the first of them at `from` or later. */
  gaps(from = 0): { most: number; least: number } {
    let most = 0;
    let least = Infinity;
    for (const times of this.writes.values())
      for (let i = 1; i < times.length; i++) {
        if (times[i - 1]! < from) continue;
        most = Math.max(most, times[i]! - times[i - 1]!);
        least = Math.min(least, times[i]! - times[i - 1]!);
      }
    return { most, least };
  }
}

/** Runs `plant` to `until` ms, every source sending a line a second, batches `intervalOf(i)` ms apart; their sizes. */
function run(plant: Plant, until: number, intervalOf: (i: number) => number) {
  const sizes: Array<{ size: number; since: number }> = [];
  let nextLine = plant.clock + 1000;
  for (let i = 0; plant.clock < until; i++) {
    const since = intervalOf(i);
    const to = plant.clock + since;
    for (; nextLine <= to; nextLine += 1000) {
      plant.clock = nextLine;
      for (const id of plant.ids) plant.line(id);
    }
    plant.clock = to;
    sizes.push({ size: plant.batch().length, since });
  }
  return sizes;
}

describe('the sources’ counters, a slice a batch', () => {
  it('writes 1,000 sources’ first lines at once, then at most twice their share of the period a batch', () => {
    const plant = new Plant(1000);
    for (const id of plant.ids) plant.line(id);
    expect(plant.batch()).toHaveLength(1000);

    const sizes = run(plant, 60_000, () => 400);
    // Twice 1,000 sources × 400 ms / 10 s: 80 a batch at most (every 10 s, all 1,000 in one batch before).
    expect(Math.max(...sizes.map((s) => s.size))).toBe(80);
    // Each source at most once a period, and at most half a period late: the 1,000 first written together came due
    // together once and were spread over the next 13 batches (80 each, 400 ms apart); from then each is written
    // within a batch of its time.
    expect(plant.gaps()).toEqual({ most: PERIOD + 12 * 400, least: PERIOD });
    expect(plant.gaps(20_000).most).toBeLessThanOrEqual(PERIOD + 400);
    // Nothing lost: a forced flush writes every count still waiting, whatever its period.
    expect(plant.batch(true).length).toBeGreaterThan(900);
    expect(plant.ids.some((id) => plant.counters.holds(`m-${id}`))).toBe(false);
    expect(plant.linesWritten).toBe(plant.linesSent);
  });

  it('keeps each batch to its share and each source’s lag bounded when batches come slow and uneven', () => {
    const plant = new Plant(1000);
    for (const id of plant.ids) plant.line(id);
    plant.batch();
    // 50 ms to 2 s between batches (a loaded node), in a fixed order.
    const intervals = [50, 400, 2000, 120, 900, 50, 1500, 300, 50, 700];
    const sizes = run(plant, 120_000, (i) => intervals[i % intervals.length]!);
    for (const { size, since } of sizes)
      expect(size).toBeLessThanOrEqual(Math.ceil((2 * 1000 * since) / PERIOD));
    const { most, least } = plant.gaps();
    expect(least).toBeGreaterThanOrEqual(PERIOD);
    expect(most).toBeLessThanOrEqual(PERIOD * 1.5 + 2000);
    // Once the start's backlog drained: a period and a couple of the slowest batches.
    expect(plant.gaps(30_000).most).toBeLessThanOrEqual(PERIOD + 2 * 2000);
  });

  it('writes a new source’s first counts at once, beyond the share', () => {
    const plant = new Plant(100);
    for (const id of plant.ids) plant.line(id);
    plant.batch();
    for (const id of plant.ids) plant.line(id);
    // Batches 100 ms apart: none due for a period.
    for (; plant.clock < PERIOD; plant.clock += 100) expect(plant.batch()).toHaveLength(0);
    plant.line('new');
    // 100 due; the share of 100 ms of 101 sources: ceil(2 × 101 × 100 / 10,000) = 3 of them; and the new source.
    const taken = plant.batch().map((s) => s.sourceId);
    expect(taken).toEqual(['new', 's0', 's1', 's2']);
  });

  it('takes a failed slice again first at the next batch', () => {
    const plant = new Plant(100);
    for (const id of plant.ids) plant.line(id);
    plant.batch();
    for (const id of plant.ids) plant.line(id);
    for (; plant.clock < PERIOD; plant.clock += 500) plant.batch();
    // Due: all 100; the share of 500 ms: 10.
    const slice = plant.counters.take(all, false);
    expect(slice.map((s) => s.sourceId)).toEqual(plant.ids.slice(0, 10));
    plant.counters.putBack(slice);
    plant.line('s0');
    plant.clock += 500;
    const retried = plant.batch();
    expect(retried.map((s) => s.sourceId)).toEqual(plant.ids.slice(0, 10));
    expect(retried[0]?.lines).toBe(2);
  });

  it('writes all at a forced batch, and all again at the next when it failed', () => {
    const plant = new Plant(100);
    for (const id of plant.ids) plant.line(id);
    plant.batch();
    for (const id of plant.ids) plant.line(id);
    plant.clock += 1000;
    // None due: a forced batch takes them all; it fails, and the next batch is forced too.
    const failed = plant.counters.take(all, true);
    expect(failed).toHaveLength(100);
    plant.counters.putBack(failed);
    plant.line('s0');
    plant.clock += 100;
    const retried = plant.batch();
    expect(retried).toHaveLength(100);
    expect(retried.find((s) => s.sourceId === 's0')?.lines).toBe(2);
    plant.line('s1');
    plant.clock += 100;
    expect(plant.batch()).toHaveLength(0);
    expect(plant.batch(true).map((s) => s.sourceId)).toEqual(['s1']);
  });

  it('writes due counts in a batch of nothing else only once they are a quarter period late', () => {
    const plant = new Plant(100);
    for (const id of plant.ids) plant.line(id);
    plant.batch();
    for (const id of plant.ids) plant.line(id);
    plant.clock = PERIOD + 2000;
    // Due 2 s ago: a batch of nothing else takes none, and keeps the share of the time since for the next batch.
    expect(plant.counters.take(all, false, true)).toHaveLength(0);
    plant.clock = PERIOD + 2400;
    expect(plant.counters.take(all, false, true)).toHaveLength(0);
    // 2.5 s late: taken alone, with the share of the 10 s since the last take (all 100).
    plant.clock = PERIOD + 2500;
    expect(plant.counters.take(all, false, true)).toHaveLength(100);
    // A new source's first counts and a forced flush go alone at once.
    plant.line('new');
    expect(plant.counters.take(all, false, true).map((s) => s.sourceId)).toEqual(['new']);
    plant.line('s0');
    expect(plant.counters.take(all, true, true).map((s) => s.sourceId)).toEqual(['s0']);
  });

  it('drops the counts of machines given up, and tells which machines hold some', () => {
    const plant = new Plant(3);
    for (const id of plant.ids) plant.line(id);
    expect(plant.counters.holds('m-s1')).toBe(true);
    plant.counters.discard((m) => m !== 'm-s1');
    expect(plant.counters.holds('m-s1')).toBe(false);
    expect(plant.batch().map((s) => s.sourceId)).toEqual(['s0', 's2']);
  });

  it('collects every link once a period, or when forced', () => {
    const plant = new Plant(0);
    expect(plant.counters.sweep(false)).toBe(true);
    plant.clock += PERIOD - 1;
    expect(plant.counters.sweep(false)).toBe(false);
    expect(plant.counters.sweep(true)).toBe(true);
    plant.clock += PERIOD;
    expect(plant.counters.sweep(false)).toBe(true);
  });
});
