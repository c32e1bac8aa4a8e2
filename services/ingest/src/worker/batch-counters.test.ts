// Decision 1243: the batches write the sources' counters a slice at a time, each source's at most once a period,
// instead of every source's in one batch each period (decision 1145). A batch's lease fence covers the machines
// whose counters it writes, and no others.
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '@takt/db/testing';
import { connectedTransport, handWriterOptions } from '../testing/loopback-links';
import { shdrMachinesOn } from '../testing/shdr-machine';
import { BatchWriter } from './batch-writer';
import { Link, LinkMap } from './link';
import { loadFieldMaps, loadSources } from './store-reads';

const T0 = Date.UTC(2026, 11, 2, 8);
const PERIOD = 10_000;
const STEP = 250;
const MACHINES = 30;

describe.each(DIALECTS)('the sources’ counters a slice a batch (%s)', (dialect) => {
  it('writes each source’s first line at once, then a bounded slice a batch under a fence of exactly those machines', async () => {
    const t = await freshDb(dialect);
    try {
      await shdrMachinesOn(
        t.db,
        Array.from({ length: MACHINES }, (_, i) => 41_000 + i),
      );
      const sources = await loadSources(t.db);
      const fields = await loadFieldMaps(
        t.db,
        sources.map((s) => s.machineId),
      );
      let clock = T0;
      let mono = 0;
      const fences: Array<Set<string>> = [];
      const links = new LinkMap();
      const writer = new BatchWriter(
        handWriterOptions(t.db, () => clock, links, {
          countersEveryMs: PERIOD,
          monotonic: () => mono,
          fence: (machines) => {
            fences.push(new Set(machines));
            return { statement: null, lost: (err) => err };
          },
        }),
      );
      const all: Link[] = [];
      for (const s of sources) {
        const link = new Link(s, fields.get(s.machineId) ?? new Map(), clock, writer);
        link.transport = connectedTransport();
        link.connection('CONNECTED', clock);
        links.set(s.sourceId, link);
        all.push(link);
      }
      const line = (link: Link) => {
        const c = link.transport.counters;
        c.lines++;
        c.observations++;
        c.lastLineAt = clock;
        link.received([{ ts: clock, key: 'part_count', value: String(c.lines), kind: 'value' }], clock, true);
      };
      const statLines = async () =>
        new Map(
          (await t.db.selectFrom('machine_sources').select(['machine_id', 'stat_lines']).execute()).map(
            (r) => [r.machine_id, Number(r.stat_lines)],
          ),
        );

      // Every machine's first line: written at once, all in the first batch.
      for (const l of all) line(l);
      await writer.flush();
      expect([...(await statLines()).values()]).toEqual(Array(MACHINES).fill(1));

      // A second line from each: stored, its counts wait for the period.
      for (const l of all) line(l);
      await writer.flush();
      expect([...(await statLines()).values()]).toEqual(Array(MACHINES).fill(1));

      // One busy machine sends a line a batch for two periods.
      const busy = all[0]!;
      let before = await statLines();
      const slices: number[] = [];
      const written = new Map<string, number[]>();
      while (mono < 2 * PERIOD) {
        mono += STEP;
        clock += STEP;
        line(busy);
        fences.length = 0;
        await writer.flush();
        const after = await statLines();
        const changed = [...after.keys()].filter((m) => after.get(m) !== before.get(m));
        before = after;
        slices.push(changed.length);
        for (const m of changed) written.set(m, [...(written.get(m) ?? []), mono]);
        // The fence: the busy machine (its observations) and the machines whose counters it wrote, no others.
        expect(fences).toEqual([new Set([busy.source.machineId, ...changed])]);
      }
      // At most twice the share of a period a batch: ceil(2 × 30 sources × 250 ms / 10 s) = 2 (all 30 at once before).
      expect(Math.max(...slices)).toBe(2);
      // Each written once after the first: the 30 came due together at 10 s and were spread over 3.75 s (2 a batch).
      expect(written.size).toBe(MACHINES);
      for (const [m, times] of written) {
        if (m === busy.source.machineId) continue;
        expect(times).toHaveLength(1);
        expect(times[0]).toBeGreaterThanOrEqual(PERIOD);
        expect(times[0]).toBeLessThanOrEqual(PERIOD * 1.5);
      }
      expect([...(await statLines()).values()].filter((n) => n === 2)).toHaveLength(MACHINES - 1);

      // A forced flush writes what waits whatever its period: the busy machine's lines since its last write.
      await writer.flush(true);
      expect((await statLines()).get(busy.source.machineId)).toBe(busy.transport.counters.lines);
      writer.close();
    } finally {
      await t.cleanup();
    }
  });
});
