import { describe, expect, it } from 'vitest';
import { parsePreferences, preferencesKey, readPreferences, writePreferences } from './preferences';
import type { PreferenceStorage } from './preferences';
import {
  selectableShifts,
  selectAllState,
  shiftsParam,
  toggleAll,
  toggleShift,
  validSelection,
} from './shift-filter';
import { csvUrl, USER_TOKEN_REFRESH_MS } from './user-token';

const shift = (id: string, name: string, terminated = false) => ({ id, name, terminated });
const shifts = selectableShifts([
  shift('s2', 'Second'),
  shift('old', 'Night (old)', true),
  shift('s1', 'First'),
]);

describe('shift filter', () => {
  it('excludes terminated shifts', () => {
    expect(shifts.map((s) => s.id)).toEqual(['s1', 's2']);
  });

  it.each([
    [[], 'none'],
    [['s1'], 'some'],
    [['s1', 's2'], 'all'],
    [['s1', 'old'], 'some'],
  ] as const)('selection %j → select-all %s', (selected, state) => {
    expect(selectAllState(shifts, selected)).toBe(state);
  });

  it('toggles one shift and all of them', () => {
    expect(toggleShift(shifts, ['s1'], 's2')).toEqual(['s1', 's2']);
    expect(toggleShift(shifts, ['s1', 's2'], 's1')).toEqual(['s2']);
    expect(toggleAll(shifts, ['s1'])).toEqual(['s1', 's2']);
    expect(toggleAll(shifts, ['s1', 's2'])).toEqual([]);
  });

  it('sends shifts only when some (not all) are chosen', () => {
    expect(shiftsParam(shifts, ['s2', 's1'])).toBeNull();
    expect(shiftsParam(shifts, [])).toBeNull();
    expect(shiftsParam(shifts, ['s2'])).toBe('s2');
  });

  it('drops stored ids of shifts that are gone or terminated', () => {
    expect(validSelection(shifts, ['old', 's2', 'gone'])).toEqual(['s2']);
  });
});

/** A Map-backed storage. */
function memoryStorage(): PreferenceStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
}

describe('stored preferences', () => {
  it('keeps one set per company and merges updates', () => {
    const s = memoryStorage();
    writePreferences(s, 'c1', { utilizationHorizon: 'week' });
    writePreferences(s, 'c1', { shifts: ['s1'] });
    writePreferences(s, 'c2', { utilizationHorizon: 'month' });
    expect(readPreferences(s, 'c1')).toEqual({ utilizationHorizon: 'week', shifts: ['s1'] });
    expect(readPreferences(s, 'c2')).toEqual({ utilizationHorizon: 'month' });
    expect([...s.map.keys()]).toEqual([preferencesKey('c1'), preferencesKey('c2')]);
  });

  it.each([
    [null, {}],
    ['not json', {}],
    ['[1]', {}],
    ['{"oeeHorizon":"fortnight","shifts":["a",1]}', { shifts: ['a'] }],
    ['{"oeeHorizon":"quarter"}', { oeeHorizon: 'quarter' }],
  ])('reads %j leniently', (text, out) => {
    expect(parsePreferences(text)).toEqual(out);
  });

  it('works without storage', () => {
    expect(readPreferences(null, 'c1')).toEqual({});
    expect(writePreferences(null, 'c1', { oeeHorizon: 'day' })).toEqual({ oeeHorizon: 'day' });
  });
});

describe('csvUrl', () => {
  it('adds format=csv and the token, and is null without a token', () => {
    expect(csvUrl('/api/reports/downtime', { start: 1, end: 2, group: null }, 'tok')).toBe(
      '/api/reports/downtime?start=1&end=2&format=csv&token=tok',
    );
    expect(csvUrl('/api/reports/downtime', { start: 1 }, null)).toBeNull();
    expect(USER_TOKEN_REFRESH_MS).toBe(180_000);
  });
});
