import './report-tools.css';
import {
  addDays,
  checkRange,
  companyDayStart,
  DAY_MS,
  defaultDateBounds,
  shopDateOf,
  snapRange,
} from '@takt/domain';
import type { BoundMark, CompanyClock, DateBounds, DayNumber, EpochMs, QuickLinkOptions } from '@takt/domain';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { tr } from '../i18n/reports';
import { MonthCalendar, YearCalendar } from './Calendar';
import { TypedDateInput } from './DateEntry';
import {
  fieldOf,
  formatRangeLabel,
  formatSlot,
  HOUR_SLOTS,
  draftAfterApplied,
  isStale,
  maxRangeLabel,
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
} from './model';
import type { AppliedRange, Horizon, Selection, SelectMode } from './model';

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
  /**
   * The earliest and latest time a hand-picked range may reach (reports-admin §5 "Calendar disables dates
   * outside min and max (default min one year back, max now)"; decision 1092). Quick links are the product's
   * own ranges and are not held to them.
   */
  bounds?: DateBounds;
}

/**
 * reports-admin §5 "Date-time select marks invalid-min and invalid-max": a range's start before the first
 * day the calendar offers, or its end after the last one (an end is exclusive: the start of the day after).
 * In week and month mode a whole week or month is selected (reports-admin §2), so the one holding the last day
 * may end after it: this week on a Monday runs to next Monday, as the "This week" quick link does.
 */
export function rangeMarks(
  clock: CompanyClock,
  r: { start: number; end: number },
  bounds: DateBounds,
  mode: SelectMode = 'day',
): { start: BoundMark | null; end: BoundMark | null } {
  const firstDay = companyDayStart(clock, shopDateOf(clock, bounds.min));
  const lastDay = shopDateOf(clock, bounds.max);
  const lastDayRange = {
    start: companyDayStart(clock, lastDay),
    end: companyDayStart(clock, addDays(lastDay, 1)),
  };
  const afterLastDay =
    mode === 'week' || mode === 'month' ? snapRange(clock, lastDayRange, mode).end : lastDayRange.end;
  const mark = (t: number): BoundMark | null =>
    t < firstDay ? 'invalid-min' : t > afterLastDay ? 'invalid-max' : null;
  return { start: mark(r.start), end: mark(r.end) };
}

/**
 * reports-admin §2 "Shared report tools": horizon selector, a menu with the calendar (month calendar for
 * hour, day and week modes, year calendar for month mode, Monday first), start and end fields with the
 * 96-slot time list, the hour picker in hour mode, 'Select up to {max range}' and the quick links; Apply.
 * Nothing reaches the report until Apply: the draft lives here and the view is marked stale meanwhile.
 */
export function DateRangePicker(props: DateRangePickerProps) {
  const { clock, now, locale, applied, horizons, onApply, onStaleChange, maxDays, quickLinkOptions } = props;
  const bounds = props.bounds ?? defaultDateBounds(now);
  const [draft, setDraft] = useState<AppliedRange>(applied);
  const [anchor, setAnchor] = useState<DayNumber | null>(null);
  const [open, setOpen] = useState(false);
  const [extendHour, setExtendHour] = useState(false);
  const menuId = useId();
  const horizonId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  // A new applied range (Apply, back button, a drill-down link) replaces the draft. Compared by content: the
  // page may rebuild the same range every minute, and a range ending now moves then without wiping what the user
  // is choosing (draftAfterApplied). Adjusting state while rendering, as React recommends for props that reset state.
  const [seen, setSeen] = useState(applied);
  if (isStale(seen, applied)) {
    const next = draftAfterApplied(seen, applied, draft);
    setSeen(applied);
    setDraft(next);
    if (next === applied) setAnchor(null);
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
  const marks =
    draft.quicklink == null
      ? rangeMarks(clock, draft, bounds, selectModeFor(draft.interval))
      : { start: null, end: null };
  const [typedOk, setTypedOk] = useState({ start: true, end: true });
  const boundDay = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: clock.timezone });
  const markText = (mark: BoundMark | null) =>
    mark === 'invalid-min'
      ? tr('dateEntry.invalidMin', { min: boundDay.format(bounds.min) })
      : mark === 'invalid-max'
        ? tr('dateEntry.invalidMax', { max: boundDay.format(bounds.max) })
        : '';
  // A half-typed date exists only in the open menu (closing it drops the text).
  const typedValid = !open || (typedOk.start && typedOk.end);
  const canApply = check.ok && !tooLong && marks.start == null && marks.end == null && typedValid;
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
          onClick={() => {
            setTypedOk({ start: true, end: true });
            setOpen((o) => !o);
          }}
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
              <YearCalendar
                clock={clock}
                draft={draft}
                onPick={onPick}
                bounds={bounds}
                {...(locale ? { locale } : {})}
              />
            ) : (
              <MonthCalendar
                clock={clock}
                draft={draft}
                onPick={onPick}
                bounds={bounds}
                {...(locale ? { locale } : {})}
              />
            )}
            <div className="range-menu__fields">
              <RangeField
                clock={clock}
                label={tr('range.start')}
                timeLabel={tr('range.startTime')}
                value={draft.start}
                mark={marks.start}
                markText={markText(marks.start)}
                onValidity={(ok) => setTypedOk((v) => ({ ...v, start: ok }))}
                onChange={(day, ms) => update(setField(clock, draft, 'start', day, ms))}
                {...(locale ? { locale } : {})}
              />
              <RangeField
                clock={clock}
                label={tr('range.end')}
                timeLabel={tr('range.endTime')}
                value={draft.end}
                mark={marks.end}
                markText={markText(marks.end)}
                onValidity={(ok) => setTypedOk((v) => ({ ...v, end: ok }))}
                onChange={(day, ms) => update(setField(clock, draft, 'end', day, ms))}
                {...(locale ? { locale } : {})}
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
  mark,
  markText,
  locale,
  onChange,
  onValidity,
}: {
  clock: CompanyClock;
  label: string;
  timeLabel: string;
  value: EpochMs;
  mark: BoundMark | null;
  /** What the mark says: 'Not before Nov 29, 2025.' */
  markText: string;
  locale?: string;
  onChange: (day: DayNumber, msOfDay: number) => void;
  onValidity: (valid: boolean) => void;
}) {
  const id = useId();
  const f = fieldOf(clock, value);
  const slot = slotOf(f.msOfDay);
  const markId = `${id}-mark`;
  return (
    <div className="range-field" data-mark={mark ?? undefined}>
      <div className="field">
        <label htmlFor={`${id}-d`}>{label}</label>
        {/* live-operations §5: typed in format L or l, kept only if valid. */}
        <TypedDateInput
          id={`${id}-d`}
          day={f.day}
          mark={mark}
          onDay={(day) => onChange(day, f.msOfDay)}
          onValidity={onValidity}
          {...(mark ? { describedBy: markId } : {})}
          {...(locale ? { locale } : {})}
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
      {mark && (
        <p id={markId} className="field__error range-field__mark" role="alert">
          {markText}
        </p>
      )}
    </div>
  );
}
