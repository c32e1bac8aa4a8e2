import type { Kysely } from 'kysely';

// A graceful hand-over of an SHDR source between ingest nodes is make-before-break (decision 0971): the holder
// offers the lease (`releasing`), a node below its share reserves it (`successor`) and listens to the adapter
// alongside, says so once it hears it (`successor_ready`), and the holder then frees the lease for that node
// alone until `expires_at`. SQLite runs one node and leaves these at their defaults.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('source_leases')
    .addColumn('releasing', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('source_leases').addColumn('successor', 'text').execute();
  await db.schema
    .alterTable('source_leases')
    .addColumn('successor_ready', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('source_leases').dropColumn('successor_ready').execute();
  await db.schema.alterTable('source_leases').dropColumn('successor').execute();
  await db.schema.alterTable('source_leases').dropColumn('releasing').execute();
}
