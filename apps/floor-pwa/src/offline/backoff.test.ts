import { describe, expect, it } from 'vitest';
import { backoffDelay, secondsUntil } from './backoff';

describe('backoffDelay (live-operations §9: 4 s to 60 s)', () => {
  it.each([
    [0, 4000],
    [1, 4000],
    [2, 8000],
    [3, 16_000],
    [4, 32_000],
    [5, 60_000],
    [6, 60_000],
    [50, 60_000],
  ])('after %i failures waits %i ms', (n, ms) => expect(backoffDelay(n)).toBe(ms));
});

describe('secondsUntil', () => {
  it.each([
    [10_000, 0, 10],
    [10_000, 9_001, 1],
    [10_000, 10_000, 0],
    [10_000, 12_000, 0],
    [10_000, 500, 10],
  ])('until %i at %i is %i s', (at, now, s) => expect(secondsUntil(at, now)).toBe(s));
});
