import type { CreateTableBuilder, Kysely } from 'kysely';
import { sql } from 'kysely';

// Decision 0804 (addendum): the day rows summed per machine × company week × shift, written with them, so a
// report by week (or by month: the whole weeks inside each month) reads a seventh of the rows. Same columns
// as rollup_days; a migration keeps its own list (the schema may change after it).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let table: CreateTableBuilder<any, any> = db.schema
    .createTable('rollup_weeks')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    // the week's first day row of this shift (or outside shift time) and the last one's end
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
    .addColumn('reasons', 'text', (c) => c.notNull())
    .addColumn('computed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rollup_weeks_machine_start')
    .on('rollup_weeks')
    .columns(['machine_id', 'start_at'])
    .execute();
  // Day rows stored before this migration have no week rows: recompute every machine from its first day
  // row (the worker writes both); until then reports build those machines' rows from facts (dirty marks).
  await sql`UPDATE rollup_dirty SET from_at = (SELECT min(d.start_at) FROM rollup_days d
    WHERE d.machine_id = rollup_dirty.machine_id)
    WHERE (SELECT min(d.start_at) FROM rollup_days d WHERE d.machine_id = rollup_dirty.machine_id) < from_at`.execute(
    db,
  );
  await sql`INSERT INTO rollup_dirty (machine_id, company_id, from_at, marked_at)
    SELECT machine_id, min(company_id), min(start_at), 0 FROM rollup_days
    WHERE machine_id NOT IN (SELECT machine_id FROM rollup_dirty) GROUP BY machine_id`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rollup_weeks').execute();
}
