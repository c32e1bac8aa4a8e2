import type { Kysely } from 'kysely';
import { markDirtyFromFirstRow } from './2026-11-25-0011-rollup-days';

// Issue 27 point 1 (decision 1010, METRICS.md §1): a machine's monitored life starts at its first stored
// observation; time before it is in no time base, and UNAVAILABLE time inside it is No data, apart from
// Uncategorized. Stored rows counted pre-life time as uncategorized downtime, so every machine with rows is
// marked dirty from its first row: the worker rebuilds its hourly rows and, in the same transaction, its
// day and week rows (decision 0804).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await markDirtyFromFirstRow(db, 'rollups');
}

// Nothing to undo: the marks only make the worker recompute.
export async function down(): Promise<void> {}
