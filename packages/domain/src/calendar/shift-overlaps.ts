import { shiftLengthMinutes } from './shifts';

// Overlapping shifts (decision 1050). Where two shifts overlap, the calendar gives the time to the one that
// started first (decision 0103), so an overlap is legal (a handover half hour) but seldom meant: the API
// refuses one until the caller confirms it (allowOverlap); the office form shows it before saving.

const WEEK_MINUTES = 7 * 1440;
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

export interface ShiftTimesOf {
  id?: string;
  name: string;
  startoffsetminutes: number;
  endoffsetminutes: number;
  /** 0 = Monday … 6 = Sunday. */
  byweekday: readonly number[];
}

export interface ShiftOverlap {
  /** The other shift. */
  shiftId: string | undefined;
  shiftName: string;
  /** Weekday (0 = Monday) of the candidate's occurrence that overlaps. */
  weekday: number;
  /** Minutes after the start of that weekday (may pass 1440 for an overnight shift). */
  fromMinutes: number;
  toMinutes: number;
}

/** A shift's occurrences in one week as [start, end) minutes after Monday 00:00 (end may pass the week). */
function weekSpans(s: ShiftTimesOf): Array<{ weekday: number; start: number; end: number }> {
  const length = shiftLengthMinutes(s);
  return [...new Set(s.byweekday)].map((d) => {
    const start = d * 1440 + s.startoffsetminutes;
    return { weekday: d, start, end: start + length };
  });
}

/**
 * The overlaps of `candidate` with `others` over a repeating week (a Sunday night shift overlapping a
 * Monday morning one included). Offsets past midnight (up to 48 h) and overnight shifts are handled.
 */
export function shiftOverlaps(candidate: ShiftTimesOf, others: readonly ShiftTimesOf[]): ShiftOverlap[] {
  const out: ShiftOverlap[] = [];
  const mine = weekSpans(candidate);
  for (const other of others) {
    if (candidate.id !== undefined && other.id === candidate.id) continue;
    for (const o of weekSpans(other)) {
      for (const m of mine) {
        // Compare on the repeating week: shift the other occurrence by −1, 0 and +1 week.
        for (const k of [-1, 0, 1]) {
          const from = Math.max(m.start, o.start + k * WEEK_MINUTES);
          const to = Math.min(m.end, o.end + k * WEEK_MINUTES);
          if (from < to) {
            const base = m.weekday * 1440;
            out.push({
              shiftId: other.id,
              shiftName: other.name,
              weekday: m.weekday,
              fromMinutes: from - base,
              toMinutes: to - base,
            });
          }
        }
      }
    }
  }
  return out.sort((a, b) => a.weekday - b.weekday || a.fromMinutes - b.fromMinutes);
}

const clock = (minutes: number) => {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/** The refusal's words: names the first overlap and says how many more there are. */
export function shiftOverlapMessage(overlaps: readonly ShiftOverlap[]): string {
  const first = overlaps[0];
  if (!first) return '';
  const days = new Set(overlaps.filter((o) => o.shiftName === first.shiftName).map((o) => o.weekday));
  const when = `${WEEKDAYS[first.weekday]} ${clock(first.fromMinutes)}–${clock(first.toMinutes)}`;
  const more = days.size > 1 ? ` and ${days.size - 1} more day${days.size > 2 ? 's' : ''}` : '';
  const others = new Set(overlaps.map((o) => o.shiftName)).size - 1;
  const alsoOthers = others > 0 ? ` (and ${others} other shift${others > 1 ? 's' : ''})` : '';
  return (
    `This shift overlaps ${first.shiftName} on ${when}${more}${alsoOthers}. ` +
    'Overlapping time counts for the shift that starts first.'
  );
}
