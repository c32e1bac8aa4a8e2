import type { Kysely } from 'kysely';

// Rollups to recompute: a change to a machine's history (late data, an annotation, a reject, a job run)
// marks the machine dirty from that time; the rollup worker recomputes from there and clears the mark.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rollup_dirty')
    .addColumn('machine_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('from_at', 'bigint', (c) => c.notNull())
    .addColumn('marked_at', 'bigint', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rollup_dirty').execute();
}
