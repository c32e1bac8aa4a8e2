import { epochMs } from '@takt/domain';
import type { AppliedRange } from '@takt/ui';
import { describe, expect, it } from 'vitest';
import {
  machineTotals,
  pageLabel,
  paretoBars,
  qualityCsvHref,
  qualityHref,
  readPage,
  rejectListCsvHref,
  rejectsQuery,
  rowsFor,
  stackedByMachine,
  totalsQuery,
  writePage,
  writeReason,
} from './report';
import type { QualitySelection, RejectTotal } from './report';

/** A total of `count` rejects of reason `type` on machine `m` (builder with defaults). */
const aTotal = (type: string | null, m: string, count: number): RejectTotal => ({
  scrapCount: count,
  partadjustmentType: { id: type, name: type ? type.toUpperCase() : 'Uncategorized', color: '#123456' },
  category_id: type,
  machine: { id: m, name: `Machine ${m}` },
});

const range: AppliedRange = { interval: 'day', start: epochMs(1000), end: epochMs(2000), quicklink: null };
const all: QualitySelection = { range, group: null, machine: null };

describe('quality report figures', () => {
  const rows = [
    aTotal('burr', 'm1', 6),
    aTotal('burr', 'm2', 2),
    aTotal('dent', 'm2', 3),
    aTotal(null, 'm1', 1),
  ];

  it('sums the machines per reason, most first, with the accumulated percent', () => {
    expect(paretoBars(rows).map((b) => [b.key, b.count, b.cumulative])).toEqual([
      ['burr', 8, 66.7],
      ['dent', 3, 91.7],
      ['uncategorized', 1, 100],
    ]);
  });

  it('drills a reason down to its machines, most first', () => {
    expect(machineTotals(rows, 'burr')).toEqual([
      { id: 'm1', name: 'Machine m1', count: 6 },
      { id: 'm2', name: 'Machine m2', count: 2 },
    ]);
    expect(machineTotals(rows, null).map((m) => [m.id, m.count])).toEqual([
      ['m1', 7],
      ['m2', 5],
    ]);
  });

  it('stacks the reasons per machine, only the reason drilled into', () => {
    expect(stackedByMachine(rows, null).series.map((s) => [s.key, s.values])).toEqual([
      ['burr', [6, 2]],
      ['dent', [0, 3]],
      ['uncategorized', [1, 0]],
    ]);
    expect(stackedByMachine(rows, 'dent')).toEqual({
      machines: [{ id: 'm2', name: 'Machine m2', count: 3 }],
      series: [{ key: 'dent', name: 'DENT', values: [3] }],
    });
  });

  it("keeps one machine's rows when drilled into it", () => {
    expect(rowsFor({ rejects: rows }, 'm2')).toHaveLength(2);
  });
});

describe('quality report calls (reports-admin §7)', () => {
  it.each([
    [1, 0],
    [3, 50],
  ])('page %i asks offset %i with limit 25', (page, offset) => {
    expect(rejectsQuery(all, 'burr', page)).toEqual({
      start: 1000,
      end: 2000,
      limit: 25,
      offset,
      category_id: 'burr',
    });
  });

  it('narrows the list to a machine, else a group; the totals take the group only', () => {
    const s = { range, group: 'g1', machine: 'm1' };
    expect(rejectsQuery(s, 'uncategorized', 1)).toMatchObject({
      machine_id: 'm1',
      category_id: 'uncategorized',
    });
    expect(rejectsQuery(s, 'uncategorized', 1)).not.toHaveProperty('group');
    expect(totalsQuery({ ...s, machine: null })).toEqual({
      start: 1000,
      end: 2000,
      groupByMachine: 'true',
      group: 'g1',
    });
  });

  it('links the reject list CSV with the list filter (no paging) and the user token', () => {
    expect(rejectListCsvHref(all, null, null)).toBeNull();
    expect(rejectListCsvHref({ ...all, group: 'g1' }, 'uncategorized', 'tok')).toBe(
      '/api/partadjustment/rejects?start=1000&end=2000&group=g1&category_id=uncategorized&format=csv&token=tok',
    );
    expect(rejectListCsvHref({ ...all, group: 'g1', machine: 'm1' }, null, 'tok')).toBe(
      '/api/partadjustment/rejects?start=1000&end=2000&machine_id=m1&format=csv&token=tok',
    );
  });

  it('links the CSV with the reason and the user token', () => {
    expect(qualityCsvHref(all, 'burr', null)).toBeNull();
    expect(qualityCsvHref({ ...all, group: 'g1' }, 'burr', 'tok')).toBe(
      '/api/partadjustment/allRejectsByCategory?start=1000&end=2000&groupByMachine=true&group=g1&category_id=burr&format=csv&token=tok',
    );
  });
});

describe('quality report URL', () => {
  it.each([
    ['', 1],
    ['page=3', 3],
    ['page=0', 1],
    ['page=x', 1],
  ])('%s → page %i', (search, page) => {
    expect(readPage(new URLSearchParams(search))).toBe(page);
  });

  it('starts a reason on page 1, and page 1 has no parameter', () => {
    expect(writeReason(new URLSearchParams('page=3'), 'burr').toString()).toBe('reason=burr');
    expect(writePage(new URLSearchParams('page=3'), 1).toString()).toBe('');
  });

  it('says which rejects a page shows', () => {
    expect(pageLabel({ count: 60, offset: 25, shown: 25 })).toBe('Rejects 26–50 of 60');
    expect(pageLabel({ count: 0, offset: 0, shown: 0 })).toBe('');
  });

  it('opens a machine or a group for a range', () => {
    expect(qualityHref({ start: 1, end: 2 }, { machine: 'm 1' })).toBe(
      '/dashboard/quality?start=1&end=2&machine=m+1',
    );
  });
});
