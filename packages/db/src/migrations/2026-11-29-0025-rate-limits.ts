import type { Kysely } from 'kysely';

// Issue 26 (decisions 0987, 0990): `rate_limits` holds one counter per key (login attempts per account and
// address, pending tablet registrations, sync and gateway pushes), bumped by one atomic upsert so several API
// processes agree on the count. `api_keys.expires_at`: keys expire (null never happens for new keys; existing
// keys get one year from when they were made).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_window_start').on('rate_limits').column('window_start').execute();
  await db.schema.alterTable('api_keys').addColumn('expires_at', 'bigint').execute();
  await db
    .updateTable('api_keys')
    .set((eb) => ({ expires_at: eb('created_at', '+', 365 * 24 * 3_600_000) }))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('expires_at').execute();
  await db.schema.dropTable('rate_limits').execute();
}
