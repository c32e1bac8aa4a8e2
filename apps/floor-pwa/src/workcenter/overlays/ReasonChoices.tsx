export interface ReasonChoice {
  id: string;
  name: string;
  color?: string | null;
}

export interface ReasonChoicesProps {
  /** The radio group's name (unique in the page). */
  name: string;
  legend: string;
  /** Shown instead of the choices when there are none. */
  emptyText: string;
  reasons: readonly ReasonChoice[];
  selectedId: string | null | undefined;
  onSelect: (id: string) => void;
}

/** A grid of big radio tiles, one per reason, each edged in its reason's colour (downtime and reject forms). */
export function ReasonChoices({
  name,
  legend,
  emptyText,
  reasons,
  selectedId,
  onSelect,
}: ReasonChoicesProps) {
  return (
    <fieldset className="choice-grid">
      <legend className="field__label">{legend}</legend>
      {reasons.length === 0 ? (
        <p className="notice">{emptyText}</p>
      ) : (
        reasons.map((r) => (
          <label
            key={r.id}
            className="choice touch"
            style={r.color ? { borderLeftColor: r.color } : undefined}
          >
            <input
              type="radio"
              name={name}
              value={r.id}
              checked={selectedId === r.id}
              onChange={() => onSelect(r.id)}
            />
            <span>{r.name}</span>
          </label>
        ))
      )}
    </fieldset>
  );
}
