import { describe, expect, it } from 'vitest';
import { shiftOverlapMessage, shiftOverlaps } from './shift-overlaps';

const weekdays = [0, 1, 2, 3, 4];
const first = { id: 'a', name: 'First', startoffsetminutes: 360, endoffsetminutes: 870, byweekday: weekdays };
const second = {
  id: 'b',
  name: 'Second',
  startoffsetminutes: 840,
  endoffsetminutes: 1320,
  byweekday: weekdays,
};

describe('shift overlaps (decision 1050)', () => {
  it('finds the half hour where 06:00–14:30 meets 14:00–22:00, every day they share', () => {
    const found = shiftOverlaps(second, [first]);
    expect(found).toHaveLength(5);
    expect(found[0]).toEqual({
      shiftId: 'a',
      shiftName: 'First',
      weekday: 0,
      fromMinutes: 840,
      toMinutes: 870,
    });
    expect(shiftOverlapMessage(found)).toBe(
      'This shift overlaps First on Mon 14:00–14:30 and 4 more days. ' +
        'Overlapping time counts for the shift that starts first.',
    );
  });

  it('shifts that meet end to start do not overlap, nor does a shift with itself', () => {
    const late = { ...second, startoffsetminutes: 870 };
    expect(shiftOverlaps(late, [first])).toEqual([]);
    expect(shiftOverlaps(first, [first])).toEqual([]);
  });

  it('a Sunday night shift reaches into Monday morning across the week', () => {
    const night = { id: 'n', name: 'Night', startoffsetminutes: 1320, endoffsetminutes: 420, byweekday: [6] };
    const found = shiftOverlaps(night, [first]);
    expect(found).toEqual([
      { shiftId: 'a', shiftName: 'First', weekday: 6, fromMinutes: 1800, toMinutes: 1860 },
    ]);
    expect(shiftOverlapMessage(found)).toContain('on Sun 06:00–07:00.');
    // And the other way round: Monday's shift is overlapped by Sunday's night.
    expect(shiftOverlaps(first, [night])).toEqual([
      { shiftId: 'n', shiftName: 'Night', weekday: 0, fromMinutes: 360, toMinutes: 420 },
    ]);
  });

  it('different days do not overlap', () => {
    expect(shiftOverlaps({ ...second, byweekday: [5] }, [first])).toEqual([]);
  });
});
