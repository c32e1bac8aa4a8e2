import type { Kysely } from 'kysely';

// What ingest derives from observations through the domain engine: cycles, programs,
// faults, spindle/in-cut spans, the idle reason on state intervals, and per-bucket rollups for reports.
// Open records have end_at null. Portable SQL only.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('state_intervals').addColumn('reason', 'text').execute();
  // How cycles end: at part-count increments, or (no usable counter) when execution completes a program.
  await db.schema
    .alterTable('machines')
    .addColumn('cycle_source', 'text', (c) => c.notNull().defaultTo('part_count'))
    .execute();

  await db.schema
    .createTable('cycles')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .addColumn('duration', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('setup', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('cycles_pk', ['machine_id', 'end_at'])
    .execute();

  await db.schema
    .createTable('program_intervals')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    // 0 program, 1 sub-program
    .addColumn('sub', 'integer', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint')
    .addColumn('name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('program_intervals_pk', ['machine_id', 'sub', 'start_at'])
    .execute();

  await db.schema
    .createTable('faults')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    .addColumn('item', 'text', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint')
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('nativecode', 'text')
    .addColumn('type', 'text')
    .execute();
  await db.schema
    .createIndex('faults_machine_start')
    .on('faults')
    .columns(['machine_id', 'start_at'])
    .execute();

  await db.schema
    .createTable('flag_spans')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    // spindle | incut
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint')
    .addPrimaryKeyConstraint('flag_spans_pk', ['machine_id', 'kind', 'start_at'])
    .execute();

  await db.schema
    .createTable('rollups')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .addColumn('shift_id', 'text')
    // the domain's RollupMeasures, as JSON
    .addColumn('measures', 'text', (c) => c.notNull())
    .addColumn('computed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rollups_pk', ['machine_id', 'start_at'])
    .execute();
  await db.schema
    .createIndex('rollups_company_start')
    .on('rollups')
    .columns(['company_id', 'start_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['rollups', 'flag_spans', 'faults', 'program_intervals', 'cycles'])
    await db.schema.dropTable(t).execute();
  await db.schema.alterTable('state_intervals').dropColumn('reason').execute();
  await db.schema.alterTable('machines').dropColumn('cycle_source').execute();
}
