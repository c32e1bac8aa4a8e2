import {
  boundMark,
  dateEntryPatterns,
  formatDateEntry,
  formatTimeEntry,
  fromWall,
  parseDateEntry,
  parseTimeEntry,
  patternLabel,
  toWall,
} from '@takt/domain';
import type { BoundMark, DateBounds, DayNumber, EpochMs, TimeEntryProblem } from '@takt/domain';
import { useId, useState } from 'react';
import { t } from '../i18n';

// Typed date and time fields (live-operations §5 "a typed date is parsed in formats L or l and kept only if
// valid. Time input: hours up to 12 (or 23), minutes and seconds up to 59, milliseconds up to 999"; reports-admin
// §5 "Date-time select marks invalid-min and invalid-max"). Decision 1092. The rules are the domain's
// (time/date-entry.ts); these fields keep what was typed until it is a whole valid value.

/** The text of a date that cannot be read: 'Enter the date as MM/DD/YYYY or M/D/YYYY.' */
export function dateFormatMessage(locale?: string): string {
  const { L, l } = dateEntryPatterns(locale);
  return t('dateEntry.dateFormat', { L: patternLabel(L), l: patternLabel(l) });
}

/** The text of a time that cannot be read, by what is wrong with it. */
export function timeProblemMessage(problem: TimeEntryProblem, hour12 = false): string {
  switch (problem) {
    case 'format':
      return t('dateEntry.time.format', {
        format: t(hour12 ? 'dateEntry.timeHint12' : 'dateEntry.timeHint'),
      });
    case 'hours':
      return t(hour12 ? 'dateEntry.time.hours12' : 'dateEntry.time.hours');
    case 'minutes':
      return t('dateEntry.time.minutes');
    case 'seconds':
      return t('dateEntry.time.seconds');
    case 'milliseconds':
      return t('dateEntry.time.milliseconds');
    case 'meridiem':
      return t(hour12 ? 'dateEntry.time.meridiem' : 'dateEntry.time.meridiem24');
  }
}

/**
 * One typed field: what is typed stays until it reads as a whole value (`read`), which then replaces the value;
 * when the value changes from outside, the field shows it (`format`). Once left, a text that does not read says
 * why (`problem`).
 */
function TypedInput<V>(props: {
  id: string;
  value: V;
  format: (v: V) => string;
  read: (text: string) => V | null;
  problem: (text: string) => string;
  placeholder: string;
  size: number;
  numeric?: boolean;
  onValue: (v: V) => void;
  mark?: BoundMark | null | undefined;
  describedBy?: string | undefined;
  onValidity?: ((valid: boolean) => void) | undefined;
}) {
  const { id, value, format, read, problem, mark, describedBy, onValue, onValidity } = props;
  const [text, setText] = useState(() => format(value));
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    if (read(text) !== value) setText(format(value));
  }
  const [touched, setTouched] = useState(false);
  const showError = touched && read(text) == null;
  const errorId = `${id}-error`;
  return (
    <>
      <input
        id={id}
        type="text"
        inputMode={props.numeric ? 'numeric' : undefined}
        autoComplete="off"
        placeholder={props.placeholder}
        value={text}
        size={props.size}
        aria-invalid={showError || mark != null}
        aria-describedby={[describedBy, showError ? errorId : null].filter(Boolean).join(' ') || undefined}
        data-mark={mark ?? undefined}
        onChange={(e) => {
          setText(e.target.value);
          const v = read(e.target.value);
          onValidity?.(v != null);
          if (v != null && v !== value) onValue(v);
        }}
        onBlur={() => setTouched(true)}
      />
      {showError && (
        <span id={errorId} className="field__error" role="alert">
          {problem(text)}
        </span>
      )}
    </>
  );
}

export interface TypedDateInputProps {
  id: string;
  day: DayNumber;
  locale?: string;
  onDay: (day: DayNumber) => void;
  /** The bound mark of the field's value, if any (shown as aria-invalid and data-mark). */
  mark?: BoundMark | null;
  describedBy?: string;
  /** Tells the owner whether what is typed is a valid date. */
  onValidity?: (valid: boolean) => void;
}

/** A date typed in format L or l of the locale; the error under it says which formats. */
export function TypedDateInput({
  id,
  day,
  locale,
  onDay,
  mark,
  describedBy,
  onValidity,
}: TypedDateInputProps) {
  return (
    <TypedInput
      id={id}
      value={day}
      format={(d) => formatDateEntry(d, locale)}
      read={(s) => parseDateEntry(s, locale)}
      problem={() => dateFormatMessage(locale)}
      placeholder={patternLabel(dateEntryPatterns(locale).L)}
      size={11}
      numeric
      onValue={onDay}
      mark={mark}
      describedBy={describedBy}
      onValidity={onValidity}
    />
  );
}

