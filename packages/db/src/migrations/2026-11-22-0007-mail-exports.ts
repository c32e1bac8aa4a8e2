import type { Kysely } from 'kysely';

// E-mail (live-operations §7 E-mail preferences, decision 0701) and the event export (decision 0702).
// - email_preferences: one row per user once saved; a user without a row gets the defaults.
// - mail_outbox: every message the API sends, whichever transport carried it (decision 0701).
// - event_exports: queued CSV exports of a machine's observations; the CSV is kept in the row so any API
//   process can serve the download.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('email_preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('receive_downtime', 'integer', (c) => c.notNull())
    .addColumn('receive_utilization', 'integer', (c) => c.notNull())
    .addColumn('receive_benchmarking', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('user_id', 'text')
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('transport', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mail_outbox_company')
    .on('mail_outbox')
    .columns(['company_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('event_exports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .addColumn('filter_keys', 'text', (c) => c.notNull())
    .addColumn('link_base', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'bigint')
    .addColumn('row_count', 'integer')
    .addColumn('csv', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('event_exports_status').on('event_exports').column('status').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_exports').execute();
  await db.schema.dropTable('mail_outbox').execute();
  await db.schema.dropTable('email_preferences').execute();
}
