// /machine/{id}/home/partCount (live-operations §2 "operator host part count"; decision 1099): the floor screen
// where an operator counts the parts made on a manual work center, a number at a time, through the same Add
// Parts sync command (manual_add_part) as the workcenter's Add Part. Pure: the screen renders what these give.

/** The screen's path for one machine. */
export const partCountPath = (machineId: string): string =>
  `/machine/${encodeURIComponent(machineId)}/home/partCount`;

/** The server's words for a count below 1 (services/api part-adjustments addManualParts). */
export const COUNT_TOO_SMALL = 'Count must be at least 1';

/** The largest count one entry may add: a typo of extra digits is not a day's production. */
export const MAX_COUNT_ENTRY = 10_000;

/** The count typed, or why it cannot be added. */
export function countEntry(text: string): { count: number } | { error: string } {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return { error: COUNT_TOO_SMALL };
  const count = Number(trimmed);
  if (count < 1) return { error: COUNT_TOO_SMALL };
  if (count > MAX_COUNT_ENTRY) return { error: `Count must be at most ${String(MAX_COUNT_ENTRY)}` };
  return { count };
}

/**
 * The parts of the running job shown: the server's (the card's live actualParts) plus what this device has queued and the
 * server has not taken yet (the optimistic view's partsAdded); null before the first answer.
 */
export function countedParts(actualParts: number | null | undefined, partsAdded: number): number | null {
  return actualParts == null ? null : Math.max(0, actualParts + partsAdded);
}
