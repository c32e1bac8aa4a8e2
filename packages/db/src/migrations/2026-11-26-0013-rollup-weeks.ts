import type { Kysely } from 'kysely';
import { createRollupSumsTable, markDirtyFromFirstRow } from './2026-11-25-0011-rollup-days';

// Decision 0804 (addendum): the day rows summed per machine × company week × shift, written with them, so a
// report by week (or by month: the whole weeks inside each month) reads a seventh of the rows. The same
// columns as rollup_days.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await createRollupSumsTable(db, 'rollup_weeks');
  // Day rows stored before this migration have no week rows: recompute every machine from its first day
  // row (the worker writes both); until then reports build those machines' rows from facts (dirty marks).
  await markDirtyFromFirstRow(db, 'rollup_days');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rollup_weeks').execute();
}
