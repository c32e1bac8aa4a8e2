import type { Kysely } from 'kysely';

// Issue 27 point 6 (decision 1025): a job run's setup changed (a run entered, edited, ended or deleted, at any age),
// so the ingest worker that holds the machine re-derives its state intervals from `from_at` on, with the setup
// events read from the job runs: a run entered a week after its machine data gets its SETUP time like a live one.
// One row per machine: a second change keeps the earlier `from_at`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('setup_dirty')
    .addColumn('machine_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('from_at', 'bigint', (c) => c.notNull())
    .addColumn('marked_at', 'bigint', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('setup_dirty').execute();
}
