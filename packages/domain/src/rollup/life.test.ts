import { describe, expect, it } from 'vitest';
import type { EpochMs } from '../brand';
import { HOUR_MS } from '../brand';
import type { CompanyCalendar } from '../calendar/intervals';
import { rollupBuckets } from '../calendar/intervals';
import type { StateInterval } from '../derive/outputs';
import { oeeWaterfall } from '../metrics/waterfall';
import type { RollupSource } from './rollup';
import {
  buildRollups,
  efficiencyTotals,
  inShiftDowntimeByReason,
  NO_DATA_REASON,
  noDataSpans,
  subtractSpans,
  sumRollups,
  UNCATEGORIZED_REASON,
} from './rollup';

// METRICS.md §1–§2: a machine's monitored life starts at its first stored observation; time before it is in
// no time base; UNAVAILABLE time inside it is No data, apart from Uncategorized.

const day = { start: Date.UTC(2026, 10, 2) as EpochMs, end: Date.UTC(2026, 10, 3) as EpochMs };
const at = (h: number) => (day.start + h * HOUR_MS) as EpochMs;
// One shift 06:00–18:00 every day (UTC company).
const calendar: CompanyCalendar = {
  timezone: 'UTC',
  shifts: [
    {
      id: 'day',
      name: 'Day',
      versions: [
        {
          startoffsetminutes: 360,
          endoffsetminutes: 1080,
          byweekday: [0, 1, 2, 3, 4, 5, 6],
          effectivedate: '2026-01-01',
        },
      ],
    },
  ],
};
const iv = (from: number, to: number, state: StateInterval['state']): StateInterval => ({
  start: at(from),
  end: at(to),
  state,
  reason: null,
});
const rowsOf = (source: RollupSource) => buildRollups(source, rollupBuckets(calendar, day));

describe('monitored life', () => {
  // First observation at 10:30; active to 12:00, disconnected 12:00–14:00, idle 14:00–15:00, active after.
  const source: RollupSource = {
    machineId: 'm',
    monitoredFrom: at(10.5),
    intervals: [
      iv(10.5, 12, 'ACTIVE'),
      iv(12, 14, 'UNAVAILABLE'),
      iv(14, 15, 'INACTIVE'),
      iv(15, 24, 'ACTIVE'),
    ],
  };

  it('counts T_all and T_shift from the first observation on: time before it is neither downtime nor a loss', () => {
    const totals = efficiencyTotals(sumRollups(rowsOf(source), day));
    expect(totals.allTimeMs).toBe(13.5 * HOUR_MS);
    expect(totals.shiftTimeMs).toBe(7.5 * HOUR_MS);
    expect(totals.runTimeMs).toBe(4.5 * HOUR_MS);
    const sum = sumRollups(rowsOf(source), day);
    expect(sum.all.unplannedDowntimeMs).toBe(3 * HOUR_MS);
  });

  it('keeps UNAVAILABLE time apart as No data, the same on the waterfall', () => {
    const rows = rowsOf(source);
    const byReason = sumRollups(rows, day).all.downtimeByReason;
    expect(byReason[NO_DATA_REASON]).toEqual({ plannedMs: 0, unplannedMs: 2 * HOUR_MS });
    expect(byReason[UNCATEGORIZED_REASON]).toEqual({ plannedMs: 0, unplannedMs: HOUR_MS });
    const steps = oeeWaterfall({
      totals: efficiencyTotals(sumRollups(rows, day)),
      downtimeByReason: inShiftDowntimeByReason(rows, day),
    });
    const loss = steps.filter((s) => s.key === 'availabilityLoss').map((s) => [s.reasonName, s.ms]);
    expect(loss).toEqual([
      ['No data', 2 * HOUR_MS],
      ['Uncategorized', HOUR_MS],
    ]);
    expect(noDataSpans(source, day.start, day.end)).toEqual([{ start: at(12), end: at(14) }]);
  });

  it('a machine not monitored yet has no time base at all', () => {
    const totals = efficiencyTotals(
      sumRollups(rowsOf({ machineId: 'm', monitoredFrom: null, intervals: [] }), day),
    );
    expect([totals.allTimeMs, totals.shiftTimeMs, totals.runTimeMs]).toEqual([0, 0, 0]);
  });

  it('time inside life without a stored state is No data (UNAVAILABLE)', () => {
    const rows = rowsOf({
      machineId: 'm',
      monitoredFrom: at(6),
      intervals: [iv(6, 8, 'ACTIVE'), iv(9, 24, 'ACTIVE')],
    });
    const sum = sumRollups(rows, day).all;
    expect(sum.stateMs.UNAVAILABLE).toBe(HOUR_MS);
    expect(sum.downtimeByReason).toEqual({ [NO_DATA_REASON]: { plannedMs: 0, unplannedMs: HOUR_MS } });
  });

  it("an operator's reason on UNAVAILABLE time wins; a split without a reason stays No data (decision 1010)", () => {
    const annotated: RollupSource = {
      ...source,
      annotations: [
        { start: at(12), end: at(13), reasonId: 'power', countsAsPlanned: false },
        { start: at(13), end: at(13.5), reasonId: null, countsAsPlanned: false },
      ],
    };
    const byReason = sumRollups(rowsOf(annotated), day).all.downtimeByReason;
    expect(byReason['power']).toEqual({ plannedMs: 0, unplannedMs: HOUR_MS });
    expect(byReason[NO_DATA_REASON]).toEqual({ plannedMs: 0, unplannedMs: HOUR_MS });
    expect(noDataSpans(annotated, day.start, day.end)).toEqual([{ start: at(13), end: at(14) }]);
  });

  it('subtractSpans leaves what the cuts do not cover', () => {
    expect(
      subtractSpans(
        [
          { start: 0, end: 10 },
          { start: 20, end: 30 },
        ],
        [
          { start: 2, end: 4 },
          { start: 8, end: 22 },
          { start: 25, end: 26 },
        ],
      ),
    ).toEqual([
      { start: 0, end: 2 },
      { start: 4, end: 8 },
      { start: 22, end: 25 },
      { start: 26, end: 30 },
    ]);
  });
});
