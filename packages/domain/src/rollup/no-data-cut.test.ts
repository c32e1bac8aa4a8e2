import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { downtimeListItems } from '../live/rules';
import { cutAtNoData } from './no-data';

// Decision 1060: the downtime list cuts an uncategorized period at the machine's No data spans.

describe('cutAtNoData', () => {
  it('cuts a period at the No data boundaries, in time order', () => {
    const noData = [
      { start: 0, end: 15 },
      { start: 20, end: 30 },
      { start: 35, end: 50 },
      { start: 90, end: 95 },
    ];
    expect(cutAtNoData(10, 40, noData)).toEqual([
      { start: 10, end: 15, noData: true },
      { start: 15, end: 20, noData: false },
      { start: 20, end: 30, noData: true },
      { start: 30, end: 35, noData: false },
      { start: 35, end: 40, noData: true },
    ]);
    expect(cutAtNoData(60, 80, noData)).toEqual([{ start: 60, end: 80, noData: false }]);
    expect(cutAtNoData(20, 30, noData)).toEqual([{ start: 20, end: 30, noData: true }]);
  });

  it('pieces add up to the period and their No data to its overlap with the spans', () => {
    const spans = fc
      .uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 12 })
      .map((xs) => [...xs].sort((a, b) => a - b))
      .map((xs) =>
        xs.flatMap((x, i) => (i % 2 === 0 && i + 1 < xs.length ? [{ start: x, end: xs[i + 1]! }] : [])),
      );
    fc.assert(
      fc.property(
        spans,
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 1, max: 100 }),
        (noData, start, len) => {
          const end = start + len;
          const cuts = cutAtNoData(start, end, noData);
          expect(cuts[0]!.start).toBe(start);
          expect(cuts[cuts.length - 1]!.end).toBe(end);
          for (let i = 1; i < cuts.length; i++) expect(cuts[i]!.start).toBe(cuts[i - 1]!.end);
          const overlap = noData.reduce(
            (t, s) => t + Math.max(0, Math.min(s.end, end) - Math.max(s.start, start)),
            0,
          );
          expect(cuts.filter((c) => c.noData).reduce((t, c) => t + c.end - c.start, 0)).toBe(overlap);
        },
      ),
    );
  });
});

describe('the downtime list and No data pieces', () => {
  const opts = { filterDurationMs: 0, showShort: true, showCategorized: true };
  const periods = [
    { start: 0, end: 10, reason: null },
    { start: 10, end: 20, reason: 'No data', noData: true },
    { start: 20, end: 30, reason: 'Power' },
  ];

  it('lists No data as no category, never selectable, hidden by Only Uncategorized', () => {
    const row = (o: Partial<typeof opts> & { onlyUncategorized?: boolean }) =>
      downtimeListItems(periods, 30, { ...opts, ...o }).map((i) => [
        i.period.reason,
        i.categorized,
        i.selectable,
      ]);
    expect(row({})).toEqual([
      [null, false, true],
      ['No data', false, false],
      ['Power', true, false],
    ]);
    expect(row({ showCategorized: false })).toEqual([
      [null, false, true],
      ['No data', false, false],
    ]);
    expect(row({ onlyUncategorized: true })).toEqual([[null, false, true]]);
  });
});
