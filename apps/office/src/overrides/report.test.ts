import { describe, expect, it } from 'vitest';
import type { OverridesAnswer } from './report';
import { overrideRows, overridesEmptyText, stepPoints } from './report';

describe('overrides report (reports-admin §2 step charts)', () => {
  it('draws each value until the next change and the last one until the end, with gaps when unavailable', () => {
    expect(
      stepPoints(
        [
          { t: 0, value: 100 },
          { t: 10, value: 80 },
          { t: 20, value: null },
          { t: 30, value: 120 },
        ],
        50,
      ),
    ).toEqual([
      { x: 0, y: 100 },
      { x: 10, y: 100 },
      { x: 10, y: 80 },
      { x: 20, y: null },
      { x: 30, y: 120 },
      { x: 50, y: 120 },
    ]);
    expect(stepPoints([], 50)).toEqual([]);
  });

  it('summarizes each override in percent and hours, with - where nothing was reported', () => {
    const rows = overrideRows([
      {
        key: 'pFovr',
        label: 'Feed override (pFovr)',
        dataItemType: 'PATH_FEEDRATE_OVERRIDE',
        dataItemSubtype: 'PROGRAMMED',
        steps: [],
        summary: { min: 80, max: 120, mean: 98.4, belowMs: 5_400_000, aboveMs: 0, availableMs: 7_200_000 },
      },
      {
        key: 'S1ovr',
        label: 'Spindle override (S1ovr)',
        dataItemType: 'ROTARY_VELOCITY_OVERRIDE',
        dataItemSubtype: null,
        steps: [],
        summary: { min: null, max: null, mean: null, belowMs: 0, aboveMs: 0, availableMs: 0 },
      },
    ]);
    expect(rows).toEqual([
      {
        key: 'pFovr',
        label: 'Feed override (pFovr)',
        mean: '98 %',
        range: '80 % – 120 %',
        below: '1.5',
        above: '0.0',
      },
      { key: 'S1ovr', label: 'Spindle override (S1ovr)', mean: '-', range: '-', below: '-', above: '-' },
    ]);
  });

  it('tells a machine without override fields from a range without values', () => {
    const answer = (series: OverridesAnswer['series']): OverridesAnswer => ({
      range: { start: 0, end: 1 },
      until: 1,
      series,
    });
    expect(overridesEmptyText(answer([]))).toMatch(/no override fields/);
    const quiet = {
      key: 'k',
      label: 'Feed override (k)',
      dataItemType: 'PATH_FEEDRATE_OVERRIDE',
      dataItemSubtype: null,
      steps: [],
      summary: { min: null, max: null, mean: null, belowMs: 0, aboveMs: 0, availableMs: 0 },
    };
    expect(overridesEmptyText(answer([quiet]))).toBe('No override values were reported in this range.');
    expect(overridesEmptyText(answer([{ ...quiet, steps: [{ t: 0, value: 100 }] }]))).toBeNull();
  });
});
