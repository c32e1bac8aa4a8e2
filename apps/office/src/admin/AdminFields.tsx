import { t } from '@takt/ui';
import { useId } from 'react';
import type { ReactNode } from 'react';

// The labelled fields of the administration forms: a control with its hint and its error (validated as you
// type, UI.md "Office"), and the name, colour, time and date fields built on it.

export interface FieldProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby'?: string;
}

/** A labelled control with its hint and its error (validated as you type, UI.md "Office"). */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  error?: string | undefined;
  children: (props: FieldProps) => ReactNode;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        'aria-invalid': Boolean(error),
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {hint && (
        <p className="admin__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A colour picker with its hex value beside it. */
export function ColorField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (v: string) => void;
  error?: string | undefined;
}) {
  return (
    <Field label={t('admin.field.color')} error={error}>
      {(p) => (
        <div className="admin__color">
          <input {...p} type="color" value={value} onChange={(e) => onChange(e.target.value)} />
          <span className="admin__mono">{value}</span>
        </div>
      )}
    </Field>
  );
}

/** The name field every plant resource has. */
export function NameField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (v: string) => void;
  error?: string;
}) {
  return (
    <Field label={t('admin.field.name')} error={error}>
      {(p) => <input {...p} value={value} autoComplete="off" onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}

/** A time of day in 5-minute steps (reports-admin §9 "Time pickers 5-minute steps"). */
export function TimeField({
  label,
  hint,
  error,
  value,
  onChange,
}: {
  label: string;
  hint?: string;
  error?: string | undefined;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(p) => (
        <input {...p} type="time" step={5 * 60} value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </Field>
  );
}

/** A date from `bounds.min` to `bounds.max` ('YYYY-MM-DD'), its range said under it. */
export function DateField({
  label,
  hint,
  error,
  bounds,
  value,
  onChange,
}: {
  label: string;
  hint: string;
  error?: string | undefined;
  bounds: { min: string; max: string };
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(p) => (
        <input
          {...p}
          type="date"
          min={bounds.min}
          max={bounds.max}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** reports-admin §5: the date a change takes effect, from tomorrow to one month ahead. */
export function EffectiveDateField(props: {
  error?: string | undefined;
  bounds: { min: string; max: string };
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <DateField
      label={t('admin.shifts.effectiveDate')}
      hint={t('admin.shifts.effectiveHint', props.bounds)}
      {...props}
    />
  );
}
