import { NOTE_MAX_LENGTH } from '@takt/domain';

/**
 * A note or description with its character counter, as every workcenter form asks it (live-operations §5:
 * "Notes and description text: at most 250 characters"): Start Production notes, the reject message and the
 * downtime description.
 */
export function NoteField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  rows?: number;
}) {
  const counter = `${props.id}-count`;
  return (
    <div className="field">
      <label className="field__label" htmlFor={props.id}>
        {props.label}
      </label>
      <textarea
        id={props.id}
        className="touch-input"
        rows={props.rows ?? 2}
        maxLength={NOTE_MAX_LENGTH}
        value={props.value}
        aria-describedby={counter}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <span id={counter} className="field__hint num">
        {props.value.length}/{NOTE_MAX_LENGTH}
      </span>
    </div>
  );
}
