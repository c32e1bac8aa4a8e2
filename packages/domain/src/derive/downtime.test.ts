import { describe, expect, it } from 'vitest';
import type { EpochMs } from '../brand';
import type { MachineState } from '../machine-state';
import { downtimePeriods, stateDurations } from './downtime';
import type { StateInterval } from './outputs';

const iv = (start: number, end: number, state: MachineState, open = false): StateInterval => ({
  start: start as EpochMs,
  end: end as EpochMs,
  state,
  reason: null,
  ...(open ? { open } : {}),
});

describe('downtime periods (METRICS.md §1)', () => {
  it('are maximal runs of non-ACTIVE time, whatever the states inside', () => {
    const periods = downtimePeriods([
      iv(0, 10, 'ACTIVE'),
      iv(10, 20, 'INACTIVE'),
      iv(20, 25, 'FAULT'),
      iv(25, 30, 'SETUP'),
      iv(30, 40, 'ACTIVE'),
      iv(40, 50, 'UNAVAILABLE', true),
    ]);
    expect(periods.map((p) => [p.start, p.end, p.open])).toEqual([
      [10, 30, false],
      [40, 50, true],
    ]);
    expect(periods[0]?.stateMs).toEqual({ ACTIVE: 0, SETUP: 5, INACTIVE: 10, FAULT: 5, UNAVAILABLE: 0 });
  });

  it('time by state inside a range', () => {
    expect(stateDurations([iv(0, 10, 'ACTIVE'), iv(10, 30, 'INACTIVE')], 5, 20)).toEqual({
      ACTIVE: 5,
      SETUP: 0,
      INACTIVE: 10,
      FAULT: 0,
      UNAVAILABLE: 0,
    });
  });
});
