import { describe, expect, it } from 'vitest';
import { reportPreferencesOf } from './preferences';

// Decision 1115: the server's preferences as the browser cache keeps them (a choice not made has no key).

describe('reportPreferencesOf', () => {
  it('keeps the choices made and leaves out the ones not made', () => {
    const base = { anonymize: true, anonymizeOffered: true, brand: null };
    expect(
      reportPreferencesOf({ ...base, oeeHorizon: 'month', utilizationHorizon: null, shifts: ['s1', 's2'] }),
    ).toEqual({ oeeHorizon: 'month', shifts: ['s1', 's2'] });
    expect(
      reportPreferencesOf({ ...base, oeeHorizon: null, utilizationHorizon: 'week', shifts: null }),
    ).toEqual({ utilizationHorizon: 'week' });
    // An empty selection is a choice (no shift ticked), not "every shift".
    expect(
      reportPreferencesOf({ ...base, oeeHorizon: null, utilizationHorizon: null, shifts: [] }).shifts,
    ).toEqual([]);
  });
});
