import type { CreateTableBuilder, Kysely } from 'kysely';
import { sql } from 'kysely';

// Decision 0804: rollups summed per machine × company day × shift (null = outside shift time), written in
// the same transaction as the hourly rows they sum. The measures every OEE/utilization report sums are
// numeric columns; only the per-reason maps are JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let table: CreateTableBuilder<any, any> = db.schema
    .createTable('rollup_days')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    // the company day's first bucket of this shift (or outside shift time) and the last one's end
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
  await db.schema
    .createIndex('rollup_days_machine_start')
    .on('rollup_days')
    .columns(['machine_id', 'start_at'])
    .execute();
  // Rows stored before this migration have no day rows: recompute every machine from its first rollup
  // (the worker writes both), and until then reports build those machines' rows from facts (dirty marks).
  await sql`UPDATE rollup_dirty SET from_at = (SELECT min(r.start_at) FROM rollups r
    WHERE r.machine_id = rollup_dirty.machine_id)
    WHERE (SELECT min(r.start_at) FROM rollups r WHERE r.machine_id = rollup_dirty.machine_id) < from_at`.execute(
    db,
  );
  await sql`INSERT INTO rollup_dirty (machine_id, company_id, from_at, marked_at)
    SELECT machine_id, min(company_id), min(start_at), 0 FROM rollups
    WHERE machine_id NOT IN (SELECT machine_id FROM rollup_dirty) GROUP BY machine_id`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rollup_days').execute();
}
