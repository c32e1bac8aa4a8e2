import { addDays, addMonths, companyDayStart, dayBoundMark, DAY_MS } from '@takt/domain';
import type { CompanyClock, DateBounds, DayNumber } from '@takt/domain';
import { useMemo, useState } from 'react';
import { tr } from '../i18n/reports';
import { monthGrid, monthName, visibleMonthOf, weekdayNames, yearGrid, yearOf } from './model';
import type { AppliedRange } from './model';

// The date range picker's calendars (reports-admin §2 "month or year calendar (Monday-first day names)"; §5
// "Calendar disables dates outside min and max"): days and months with no time inside the bounds are disabled
// and carry the mark (data-mark invalid-min or invalid-max, decision 1092).

/** A day is shown selected when its company day lies inside the draft range. */
const inRange = (clock: CompanyClock, r: { start: number; end: number }, day: DayNumber) => {
  const s = companyDayStart(clock, day);
  return s >= r.start && s < r.end;
};

export function MonthCalendar({ clock, draft, onPick, locale, bounds }: CalendarProps) {
  const [month, setMonth] = useState(() => visibleMonthOf(clock, draft.start));
  const names = useMemo(() => weekdayNames(locale), [locale]);
  const fmt = useMemo(
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }),
    [locale],
  );
  const title = `${monthName(month, locale)} ${yearOf(month)}`;
  const dayStart = (d: DayNumber) => companyDayStart(clock, d);
  const next = addMonths(month, 1);
  return (
    <div className="calendar">
      <CalendarHead
        title={title}
        onPrevious={() => setMonth(addMonths(month, -1))}
        onNext={() => setMonth(next)}
      />
      <table className="calendar__grid" role="grid" aria-label={title}>
        <thead>
          <tr>
            {names.map((n) => (
              <th key={n} scope="col" abbr={n}>
                {n}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthGrid(month).map((week) => (
            <tr key={week[0]}>
              {week.map((d) => {
                const outside = d < month || d >= next;
                const mark = dayBoundMark(d, bounds, dayStart);
                return (
                  <td key={d}>
                    <button
                      type="button"
                      className={outside ? 'calendar__day calendar__day--outside' : 'calendar__day'}
                      disabled={mark != null}
                      data-mark={mark ?? undefined}
                      aria-pressed={inRange(clock, draft, d)}
                      aria-label={fmt.format(new Date(d * DAY_MS))}
                      onClick={() => onPick(d)}
                    >
                      {new Date(d * DAY_MS).getUTCDate()}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function YearCalendar({ clock, draft, onPick, locale, bounds }: CalendarProps) {
  const [year, setYear] = useState(() => yearOf(visibleMonthOf(clock, draft.start)));
  // A month is disabled when none of its days may be picked.
  const monthMark = (m: DayNumber) => {
    const first = dayBoundMark(m, bounds, (d) => companyDayStart(clock, d));
    const last = dayBoundMark(addDays(addMonths(m, 1), -1), bounds, (d) => companyDayStart(clock, d));
    return first != null && first === last ? first : null;
  };
  return (
    <div className="calendar">
      <CalendarHead
        title={String(year)}
        onPrevious={() => setYear(year - 1)}
        onNext={() => setYear(year + 1)}
      />
      <div className="calendar__months">
        {yearGrid(year).map((m) => (
          <button
            key={m}
            type="button"
            className="calendar__month"
            disabled={monthMark(m) != null}
            data-mark={monthMark(m) ?? undefined}
            aria-pressed={inRange(clock, draft, m) || inRange(clock, draft, addDays(addMonths(m, 1), -1))}
            aria-label={`${monthName(m, locale)} ${year}`}
            onClick={() => onPick(m)}
          >
            {monthName(m, locale, 'short')}
          </button>
        ))}
      </div>
    </div>
  );
}

interface CalendarProps {
  clock: CompanyClock;
  draft: AppliedRange;
  onPick: (day: DayNumber) => void;
  locale?: string;
  /** Days outside are disabled (reports-admin §5). */
  bounds: DateBounds;
}

/** A calendar's title between its previous and next buttons (a month, or a year). */
function CalendarHead({
  title,
  onPrevious,
  onNext,
}: {
  title: string;
  onPrevious: () => void;
  onNext: () => void;
}) {
  return (
    <div className="calendar__head">
      <button type="button" className="calendar__nav" onClick={onPrevious}>
        <span aria-hidden="true">‹</span>
        <span className="visually-hidden">{tr('range.previous')}</span>
      </button>
      <span className="calendar__title" aria-live="polite">
        {title}
      </span>
      <button type="button" className="calendar__nav" onClick={onNext}>
        <span aria-hidden="true">›</span>
        <span className="visually-hidden">{tr('range.next')}</span>
      </button>
    </div>
  );
}
