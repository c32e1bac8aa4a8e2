import { describe, expect, it } from 'vitest';
import { resolveFloorRoute } from '../routes';
import { COUNT_TOO_SMALL, countedParts, countEntry, MAX_COUNT_ENTRY, partCountPath } from './partCount';

describe('operator host part count (decision 1099)', () => {
  it('takes a whole count from 1 up to the entry limit', () => {
    expect(countEntry('1')).toEqual({ count: 1 });
    expect(countEntry(' 24 ')).toEqual({ count: 24 });
    expect(countEntry(String(MAX_COUNT_ENTRY))).toEqual({ count: MAX_COUNT_ENTRY });
  });

  it("refuses what is not a count in the server's words", () => {
    for (const text of ['', '0', '-3', '2.5', 'abc', '1e3'])
      expect(countEntry(text)).toEqual({ error: COUNT_TOO_SMALL });
    expect(COUNT_TOO_SMALL).toBe('Count must be at least 1');
    expect(countEntry(String(MAX_COUNT_ENTRY + 1))).toEqual({ error: 'Count must be at most 10000' });
  });

  it('shows the server parts plus what is still queued, never below 0, nothing before an answer', () => {
    expect(countedParts(10, 0)).toBe(10);
    expect(countedParts(10, 5)).toBe(15);
    expect(countedParts(2, -5)).toBe(0);
    expect(countedParts(null, 3)).toBeNull();
    expect(countedParts(undefined, 0)).toBeNull();
  });

  it('has a path the floor app opens as the screen', () => {
    expect(partCountPath('m 1')).toBe('/machine/m%201/home/partCount');
    expect(resolveFloorRoute(partCountPath('m1'))).toEqual({ name: 'partCount', machineId: 'm1' });
  });
});
