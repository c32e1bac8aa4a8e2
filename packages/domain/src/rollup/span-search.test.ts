import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TimeSpan } from '../reports/report-cells';
import { intersectSpans } from '../reports/report-cells';
import { cutAtNoData, subtractSpans } from './no-data';

// Decision 1178: intersectSpans, subtractSpans and cutAtNoData find their first span by a binary search instead
// of walking from the first one. Each must give exactly what the walk gave: the walks are written out here as
// the reference and compared on random spans.

/** Sorted, disjoint spans (touching allowed) from distinct points: [x0, x1), [x2, x3), … */
const disjoint = (max: number, maxLength = 16) =>
  fc
    .uniqueArray(fc.integer({ min: 0, max }), { maxLength })
    .map((xs) => [...xs].sort((a, b) => a - b))
    .map((xs) =>
      xs.flatMap((x, i): TimeSpan[] =>
        i % 2 === 0 && i + 1 < xs.length ? [{ start: x, end: xs[i + 1]! }] : [],
      ),
    );

/** Any spans, in any order, overlapping or not. */
const anySpans = fc.array(
  fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 80 })).map(([s, l]) => ({
    start: s,
    end: s + l,
  })),
  { maxLength: 10 },
);

const intersectWalk = (spans: readonly TimeSpan[], filter: readonly TimeSpan[]) => {
  const out: TimeSpan[] = [];
  for (const s of spans)
    for (const f of filter) {
      const start = Math.max(s.start, f.start);
      const end = Math.min(s.end, f.end);
      if (end > start) out.push({ start, end });
    }
  return out;
};

const subtractWalk = (spans: readonly TimeSpan[], cut: readonly TimeSpan[]) => {
  const out: TimeSpan[] = [];
  let j = 0;
  for (const s of spans) {
    let from = s.start;
    while (j < cut.length && cut[j]!.end <= from) j++;
    for (let k = j; k < cut.length && cut[k]!.start < s.end; k++) {
      if (cut[k]!.start > from) out.push({ start: from, end: cut[k]!.start });
      from = Math.max(from, cut[k]!.end);
    }
    if (s.end > from) out.push({ start: from, end: s.end });
  }
  return out;
};

const cutWalk = (start: number, end: number, noData: readonly TimeSpan[]) => {
  const out: Array<TimeSpan & { noData: boolean }> = [];
  let from = start;
  for (const s of noData) {
    if (s.end <= from) continue;
    if (s.start >= end) break;
    if (s.start > from) out.push({ start: from, end: s.start, noData: false });
    const to = Math.min(s.end, end);
    out.push({ start: Math.max(s.start, from), end: to, noData: true });
    from = to;
  }
  if (end > from || out.length === 0) out.push({ start: from, end, noData: false });
  return out;
};

describe('span searches (decision 1178)', () => {
  it('intersectSpans gives the walk’s overlaps in the walk’s order, for ordered and unordered filters', () => {
    fc.assert(
      fc.property(anySpans, fc.oneof(disjoint(400), anySpans), (spans, filter) => {
        expect(intersectSpans(spans, filter)).toEqual(intersectWalk(spans, filter));
        // The same filter again (its order is remembered) and a copy of it give the same.
        expect(intersectSpans(spans, filter)).toEqual(intersectWalk(spans, filter));
        expect(intersectSpans(spans, [...filter])).toEqual(intersectWalk(spans, filter));
      }),
      { numRuns: 500 },
    );
  });

  it('intersectSpans of many periods against one ordered filter, period by period', () => {
    fc.assert(
      fc.property(disjoint(2_000, 40), disjoint(2_000, 30), (periods, shifts) => {
        for (const p of periods) expect(intersectSpans([p], shifts)).toEqual(intersectWalk([p], shifts));
      }),
      { numRuns: 200 },
    );
  });

  it('subtractSpans and cutAtNoData give what the walk from the first span gave', () => {
    fc.assert(
      fc.property(
        disjoint(400),
        disjoint(400),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 200 }),
        (spans, cut, start, len) => {
          expect(subtractSpans(spans, cut)).toEqual(subtractWalk(spans, cut));
          for (const s of spans) expect(subtractSpans([s], cut)).toEqual(subtractWalk([s], cut));
          expect(cutAtNoData(start, start + len, cut)).toEqual(cutWalk(start, start + len, cut));
        },
      ),
      { numRuns: 500 },
    );
  });
});
