import type { MachineLiveTable } from '@takt/db';

/**
 * A live row whose only change is its last heartbeat is written once the heartbeat moved this far from the one
 * stored (decision 1145): a connected machine that sends nothing the tile shows (or only its PONGs) costs a row
 * update every 10 s, not one per batch and tick. The heartbeat rules read it against 2 and 5 minutes (spec
 * live-operations: link lost after 5 minutes without one).
 */
export const LIVE_HEARTBEAT_MS = 10_000;

/** Not compared as the others: the key, the heartbeat (above) and updated_at (when the row was written: nobody reads it). */
const NOT_COMPARED: ReadonlySet<string> = new Set(['machine_id', 'last_heartbeat', 'updated_at']);

/**
 * Whether `row` must be written over `stored` (the row this worker last wrote for the machine, undefined when it
 * wrote none): a column a reader sees changed, or the heartbeat appeared, went, or moved by LIVE_HEARTBEAT_MS.
 */
export function liveChanged(stored: MachineLiveTable | undefined, row: MachineLiveTable): boolean {
  if (!stored) return true;
  for (const c of Object.keys(row) as Array<keyof MachineLiveTable>)
    if (!NOT_COMPARED.has(c) && stored[c] !== row[c]) return true;
  const a = stored.last_heartbeat;
  const b = row.last_heartbeat;
  if (a == null || b == null) return a !== b;
  return Math.abs(b - a) >= LIVE_HEARTBEAT_MS;
}
