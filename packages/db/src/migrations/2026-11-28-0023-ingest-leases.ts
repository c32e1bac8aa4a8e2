import type { Kysely } from 'kysely';

// Scale-out on PostgreSQL (decision 0970): ingest nodes share the machine sources through leases in the
// database. A node's heartbeat row says it is alive (live nodes split the sources between them); a source's
// lease row names the node deriving it until `expires_at` (the database's clock, epoch ms), and `epoch` grows at
// each claim, so a batch stored under an older claim is refused. `claimed_until` lets one worker at a time take
// a dirty rollup mark. SQLite runs one node and leaves these empty.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ingest_nodes')
    .addColumn('node_id', 'text', (c) => c.primaryKey())
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('source_leases')
    .addColumn('source_id', 'text', (c) => c.primaryKey())
    .addColumn('node_id', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('epoch', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('source_leases_node').on('source_leases').column('node_id').execute();
  await db.schema.alterTable('rollup_dirty').addColumn('claimed_until', 'bigint').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('rollup_dirty').dropColumn('claimed_until').execute();
  await db.schema.dropTable('source_leases').execute();
  await db.schema.dropTable('ingest_nodes').execute();
}
