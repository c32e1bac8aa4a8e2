import { describe, expect, it } from 'vitest';
import { dashArray, RING_MAX_DEGREES, ringDegrees, ringSegments } from './ring';

describe('ringDegrees', () => {
  it.each([
    [0, 0],
    [-10, 0],
    [50, 180],
    [100, 360],
    [112.5, 405],
    [150, RING_MAX_DEGREES],
    [10_000, RING_MAX_DEGREES],
    [Number.NaN, 0],
    [Number.POSITIVE_INFINITY, 0],
  ])('%d %% → %d°', (percent, degrees) => {
    expect(ringDegrees(percent)).toBeCloseTo(degrees, 9);
  });
});

describe('ringSegments', () => {
  it.each([
    [25, { degrees: 90, lap: 0.25, overflow: 0 }],
    [100, { degrees: 360, lap: 1, overflow: 0 }],
    [105, { degrees: 378, lap: 1, overflow: 0.05 }],
    [300, { degrees: 405, lap: 1, overflow: 0.125 }],
  ])('%d %%', (percent, expected) => {
    const s = ringSegments(percent);
    expect(s.degrees).toBeCloseTo(expected.degrees, 9);
    expect(s.lap).toBeCloseTo(expected.lap, 9);
    expect(s.overflow).toBeCloseTo(expected.overflow, 9);
  });
});

describe('dashArray', () => {
  it('draws the fraction of the circumference', () => {
    const c = 2 * Math.PI * 10;
    expect(dashArray(0.5, 10)).toBe(`${(c / 2).toFixed(3)} ${c.toFixed(3)}`);
    expect(dashArray(2, 10)).toBe(`${c.toFixed(3)} ${c.toFixed(3)}`);
    expect(dashArray(-1, 10)).toBe(`0.000 ${c.toFixed(3)}`);
  });
});
