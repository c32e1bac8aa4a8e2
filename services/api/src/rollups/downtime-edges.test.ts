import { describe, expect, it } from 'vitest';
import { epochMs, noDataSpans, rollupBuckets } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import {
  downtimeEdgeFigures,
  downtimeFigures,
  loadDowntimeFacts,
  loadDowntimeFigureRows,
  loadRollupSources,
} from '@takt/db/rollups';
import { aCompany, aMachine } from '../testing/builders';
import { aDowntimeReason, anAnnotation, HOUR, MIN, someStates } from '../testing/downtime-builders';
import { aPlantOfLives, piecesOfMachine, PLANT_NOW, PLANT_T0 } from '../testing/downtime-plant';
import { apiPerTest } from '../testing/report-plant';

// Decision 1198: the downtime report's edges (decision 1193) take each machine's No data from the start of its
// first downtime piece, which may begin before the edge. They used to load a source for each such machine from its
// own start; now one source for all machines from the earliest start any needs. noDataSpans(source, from, to)
// reads the source from `from` on: loaded from any start at or before `from` it gives the same spans; loaded from
// after `from`, the time between is a gap, which a machine's life fills as No data (METRICS.md §1).

const T0 = PLANT_T0;
const NOW = PLANT_NOW;

describe.each(DIALECTS)("the downtime edges' No data read once for all machines on %s", (dialect) => {
  const api = apiPerTest(dialect, NOW);

  it('gives each machine the No data and figures of a source loaded from its own start', async () => {
    const { h } = api;
    // M4's life begins on Saturday 02:17 (late), inside some spans below; `limited` is inside a plannedWithLimit stop.
    const { tenant, ids, monday, limited, late, calendar } = await aPlantOfLives(h);
    const of = tenant.scope;
    const spans = [
      // Inside M1's long stop without data over the week boundary (Sunday 23:00 to Monday 07:00).
      { start: monday + 2 * HOUR + 10 * MIN, end: monday + 3 * HOUR },
      // M4 begins inside it.
      { start: late - 40 * MIN, end: late + HOUR + 5 * MIN },
      { start: T0 + 26 * HOUR + 20 * MIN, end: T0 + 27 * HOUR },
      { start: NOW - HOUR - 7 * MIN, end: NOW },
      { start: T0 + 3 * 24 * HOUR, end: T0 + 3 * 24 * HOUR + 30 * MIN },
      // Inside a stop of a plannedWithLimit reason: its figures too (only the caller decides what to make of it).
      { start: limited, end: limited + 2 * HOUR },
    ];
    let limitedFromBefore = 0;
    let before = 0;
    let differs = 0;
    for (const span of spans) {
      const facts = await loadDowntimeFacts(of, ids, span);
      const pieces = new Map(ids.map((id) => [id, piecesOfMachine(facts, id)]));
      const opts = { now: NOW, facts, pieces, downtimeOnly: true as const };
      const fromOf = (id: string) => Math.min(pieces.get(id)![0]?.start ?? span.start, span.start);
      const earliest = Math.min(...ids.map(fromOf));
      const once = await loadRollupSources(of, ids, { start: earliest, end: span.end }, opts);
      const earlier = await loadRollupSources(
        of,
        ids,
        { start: earliest - 2 * 24 * HOUR, end: span.end },
        opts,
      );
      const atSpan = await loadRollupSources(of, ids, span, opts);
      for (const id of ids) {
        const from = fromOf(id);
        if (from < span.start) before++;
        const own = (await loadRollupSources(of, [id], { start: from, end: span.end }, opts)).get(id)!;
        const expected = noDataSpans(own, from, span.end);
        expect(noDataSpans(once.get(id)!, from, span.end), `${id} ${span.start}`).toEqual(expected);
        expect(noDataSpans(earlier.get(id)!, from, span.end), `${id} ${span.start}`).toEqual(expected);
        // Loaded from after `from` (the span's start), the time between reads as a gap: not the same spans.
        if (JSON.stringify(noDataSpans(atSpan.get(id)!, from, span.end)) !== JSON.stringify(expected))
          differs++;
      }
      // The figures: the batched edges against decision 1193's, each machine's source loaded from its own start.
      const buckets = rollupBuckets(calendar, { start: epochMs(span.start), end: epochMs(span.end) });
      const edges = await downtimeEdgeFigures(of, calendar, ids, span, NOW);
      for (const id of ids) {
        const edge = edges.get(id)!;
        expect(edge.shiftIds).toEqual(buckets.map((b) => b.shiftId));
        if (edge.limitedFromBefore) limitedFromBefore++;
        const old = await downtimeFigures(
          of,
          { machineId: id, range: span, now: NOW, calendar, buckets },
          facts,
          pieces,
          atSpan.get(id)!,
        );
        expect(edge.rows, `${id} ${span.start}`).toEqual(old);
      }
    }
    // The case the batching is for: machines whose first piece begins before the edge, several spans.
    expect(before).toBeGreaterThanOrEqual(spans.length);
    expect(limitedFromBefore).toBeGreaterThan(0);
    // And the test can fail: a source clipped after a machine's start gives other spans.
    expect(differs).toBeGreaterThan(0);
  });

  it("reads each machine around its own span in one go, as it reads each alone, and never another company's", async () => {
    const { h } = api;
    const { tenant, ids, calendar } = await aPlantOfLives(h);
    const of = tenant.scope;
    // M5: FAULT then INACTIVE before its span (from 4 hours before now); another company's machine of the same id
    // ran until 4:10 before now (decision 1130: another machine). Read with its edges, M5's period would begin there.
    const m5 = await aMachine(h.t.db, tenant.company, { name: 'M5' });
    ids.push(m5);
    await someStates(h.t.db, tenant.company, m5, [
      [NOW - 7 * HOUR, NOW - 6 * HOUR, 'ACTIVE'],
      [NOW - 6 * HOUR, NOW - 5 * HOUR, 'FAULT'],
      [NOW - 5 * HOUR, NOW - 3 * HOUR, 'INACTIVE'],
      [NOW - 3 * HOUR, null, 'ACTIVE'],
    ]);
    const other = await aCompany(h.t.db);
    await someStates(h.t.db, other, m5, [
      [NOW - 6 * HOUR, NOW - 4 * HOUR - 10 * MIN, 'ACTIVE'],
      [NOW - 4 * HOUR - 10 * MIN, null, 'UNAVAILABLE'],
    ]);
    const theirs = await aDowntimeReason(h.t.db, other, { name: 'Theirs' });
    await anAnnotation(h.t.db, other, {
      machineId: m5,
      start: NOW - 4 * HOUR - 10 * MIN,
      end: null,
      typeId: theirs.id,
    });
    // The tails of rows holding to different hours (whole hours), to a common end.
    const starts = [NOW - 9 * HOUR, NOW - 4 * HOUR, NOW - 4 * HOUR, NOW - 30 * HOUR, NOW - 4 * HOUR];
    const spans = new Map(ids.map((id, k) => [id, { start: starts[k]!, end: NOW }]));
    const facts = await loadDowntimeFacts(of, ids, spans);
    const edges = await downtimeEdgeFigures(of, calendar, ids, spans, NOW);
    const interiors = new Map(ids.map((id) => [id, { start: T0 + 24 * HOUR, end: spans.get(id)!.start }]));
    const rows = await loadDowntimeFigureRows(of, calendar, ids, interiors, null);
    let pieces = 0;
    for (const id of ids) {
      const span = spans.get(id)!;
      const alone = await loadDowntimeFacts(of, [id], span);
      const mine = <T extends { machineId: string } | { machine_id: string }>(xs: readonly T[]) =>
        xs.filter((x) => ('machineId' in x ? x.machineId : x.machine_id) === id);
      expect(mine(facts.intervals), id).toEqual(alone.intervals);
      expect(mine(facts.annotations), id).toEqual(alone.annotations);
      expect(alone.annotations.some((a) => a.annotationTypeId === theirs.id)).toBe(false);
      expect(edges.get(id), id).toEqual((await downtimeEdgeFigures(of, calendar, [id], span, NOW)).get(id));
      expect(rows.get(id), id).toEqual(
        (await loadDowntimeFigureRows(of, calendar, [id], interiors.get(id)!, null)).get(id),
      );
      pieces += alone.intervals.length;
    }
    expect(pieces).toBeGreaterThan(0);
    expect(facts.intervals.filter((r) => r.machine_id === m5).map((r) => r.state)).toEqual([
      'FAULT',
      'INACTIVE',
      'ACTIVE',
    ]);
    expect(facts.types.has(theirs.id)).toBe(false);
  });
});
