import { epochMs } from '@takt/domain';
import type { OeeReportResponse } from '@takt/domain';
import type { OeeSelection } from './report';

// What the OEE report's tests build their answers from (report.test.ts, waterfall.test.ts).

export const DAY = 86_400_000;
export const H = 3_600_000;
export const T0 = Date.UTC(2026, 10, 23); // Monday 23 Nov 2026

export const selection = (over: Partial<OeeSelection> = {}): OeeSelection => ({
  range: { interval: 'day', start: epochMs(T0), end: epochMs(T0 + 3 * DAY), quicklink: null },
  group: null,
  machine: null,
  shifts: [],
  ...over,
});

export const efficiency = (
  over: Partial<OeeReportResponse['efficiency']> = {},
): OeeReportResponse['efficiency'] => ({
  oee: 0.7479,
  ooe: 0.6543,
  teep: 0.2181,
  availability: 0.8881,
  performance: 0.8611,
  quality: 0.978,
  minExpectedPartTime: 1000,
  missingStandards: false,
  inCycle: 0.3,
  spindleRotating: null,
  inCut: null,
  totalDuration: DAY,
  utilization: 0.3,
  ...over,
});

export const summary = (over: Partial<OeeReportResponse> = {}): OeeReportResponse => ({
  range: { start: T0, end: T0 + 2 * DAY },
  interval: 'day',
  shiftFiltered: false,
  efficiency: efficiency(),
  intervals: [
    { start: T0, end: T0 + DAY, shopDate: '2026-11-23', efficiency: efficiency() },
    {
      start: T0 + DAY,
      end: T0 + 2 * DAY,
      shopDate: '2026-11-24',
      efficiency: efficiency({ oee: null, availability: null, performance: null, quality: null }),
    },
  ],
  waterfall: [],
  recomputing: [],
  ...over,
});
