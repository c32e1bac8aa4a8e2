import type { EpochMs } from '../brand';
import type { CompanyClock } from '../calendar/time-context';
import { companyDayRange, shopDateOf } from '../calendar/time-context';
import type { Rollup } from './rollup';
import { addMeasuresInto, emptyMeasures } from './rollup';

// Decision 0804: the coarse rollups a report reads when every cell edge is a company-day start. Buckets never
// straddle a company day, so the rows of one machine × company day × shift (null: outside shift time) sum
// into one row that every day/week/month/quarter cell, shift-filtered or not, selects exactly when it would
// select all of its buckets.

/**
 * One machine's rollups (sorted by start) summed per company day and shift. A day row starts at its
 * first bucket and ends at its last bucket's end, so it is selected by start like the buckets it sums.
 * Rows come out sorted by start.
 */
export function rollupDays(clock: CompanyClock, rows: readonly Rollup[]): Rollup[] {
  const out: Rollup[] = [];
  let dayEnd = Number.NEGATIVE_INFINITY;
  let day = new Map<string | null, Rollup>();
  const flush = () => {
    out.push(...[...day.values()].sort((a, b) => a.start - b.start));
    day = new Map();
  };
  for (const r of rows) {
    if (r.start >= dayEnd) {
      flush();
      dayEnd = companyDayRange(clock, shopDateOf(clock, r.start)).end;
    }
    let d = day.get(r.shiftId);
    if (!d) {
      d = { ...emptyMeasures(), machineId: r.machineId, start: r.start, end: r.end, shiftId: r.shiftId };
      day.set(r.shiftId, d);
    }
    addMeasuresInto(d, r);
    d.end = Math.max(d.end, r.end) as EpochMs;
  }
  flush();
  return out;
}

/** Whether an instant is a company-day start (a day/week/month/quarter cell edge can be). */
export const isCompanyDayStart = (clock: CompanyClock, t: EpochMs): boolean =>
  companyDayRange(clock, shopDateOf(clock, t)).start === t;
