import { describe, expect, it } from 'vitest';
import { EARLIEST_TIME_MS, timeProblem } from './window';

const NOW = Date.UTC(2025, 10, 22, 12);
const MIN = 60_000;
const DAY = 86_400_000;

describe('timeProblem (decision 0980)', () => {
  it.each([
    ['year 1', -62135596800000, 'happened', 't must not be before 2014-04-01'],
    ['-1', -1, 'happened', 't must not be before 2014-04-01'],
    ['0', 0, 'happened', 't must not be before 2014-04-01'],
    ['just before the floor', EARLIEST_TIME_MS - 1, 'happened', 't must not be before 2014-04-01'],
    ['the floor', EARLIEST_TIME_MS, 'happened', null],
    ['now', NOW, 'happened', null],
    ['5 min ahead', NOW + 5 * MIN, 'happened', null],
    ['6 min ahead', NOW + 6 * MIN, 'happened', 't must not be in the future'],
    ['a year ahead, planned', NOW + 366 * DAY, 'planned', null],
    ['over a year ahead, planned', NOW + 367 * DAY, 'planned', 't must not be more than a year ahead'],
    ['year 9999', Date.UTC(9999, 11, 31), 'planned', 't must not be more than a year ahead'],
    ['8.64e15', 8.64e15, 'planned', 't must not be more than a year ahead'],
    ['a fraction', NOW + 0.5, 'happened', 't must be a whole number of milliseconds'],
    ['NaN', Number.NaN, 'happened', 't must be a time in epoch milliseconds'],
    ['text', '1763800000000', 'happened', 't must be a time in epoch milliseconds'],
  ] as const)('%s', (_, t, kind, expected) => {
    expect(timeProblem('t', t, NOW, kind)).toBe(expected);
  });
});
