import { describe, expect, it } from 'vitest';
import { parseDay } from '../time/civil';
import { isTimeZone, trialBounds, trialProblem } from './internal-admin';

// reports-admin §5 "Company trial expiry at most 365 days ahead; minimum today (or existing date if already
// past); default 14 days".

const today = parseDay('2026-11-26');

describe('trialBounds', () => {
  it.each([
    [null, { min: '2026-11-26', max: '2027-11-26', suggested: '2026-12-10' }],
    ['2027-01-15', { min: '2026-11-26', max: '2027-11-26', suggested: '2026-12-10' }],
    ['2026-11-26', { min: '2026-11-26', max: '2027-11-26', suggested: '2026-12-10' }],
    ['2026-10-01', { min: '2026-10-01', max: '2027-11-26', suggested: '2026-12-10' }],
  ])('stored %s → %o', (existing, bounds) => {
    expect(trialBounds(today, existing)).toEqual(bounds);
  });
});

describe('trialProblem', () => {
  const bounds = { min: '2026-11-26', max: '2027-11-26' };
  it.each([
    [null, null],
    ['', null],
    ['2026-11-26', null],
    ['2027-11-26', null],
    ['2026-11-25', { kind: 'beforeMin', min: '2026-11-26' }],
    ['2027-11-27', { kind: 'afterMax', max: '2027-11-26' }],
    ['2027-02-30', { kind: 'invalid' }],
    ['2027-02-01T00:00', { kind: 'invalid' }],
    ['soon', { kind: 'invalid' }],
  ])('%s → %o', (value, problem) => {
    expect(trialProblem(value, bounds)).toEqual(problem);
  });
});

describe('isTimeZone', () => {
  it.each([
    ['America/Chicago', true],
    ['UTC', true],
    ['Mars/Olympus', false],
    ['', false],
  ])('%s → %s', (tz, ok) => {
    expect(isTimeZone(tz)).toBe(ok);
  });
});
