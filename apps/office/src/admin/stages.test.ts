import { describe, expect, it } from 'vitest';
import { hasStageErrors, moveRow, stageErrors, stagesBody, totalPercentage } from './stages';
import type { StageRow } from './stages';

const row = (key: string, percentage: string, over: Partial<StageRow> = {}): StageRow => ({
  key,
  id: key,
  name: key,
  percentage,
  ...over,
});

describe('moveRow', () => {
  it.each([
    [0, 2, ['b', 'c', 'a']],
    [2, 0, ['c', 'a', 'b']],
    [1, 1, ['a', 'b', 'c']],
    [1, 9, ['a', 'c', 'b']],
    [1, -3, ['b', 'a', 'c']],
    [5, 0, ['a', 'b', 'c']],
  ])('from %i to %i', (from, to, expected) => {
    expect(moveRow(['a', 'b', 'c'], from, to)).toEqual(expected);
  });
});

describe('stage rules', () => {
  it('totals exactly 100, hiding float noise', () => {
    expect(totalPercentage([row('a', '33.3'), row('b', '33.3'), row('c', '33.4')])).toBe(100);
    expect(stageErrors([row('a', '33.3'), row('b', '33.3'), row('c', '33.4')]).total).toBeNull();
  });

  it('says when the total is not 100, and which rows are wrong', () => {
    const e = stageErrors([row('a', '50'), row('b', '', { name: ' ' }), row('c', '120')]);
    expect(e.total).toBe('Setup stage percentages must total 100');
    expect(e.rows).toEqual({
      b: { name: 'Missing required field: Name', percentage: 'Enter a percentage.' },
      c: { percentage: 'A percentage is from 0 to 100.' },
    });
    expect(hasStageErrors(e)).toBe(true);
  });

  it('allows an empty list (every stage archived)', () => {
    expect(hasStageErrors(stageErrors([]))).toBe(false);
  });

  it('saves the rows in order, new ones without an id', () => {
    expect(stagesBody([row('b', '60'), row('new', '40', { id: undefined, name: ' Deburr ' })])).toEqual({
      setupStages: [
        { id: 'b', name: 'b', stageOrder: 0, setupPercentage: 60 },
        { name: 'Deburr', stageOrder: 1, setupPercentage: 40 },
      ],
    });
  });
});
