import type { CreateTableBuilder, Kysely } from 'kysely';
import { sql } from 'kysely';

// Decision 0804: rollups summed per machine × company day × shift (null = outside shift time), written in
// the same transaction as the hourly rows they sum. The measures every OEE/utilization report sums are
// numeric columns; only the per-reason maps are JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await createRollupSumsTable(db, 'rollup_days');
  // Rows stored before this migration have no day rows: recompute every machine from its first rollup
  // (the worker writes both), and until then reports build those machines' rows from facts (dirty marks).
  await markDirtyFromFirstRow(db, 'rollups');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rollup_days').execute();
}

/**
 * A table of rollups summed per machine × period × shift (this migration's day rows, and the week rows of
 * migration 0013, which shares it: both tables have these columns as they stood then), with its
 * (machine_id, start_at) index.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createRollupSumsTable(db: Kysely<any>, name: string): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let table: CreateTableBuilder<any, any> = db.schema
    .createTable(name)
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    // the period's first bucket of this shift (or outside shift time) and the last one's end
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .addColumn('shift_id', 'text');
  for (const c of [
    'duration_ms',
    'active_ms',
    'setup_ms',
    'inactive_ms',
    'fault_ms',
    'unavailable_ms',
    'spindle_ms',
    'in_cut_ms',
    'planned_downtime_ms',
    'unplanned_downtime_ms',
    'cycles',
    'ideal_ms',
    'expected_ms',
    'parts',
    'adjustment_count',
    'rejected',
  ])
    table = table.addColumn(c, 'double precision', (col) => col.notNull());
  await table
    .addColumn('min_expected_part_time', 'double precision')
    // {"downtimeByReason": …, "rejectsByType": …}
    .addColumn('reasons', 'text', (c) => c.notNull())
    .addColumn('computed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex(`${name}_machine_start`).on(name).columns(['machine_id', 'start_at']).execute();
}

/**
 * Marks every machine with rows in `rows` dirty from its first one (keeping an earlier mark), so the worker
 * recomputes it and writes what a new table holds; until then reports build it from facts (decision 0700).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function markDirtyFromFirstRow(db: Kysely<any>, rows: 'rollups' | 'rollup_days'): Promise<void> {
  const first = sql`(SELECT min(r.start_at) FROM ${sql.table(rows)} r WHERE r.machine_id = rollup_dirty.machine_id)`;
  await sql`UPDATE rollup_dirty SET from_at = ${first} WHERE ${first} < from_at`.execute(db);
  await sql`INSERT INTO rollup_dirty (machine_id, company_id, from_at, marked_at)
    SELECT machine_id, min(company_id), min(start_at), 0 FROM ${sql.table(rows)}
    WHERE machine_id NOT IN (SELECT machine_id FROM rollup_dirty) GROUP BY machine_id`.execute(db);
}
