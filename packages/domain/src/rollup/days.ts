import type { EpochMs } from '../brand';
import { epochMs } from '../brand';
import { addDays, startOfIsoWeek } from '../time/civil';
import type { CompanyClock } from '../calendar/time-context';
import { companyDayRange, shopDateOf } from '../calendar/time-context';
import type { Rollup } from './rollup';
import { addMeasuresInto, emptyMeasures } from './rollup';
import type { DowntimeFigures, DowntimeRow } from './downtime-figures';
import { sumDowntimePerPeriod } from './downtime-figures';

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
  return sumPerPeriod(rows, (t) => companyDayRange(clock, shopDateOf(clock, t)).end);
}

/**
 * One machine's day rows (or any rows that never straddle a company week, sorted by start) summed per
 * company week (ISO: Monday's company-day start to the next Monday's) and shift, the same way.
 */
export function rollupWeeks(clock: CompanyClock, rows: readonly Rollup[]): Rollup[] {
  return sumPerPeriod(rows, (t) => companyWeekRange(clock, t).end);
}

/**
 * Decision 1188: the downtime report's figures of hourly rows (`figureOf` each row's) summed as rollupDays sums
 * them, by each sum's start; downtimeWeeks likewise of day rows.
 */
export const downtimeDays = <R extends Omit<DowntimeRow, 'downtime'>>(
  clock: CompanyClock,
  rows: readonly R[],
  figureOf: (r: R, i: number) => DowntimeFigures | null,
) => downtimeSums(rows, figureOf, (t) => companyDayRange(clock, shopDateOf(clock, epochMs(t))).end);

export const downtimeWeeks = <R extends Omit<DowntimeRow, 'downtime'>>(
  clock: CompanyClock,
  rows: readonly R[],
  figureOf: (r: R, i: number) => DowntimeFigures | null,
) => downtimeSums(rows, figureOf, (t) => companyWeekRange(clock, t).end);

function downtimeSums<R extends Omit<DowntimeRow, 'downtime'>>(
  rows: readonly R[],
  figureOf: (r: R, i: number) => DowntimeFigures | null,
  periodEnd: (t: number) => number,
): Map<number, DowntimeFigures | null> {
  const figured = rows.map((r, i) => ({
    start: r.start,
    end: r.end,
    shiftId: r.shiftId,
    downtime: figureOf(r, i),
  }));
  return sumDowntimePerPeriod(figured, periodEnd);
}

/** The company week (ISO, of company days) that holds `t`. */
export function companyWeekRange(clock: CompanyClock, t: number): { start: EpochMs; end: EpochMs } {
  const monday = startOfIsoWeek(shopDateOf(clock, epochMs(t)));
  return {
    start: companyDayRange(clock, monday).start,
    end: companyDayRange(clock, addDays(monday, 7)).start,
  };
}

/** Rows (sorted by start) summed per period × shift, `periodEnd(t)` the end of the period that holds t. */
function sumPerPeriod(rows: readonly Rollup[], periodEnd: (t: EpochMs) => number): Rollup[] {
  const out: Rollup[] = [];
  let end = Number.NEGATIVE_INFINITY;
  let period = new Map<string | null, Rollup>();
  const flush = () => {
    out.push(...[...period.values()].sort((a, b) => a.start - b.start));
    period = new Map();
  };
  for (const r of rows) {
    if (r.start >= end) {
      flush();
      end = periodEnd(r.start);
    }
    let d = period.get(r.shiftId);
    if (!d) {
      d = { ...emptyMeasures(), machineId: r.machineId, start: r.start, end: r.end, shiftId: r.shiftId };
      period.set(r.shiftId, d);
    }
    addMeasuresInto(d, r);
    d.end = Math.max(d.end, r.end) as EpochMs;
  }
  flush();
  return out;
}

/**
 * The whole company weeks inside each cell of a report (cell i is [starts[i], starts[i + 1]), the last one
 * ending at `end`), merged where they touch: the time a report can read from week rows; the rest of the
 * range is read from day rows. Empty when no cell holds a whole week (hour, shift or day cells).
 */
export function wholeWeeksOfCells(
  clock: CompanyClock,
  starts: readonly number[],
  end: number,
): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (let i = 0; i < starts.length; i++) {
    const cellEnd = i + 1 < starts.length ? starts[i + 1]! : end;
    const first = companyWeekRange(clock, starts[i]!);
    const from: number = first.start === starts[i] ? first.start : first.end;
    let to = from;
    for (let w = companyWeekRange(clock, from); w.end <= cellEnd; w = companyWeekRange(clock, w.end))
      to = w.end;
    if (to <= from) continue;
    const last = out.at(-1);
    if (last && last.end === from) last.end = to;
    else out.push({ start: from, end: to });
  }
  return out;
}

/** Whether an instant is a company-day start (a day/week/month/quarter cell edge can be). */
export const isCompanyDayStart = (clock: CompanyClock, t: EpochMs): boolean =>
  companyDayRange(clock, shopDateOf(clock, t)).start === t;

/** A range as its whole company days and the partial days at its two edges (decision 1125). */
export interface DaySplit {
  /** The whole company days inside the range (edges are company-day starts), null when there is none. */
  days: { start: number; end: number } | null;
  /** The range's start up to its first company-day start (all of the range when `days` is null). */
  head: { start: number; end: number } | null;
  /** From the range's last company-day start to its end. */
  tail: { start: number; end: number } | null;
}

/**
 * Splits [range) at company-day starts (the company's time zone, start-of-day offset and DST): the whole
 * days a report reads from day and week rows, and the partial days at the edges (a range starting 10:17)
 * it reads from hourly rows and the cut buckets built from the facts (decision 1015). Together exactly
 * [range); a range holding no whole day is all head.
 */
export function splitAtDays(clock: CompanyClock, range: { start: number; end: number }): DaySplit {
  if (range.end <= range.start) return { days: null, head: null, tail: null };
  const firstDay = companyDayRange(clock, shopDateOf(clock, epochMs(range.start)));
  const first = firstDay.start === range.start ? range.start : firstDay.end;
  const last: number = companyDayRange(clock, shopDateOf(clock, epochMs(range.end))).start;
  if (first >= last) return { days: null, head: { ...range }, tail: null };
  return {
    days: { start: first, end: last },
    head: first > range.start ? { start: range.start, end: first } : null,
    tail: last < range.end ? { start: last, end: range.end } : null,
  };
}