export interface TypedTimeInputProps {
  id: string;
  msOfDay: number;
  hour12?: boolean;
  onTime: (msOfDay: number) => void;
  mark?: BoundMark | null;
  onValidity?: (valid: boolean) => void;
}

/** A time of day typed as H:mm[:ss[.SSS]] (with AM/PM on a 12-hour clock), within the spec's limits. */
export function TypedTimeInput({
  id,
  msOfDay,
  hour12 = false,
  onTime,
  mark,
  onValidity,
}: TypedTimeInputProps) {
  return (
    <TypedInput
      id={id}
      value={msOfDay}
      format={(ms) => formatTimeEntry(ms, hour12)}
      read={(s) => {
        const r = parseTimeEntry(s, hour12);
        return r.ok ? r.msOfDay : null;
      }}
      problem={(s) => {
        const r = parseTimeEntry(s, hour12);
        return r.ok ? '' : timeProblemMessage(r.problem, hour12);
      }}
      placeholder={hour12 ? 'h:mm AM' : 'HH:mm'}
      size={12}
      onValue={onTime}
      mark={mark}
      onValidity={onValidity}
    />
  );
}

export interface DateTimeInputProps {
  label: string;
  value: EpochMs;
  /** The company's time zone: the fields show and take its wall clock. */
  timeZone: string;
  locale?: string;
  hour12?: boolean;
  /** The earliest and latest accepted time (reports-admin §5: default one year back to now). */
  bounds?: DateBounds;
  onChange: (value: EpochMs) => void;
  /** Tells the owner whether both fields hold a valid value inside the bounds. */
  onValidity?: (valid: boolean) => void;
  disabled?: boolean;
}

/**
 * A date and time field pair on the company's wall clock: the date typed in format L or l, the time within its
 * limits; a value outside the bounds is marked invalid-min or invalid-max with the bound it passes.
 */
export function DateTimeInput(props: DateTimeInputProps) {
  const { label, value, timeZone, locale, hour12 = false, bounds, onChange, onValidity, disabled } = props;
  const id = useId();
  const wall = toWall(timeZone, value);
  const mark = bounds ? boundMark(value, bounds) : null;
  const [fieldsValid, setFieldsValid] = useState({ date: true, time: true });
  const report = (next: { date: boolean; time: boolean }, at: EpochMs) => {
    setFieldsValid(next);
    onValidity?.(next.date && next.time && (bounds ? boundMark(at, bounds) == null : true));
  };
  const fmt = new Intl.DateTimeFormat(locale, {
    dateStyle: 'short',
    timeStyle: 'short',
    timeZone,
    hourCycle: hour12 ? 'h12' : 'h23',
  });
  const markId = `${id}-mark`;
  return (
    <fieldset className="date-time" data-mark={mark ?? undefined} disabled={disabled}>
      <legend className="visually-hidden">{label}</legend>
      <div className="date-time__fields">
        <div className="field">
          <label htmlFor={`${id}-d`}>{label}</label>
          <TypedDateInput
            id={`${id}-d`}
            day={wall.day}
            mark={mark}
            describedBy={mark ? markId : undefined}
            onDay={(day) => {
              const next = fromWall(timeZone, day, wall.msOfDay);
              report({ ...fieldsValid, date: true }, next);
              onChange(next);
            }}
            onValidity={(ok) => report({ ...fieldsValid, date: ok }, value)}
            {...(locale ? { locale } : {})}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-t`}>{t('dateEntry.time', { label })}</label>
          <TypedTimeInput
            id={`${id}-t`}
            msOfDay={wall.msOfDay}
            hour12={hour12}
            mark={mark}
            onTime={(ms) => {
              const next = fromWall(timeZone, wall.day, ms);
              report({ ...fieldsValid, time: true }, next);
              onChange(next);
            }}
            onValidity={(ok) => report({ ...fieldsValid, time: ok }, value)}
          />
        </div>
      </div>
      {mark && bounds && (
        <p id={markId} className="field__error" role="alert">
          {mark === 'invalid-min'
            ? t('dateEntry.invalidMin', { min: fmt.format(bounds.min) })
            : t('dateEntry.invalidMax', { max: fmt.format(bounds.max) })}
        </p>
      )}
    </fieldset>
  );
}
