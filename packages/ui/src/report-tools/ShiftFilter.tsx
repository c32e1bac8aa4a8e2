import '../date-range/report-tools.css';
import { useEffect, useId, useRef } from 'react';
import { tr } from '../i18n/reports';
import { selectAllState, toggleAll, toggleShift } from './shift-filter';
import type { ShiftOption } from './shift-filter';

/**
 * reports-admin §2: shift filter with select-all and per-shift toggles. `shifts` must already exclude
 * terminated shifts (`selectableShifts`). Nothing or everything checked filters nothing.
 */
export function ShiftFilter({
  shifts,
  selected,
  onChange,
}: {
  shifts: readonly ShiftOption[];
  selected: readonly string[];
  onChange: (ids: string[]) => void;
}) {
  const id = useId();
  const allRef = useRef<HTMLInputElement>(null);
  const state = selectAllState(shifts, selected);
  // "Some" is the checkbox's mixed state, which only the DOM property can show.
  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = state === 'some';
  }, [state]);
  const shown = state === 'none' ? [] : state === 'all' ? shifts.map((s) => s.id) : selected;

  return (
    <fieldset className="shift-filter">
      <legend>{tr('shifts.label')}</legend>
      {shifts.length === 0 ? (
        <p className="shift-filter__empty">{tr('shifts.none')}</p>
      ) : (
        <>
          <label className="shift-filter__option" htmlFor={`${id}-all`}>
            <input
              ref={allRef}
              id={`${id}-all`}
              type="checkbox"
              checked={state === 'all'}
              aria-checked={state === 'some' ? 'mixed' : state === 'all'}
              onChange={() => onChange(toggleAll(shifts, selected))}
            />
            {tr('shifts.all')}
          </label>
          {shifts.map((s) => (
            <label key={s.id} className="shift-filter__option" htmlFor={`${id}-${s.id}`}>
              <input
                id={`${id}-${s.id}`}
                type="checkbox"
                checked={shown.includes(s.id)}
                onChange={() =>
                  onChange(toggleShift(shifts, state === 'all' ? shifts.map((x) => x.id) : selected, s.id))
                }
              />
              {s.name}
            </label>
          ))}
        </>
      )}
    </fieldset>
  );
}
