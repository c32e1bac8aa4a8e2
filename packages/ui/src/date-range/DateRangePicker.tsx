import './report-tools.css';
import { addDays, addMonths, checkRange, companyDayStart, DAY_MS, parseDay } from '@takt/domain';
import type { CompanyClock, DayNumber, EpochMs, QuickLinkOptions } from '@takt/domain';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { tr } from '../i18n/reports';
import {
  dayInputValue,
  fieldOf,
  formatRangeLabel,
  formatSlot,
  HOUR_SLOTS,
  isStale,
  maxRangeLabel,
  monthGrid,
  monthName,
  hourSelected,
  pickDay,
  pickHour,
  quickLinkId,
  quickLinksFor,
  rangeForHorizon,
  selectModeFor,
  setField,
  slotOf,
  TIME_SLOTS,
  visibleMonthOf,
  weekdayNames,
  yearGrid,
  yearOf,
} from './model';
import type { AppliedRange, Horizon, Selection } from './model';

export interface DateRangePickerProps {
  clock: CompanyClock;
  /** Server time now (quick links are relative to it). */
  now: EpochMs;
  locale?: string;
  /** What the report shows (from the URL). */
  applied: AppliedRange;
  /** The horizons this report offers, in order. */
  horizons: readonly Horizon[];
  onApply: (range: AppliedRange) => void;
  /** Called when the draft starts or stops differing from `applied` (the page marks its view stale). */
  onStaleChange?: (stale: boolean) => void;
  /** Longest range in days ('Select up to {max range}'); none when the report has no limit. */
  maxDays?: number;
  quickLinkOptions?: QuickLinkOptions;
}

/**
 * reports-admin §2 "Shared report tools": horizon selector, a menu with the calendar (month calendar for
 * hour, day and week modes, year calendar for month mode, Monday first), start and end fields with the
 * 96-slot time list, the hour picker in hour mode, 'Select up to {max range}' and the quick links; Apply.
 * Nothing reaches the report until Apply: the draft lives here and the view is marked stale meanwhile.
 */
export function DateRangePicker(props: DateRangePickerProps) {
  const { clock, now, locale, applied, horizons, onApply, onStaleChange, maxDays, quickLinkOptions } = props;
  const [draft, setDraft] = useState<AppliedRange>(applied);
  const [anchor, setAnchor] = useState<DayNumber | null>(null);
  const [open, setOpen] = useState(false);
  const [extendHour, setExtendHour] = useState(false);
  const menuId = useId();
  const horizonId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  // A new applied range (Apply, back button, a drill-down link) replaces the draft. Compared by content: the
  // page may rebuild the same range every minute. Adjusting state while rendering, as React recommends for
  // props that reset state.
  const [seen, setSeen] = useState(applied);
  if (isStale(seen, applied)) {
    setSeen(applied);
    setDraft(applied);
    setAnchor(null);
  }

  const stale = isStale(applied, draft);
  useEffect(() => onStaleChange?.(stale), [stale, onStaleChange]);

  // Keyboard users land in the menu when it opens (Escape brings them back to the button).
  const menuRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) menuRef.current?.focus();
  }, [open]);

  // Close the menu on a click outside it.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  const check = checkRange(clock, draft);
  const tooLong = maxDays != null && draft.end - draft.start > maxDays * DAY_MS;
  const canApply = check.ok && !tooLong;
  const mode = selectModeFor(draft.interval);
  const links = useMemo(
    () => quickLinksFor(clock, draft.interval, now, quickLinkOptions),
    [clock, draft.interval, now, quickLinkOptions],
  );

  const update = (r: Partial<AppliedRange>) => setDraft((d) => ({ ...d, quicklink: null, ...r }));

  const closeMenu = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  const onMenuKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      closeMenu();
    }
  };

  const selection: Selection = { start: draft.start, end: draft.end, anchor };
  const onPick = (day: DayNumber) => {
    const next = pickDay(clock, selection, day, mode);
    setAnchor(next.anchor);
    setExtendHour(false);
    update({ start: next.start, end: next.end });
  };

  return (
    <div className="range-tool" ref={rootRef}>
      <div className="range-tool__bar">
        <div className="field field--inline">
          <label htmlFor={horizonId}>{tr('range.horizon')}</label>
          <select
            id={horizonId}
            value={draft.interval}
            onChange={(e) => {
              const interval = e.target.value as Horizon;
              setAnchor(null);
              update({ interval, ...rangeForHorizon(clock, draft, interval) });
            }}
          >
            {horizons.map((h) => (
              <option key={h} value={h}>
                {tr(`horizon.${h}`)}
              </option>
            ))}
          </select>
        </div>
        <button
          ref={buttonRef}
          type="button"
          className="button range-tool__toggle"
          aria-expanded={open}
          aria-controls={menuId}
          aria-haspopup="dialog"
          onClick={() => setOpen((o) => !o)}
        >
          <span className="visually-hidden">{tr('range.label')}: </span>
          {formatRangeLabel(draft, {
            timeZone: clock.timezone,
            clock,
            quickLink: links.find((l) => quickLinkId(l.label) === draft.quicklink)?.label ?? null,
            ...(locale ? { locale } : {}),
          })}
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={!canApply || !stale}
          onClick={() => {
            setOpen(false);
            onApply(draft);
          }}
        >
          {tr('range.apply')}
        </button>
      </div>
      {(!check.ok || tooLong) && (
        <p className="field__error" role="alert">
          {!check.ok ? check.message : tr('range.selectUpTo', { max: maxRangeLabel(maxDays ?? 0) })}
        </p>
      )}

      {open && (
        <div
          id={menuId}
          ref={menuRef}
          tabIndex={-1}
          className="range-menu"
          role="dialog"
          aria-label={tr('range.label')}
          onKeyDown={onMenuKey}
        >
          <div className="range-menu__main">
            {mode === 'month' ? (
              <YearCalendar clock={clock} draft={draft} onPick={onPick} {...(locale ? { locale } : {})} />
            ) : (
              <MonthCalendar clock={clock} draft={draft} onPick={onPick} {...(locale ? { locale } : {})} />
            )}
            <div className="range-menu__fields">
              <RangeField
                clock={clock}
                label={tr('range.start')}
                timeLabel={tr('range.startTime')}
                value={draft.start}
                onChange={(day, ms) => update(setField(clock, draft, 'start', day, ms))}
              />
              <RangeField
                clock={clock}
                label={tr('range.end')}
                timeLabel={tr('range.endTime')}
                value={draft.end}
                onChange={(day, ms) => update(setField(clock, draft, 'end', day, ms))}
              />
            </div>
            {mode === 'hour' && (
              <fieldset className="range-menu__hours">
                <legend>{tr('range.hours')}</legend>
                {HOUR_SLOTS.map((h) => {
                  const selected = hourSelected(clock, draft, h);
                  return (
                    <button
                      key={h}
                      type="button"
                      className="range-menu__hour"
                      aria-pressed={selected}
                      onClick={() => {
                        update(pickHour(clock, draft, h, extendHour));
                        setExtendHour((x) => !x);
                      }}
                    >
                      {formatSlot(h)}
                    </button>
                  );
                })}
              </fieldset>
            )}
            {maxDays != null && (
              <p className="range-menu__limit">{tr('range.selectUpTo', { max: maxRangeLabel(maxDays) })}</p>
            )}
          </div>
          <nav className="range-menu__links" aria-label={tr('range.quickLinks')}>
            <ul>
              {links.map((l) => {
                const id = quickLinkId(l.label);
                return (
                  <li key={id}>
                    <button
                      type="button"
                      className="range-menu__link"
                      aria-pressed={draft.quicklink === id}
                      onClick={() => {
                        // reports-admin §2: applying a quick link closes the menu.
                        setAnchor(null);
                        setDraft((d) => ({ ...d, start: l.start, end: l.end, quicklink: id }));
                        closeMenu();
                      }}
                    >
                      {l.label}
                    </button>
                  </li>
                );
              })}
            </ul>
            <button type="button" className="button button--ghost" onClick={closeMenu}>
              {tr('range.close')}
            </button>
          </nav>
        </div>
      )}
    </div>
  );
}

