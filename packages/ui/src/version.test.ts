import { describe, expect, it } from 'vitest';
import { reloadSecondsLeft } from './version';

describe('reloadSecondsLeft (new-version toast, 30 s)', () => {
  it.each([
    [30_000, 0, 30],
    [30_000, 500, 30],
    [30_000, 29_001, 1],
    [30_000, 30_000, 0],
    [30_000, 40_000, 0],
  ])('deadline %i at %i → %i s', (d, now, s) => expect(reloadSecondsLeft(d, now)).toBe(s));
});
