// reports-admin §2 OEE report: "Shift filter with select-all and per-shift toggles; terminated shifts are
// excluded." The selection is a list of shift ids; an empty selection means no filter (all shifts).

/** A shift as GET /api/shifts lists it (only what the filter reads). */
export interface ShiftOption {
  id: string;
  name: string;
  terminated: boolean;
}

/** The shifts the filter offers: terminated ones excluded, in name order. */
export function selectableShifts(shifts: readonly ShiftOption[]): ShiftOption[] {
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return shifts.filter((s) => !s.terminated).sort((a, b) => collator.compare(a.name, b.name));
}

export type SelectAllState = 'all' | 'some' | 'none';

/** The select-all box: checked (no filter, or every shift), mixed, or empty. */
export function selectAllState(options: readonly ShiftOption[], selected: readonly string[]): SelectAllState {
  const ids = new Set(options.map((o) => o.id));
  const chosen = selected.filter((id) => ids.has(id));
  if (chosen.length === 0) return options.length === 0 ? 'all' : 'none';
  return chosen.length === options.length ? 'all' : 'some';
}

/** Flips one shift; selecting the last missing one collapses to "all". */
export function toggleShift(
  options: readonly ShiftOption[],
  selected: readonly string[],
  id: string,
): string[] {
  const known = new Set(options.map((o) => o.id));
  const current = selected.filter((s) => known.has(s));
  const next = current.includes(id) ? current.filter((s) => s !== id) : [...current, id];
  return options.filter((o) => next.includes(o.id)).map((o) => o.id);
}

/** Select-all: from all to none, from none or some to all. */
export function toggleAll(options: readonly ShiftOption[], selected: readonly string[]): string[] {
  return selectAllState(options, selected) === 'all' ? [] : options.map((o) => o.id);
}

/**
 * The `shifts` query parameter: absent when every shift (or none) is chosen, so the report is unfiltered and
 * OOE and TEEP stay visible (reports-admin §2 "With a shift filter, OOE and TEEP are hidden").
 */
export function shiftsParam(options: readonly ShiftOption[], selected: readonly string[]): string | null {
  const state = selectAllState(options, selected);
  if (state !== 'some') return null;
  return toggleShift(options, selected, '\u0000').join(',');
}

/** Stored shift ids that still exist and are not terminated (a stored preference may be old). */
export function validSelection(options: readonly ShiftOption[], stored: readonly string[]): string[] {
  const ids = new Set(options.map((o) => o.id));
  return stored.filter((id) => ids.has(id));
}