function RangeField({
  clock,
  label,
  timeLabel,
  value,
  onChange,
}: {
  clock: CompanyClock;
  label: string;
  timeLabel: string;
  value: EpochMs;
  onChange: (day: DayNumber, msOfDay: number) => void;
}) {
  const id = useId();
  const f = fieldOf(clock, value);
  const slot = slotOf(f.msOfDay);
  return (
    <div className="range-field">
      <div className="field">
        <label htmlFor={`${id}-d`}>{label}</label>
        <input
          id={`${id}-d`}
          type="date"
          value={dayInputValue(f.day)}
          onChange={(e) => {
            if (!e.target.value) return;
            try {
              onChange(parseDay(e.target.value), f.msOfDay);
            } catch {
              // A half-typed date: wait for a whole one.
            }
          }}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-t`}>{timeLabel}</label>
        <select id={`${id}-t`} value={slot} onChange={(e) => onChange(f.day, Number(e.target.value))}>
          {slot !== f.msOfDay && <option value={slot}>{formatSlot(f.msOfDay)}</option>}
          {TIME_SLOTS.map((s) => (
            <option key={s} value={s}>
              {formatSlot(s)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** A day is shown selected when its company day lies inside the draft range. */
const inRange = (clock: CompanyClock, r: { start: number; end: number }, day: DayNumber) => {
  const s = companyDayStart(clock, day);
  return s >= r.start && s < r.end;
};

function MonthCalendar({ clock, draft, onPick, locale }: CalendarProps) {
  const [month, setMonth] = useState(() => visibleMonthOf(clock, draft.start));
  const names = useMemo(() => weekdayNames(locale), [locale]);
  const fmt = useMemo(
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }),
    [locale],
  );
  const title = `${monthName(month, locale)} ${yearOf(month)}`;
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
                return (
                  <td key={d}>
                    <button
                      type="button"
                      className={outside ? 'calendar__day calendar__day--outside' : 'calendar__day'}
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

function YearCalendar({ clock, draft, onPick, locale }: CalendarProps) {
  const [year, setYear] = useState(() => yearOf(visibleMonthOf(clock, draft.start)));
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
