import type { Kysely } from 'kysely';

// Decision 1100: the test screen's simulated execution. A simulated machine's data source is a machine_sources row of
// kind 'simulator' (the column is text: no change there); this table is the simulated adapter's own memory, what a
// real adapter keeps between lines: the values it last sent, when, and its automatic cycles under way (claimed by
// `cycle_next_at`, so one API process of several sends each step once).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('machine_simulations')
    .addColumn('machine_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('started_by', 'text')
    .addColumn('execution', 'text')
    .addColumn('program', 'text')
    .addColumn('part_count', 'bigint')
    .addColumn('fault_message', 'text')
    .addColumn('fault_code', 'text')
    .addColumn('last_line_at', 'bigint')
    .addColumn('cycle_every_ms', 'bigint')
    .addColumn('cycle_until', 'bigint')
    .addColumn('cycle_next_at', 'bigint')
    /** 'start': the next step starts a cycle (ACTIVE); 'end': it ends one (a part, READY). */
    .addColumn('cycle_phase', 'text')
    .execute();
  await db.schema
    .createIndex('machine_simulations_company')
    .on('machine_simulations')
    .column('company_id')
    .execute();
  await db.schema
    .createIndex('machine_simulations_cycle_next')
    .on('machine_simulations')
    .column('cycle_next_at')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('machine_simulations').execute();
}
