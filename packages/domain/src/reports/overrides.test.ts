import { describe, expect, it } from 'vitest';
import { isOverrideType, overrideLabel, overrideSteps, overrideSummary, overrideValue } from './overrides';

const range = { start: 1_000, end: 11_000 };

describe('override steps (reports-admin §2 Overrides report)', () => {
  it('starts with the value in force before the range and keeps only changes', () => {
    const steps = overrideSteps(
      { value: '100' },
      [
        { ts: 2_000, value: '100' },
        { ts: 3_000, value: '80' },
        { ts: 4_000, value: '80' },
        { ts: 6_000, value: 'UNAVAILABLE' },
        { ts: 7_000, value: '120' },
      ],
      range,
    );
    expect(steps).toEqual([
      { t: 1_000, value: 100 },
      { t: 3_000, value: 80 },
      { t: 6_000, value: null },
      { t: 7_000, value: 120 },
    ]);
  });

  it('begins at the first observation when nothing is known before the range, and ignores rows outside it', () => {
    expect(
      overrideSteps(
        null,
        [
          { ts: 500, value: '10' },
          { ts: 5_000, value: '90' },
          { ts: 11_000, value: '10' },
        ],
        range,
      ),
    ).toEqual([{ t: 5_000, value: 90 }]);
  });

  it('keeps the last of two values reported at the same instant', () => {
    expect(
      overrideSteps(
        { value: '100' },
        [
          { ts: 3_000, value: '50' },
          { ts: 3_000, value: '100' },
        ],
        range,
      ),
    ).toEqual([{ t: 1_000, value: 100 }]);
  });

  it('summarizes time below and above 100 % and the time-weighted mean over available time', () => {
    const steps = [
      { t: 1_000, value: 100 },
      { t: 3_000, value: 80 },
      { t: 6_000, value: null },
      { t: 7_000, value: 120 },
    ];
    expect(overrideSummary(steps, 11_000)).toEqual({
      min: 80,
      max: 120,
      // (100 × 2 s + 80 × 3 s + 120 × 4 s) / 9 s
      mean: (200 + 240 + 480) / 9,
      belowMs: 3_000,
      aboveMs: 4_000,
      availableMs: 9_000,
    });
    expect(overrideSummary([], 11_000)).toEqual({
      min: null,
      max: null,
      mean: null,
      belowMs: 0,
      aboveMs: 0,
      availableMs: 0,
    });
  });

  it('names the knobs the way operators do', () => {
    expect(overrideLabel('PATH_FEEDRATE_OVERRIDE', 'PROGRAMMED', 'pFovr')).toBe('Feed override (pFovr)');
    expect(overrideLabel('PATH_FEEDRATE_OVERRIDE', 'RAPID', 'Frapidovr')).toBe('Rapid override (Frapidovr)');
    expect(overrideLabel('ROTARY_VELOCITY_OVERRIDE', null, 'S1ovr')).toBe('Spindle override (S1ovr)');
    expect(isOverrideType('ROTARY_VELOCITY_OVERRIDE')).toBe(true);
    expect(isOverrideType('EXECUTION')).toBe(false);
    expect(overrideValue('UNAVAILABLE')).toBeNull();
    expect(overrideValue(' 95.5 ')).toBe(95.5);
  });
});
