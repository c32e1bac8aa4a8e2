import type { Kysely } from 'kysely';

// reports-admin §2 accounts: invites, password links and the profile's shift notifications (decision 0880).
// Links are single-use: only the sha256 of a link's token is kept (like sessions and API keys), so a copy of
// the database yields no working link; using a link deletes (invite) or marks (reset) its row.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  // One open invite per address and company.
  await db.schema
    .createIndex('invites_company_email')
    .on('invites')
    .columns(['company_id', 'email'])
    .unique()
    .execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();

  // reports-admin §3 Current user "shifts, notify": one row per user who saved the profile's choice.
  await db.schema
    .createTable('shift_notifications')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('notify', 'integer', (c) => c.notNull())
    .addColumn('shift_ids', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('shift_notifications').execute();
  await db.schema.dropTable('password_resets').execute();
  await db.schema.dropTable('invites').execute();
}
