import { describe, expect, it } from 'vitest';
import { lastCompleteWeek, peerDistribution, peerQuartile, quantile } from './benchmark';

const at = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();

describe('lastCompleteWeek (decision 1110)', () => {
  it.each([
    // now (UTC), zone, start-of-day offset → week key, start, end (UTC), sendFrom
    ['2026-11-30T06:00:00Z', 'UTC', 0, '2026-11-23', '2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z'],
    // Sunday evening: the week under way is not complete, so the one before is compared.
    ['2026-11-29T23:59:00Z', 'UTC', 0, '2026-11-16', '2026-11-16T00:00:00.000Z', '2026-11-23T00:00:00.000Z'],
    // Chicago (UTC-6 in November): its Monday starts at 06:00 UTC.
    [
      '2026-11-30T05:59:00Z',
      'America/Chicago',
      0,
      '2026-11-16',
      '2026-11-16T06:00:00.000Z',
      '2026-11-23T06:00:00.000Z',
    ],
    [
      '2026-11-30T06:00:00Z',
      'America/Chicago',
      0,
      '2026-11-23',
      '2026-11-23T06:00:00.000Z',
      '2026-11-30T06:00:00.000Z',
    ],
    // A 06:00 company day start: the week runs Monday 06:00 to Monday 06:00.
    [
      '2026-11-30T07:00:00Z',
      'UTC',
      6 * 3_600_000,
      '2026-11-23',
      '2026-11-23T06:00:00.000Z',
      '2026-11-30T06:00:00.000Z',
    ],
  ])('%s in %s (day offset %i) compares the week of %s', (now, timezone, offset, week, start, end) => {
    const w = lastCompleteWeek({ timezone, currentTimeContext: { offset_millis: offset } }, at(now));
    expect({ week: w.week, start: iso(w.start), end: iso(w.end) }).toEqual({ week, start, end });
    expect(w.sendFrom - w.end).toBe(6 * 3_600_000);
  });

  it('a week across the end of daylight saving time has 169 hours, the next one 168', () => {
    const across = lastCompleteWeek({ timezone: 'Europe/Berlin' }, at('2026-10-27T12:00:00Z'));
    expect(across.week).toBe('2026-10-19');
    expect((across.end - across.start) / 3_600_000).toBe(169);
    const next = lastCompleteWeek({ timezone: 'Europe/Berlin' }, at('2026-11-03T12:00:00Z'));
    expect(next.week).toBe('2026-10-26');
    expect(next.start).toBe(across.end);
    expect((next.end - next.start) / 3_600_000).toBe(168);
  });
});

describe('quantile (R type 7)', () => {
  it.each([
    [[1, 2, 3, 4, 5], 0.5, 3],
    [[1, 2, 3, 4, 5], 0.25, 2],
    [[1, 2, 3, 4], 0.5, 2.5],
    [[1, 2, 3, 4], 0.25, 1.75],
    [[7], 0.75, 7],
  ])('%j at %f is %f', (values, p, expected) => expect(quantile(values, p)).toBeCloseTo(expected, 12));
});

describe('peerDistribution: k-anonymity of 5 machines from 3 companies', () => {
  const fig = (companyId: string, value: number) => ({ companyId, value });
  it('quartiles of enough peers', () => {
    const d = peerDistribution([fig('a', 0.1), fig('a', 0.5), fig('b', 0.3), fig('c', 0.2), fig('c', 0.4)]);
    expect(d).toEqual({ machines: 5, companies: 3, q1: 0.2, median: 0.3, q3: 0.4 });
    expect([0.05, 0.25, 0.35, 0.45].map((v) => peerQuartile(v, d!))).toEqual([1, 2, 3, 4]);
  });
  it.each([
    ['four machines', [fig('a', 0.1), fig('b', 0.2), fig('c', 0.3), fig('c', 0.4)]],
    ['two companies', [fig('a', 0.1), fig('a', 0.2), fig('b', 0.3), fig('b', 0.4), fig('b', 0.5)]],
    [
      'a figure that is no number does not count',
      [fig('a', 0.1), fig('b', 0.2), fig('c', 0.3), fig('c', 0.4), fig('d', NaN)],
    ],
  ])('none with %s', (_, figures) => expect(peerDistribution(figures)).toBeNull());
});
