import type { Kysely } from 'kysely';

// reports-admin §3 "Machine notification: accountId, type (downtime or utilization), level (2 Failure,
// otherwise Warning), delayMinutes (default 10)", §2 the machines admin Notifications panel (decision 0900).
// - machine_notifications: who is told about which machine, of what, at which level and after how long.
// - machine_notification_episodes: one row per notification while its condition holds (decision 0901): when
//   the condition began and when the e-mail was claimed, so each episode is mailed once, by one process.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('machine_notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id'))
    // No foreign key: deleting a user must not fail on its notifications; the checker skips a missing
    // account and the panel leaves it out (decision 0900).
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('delay_minutes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('machine_notifications_machine')
    .on('machine_notifications')
    .columns(['company_id', 'machine_id'])
    .execute();

  await db.schema
    .createTable('machine_notification_episodes')
    .addColumn('notification_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('machine_id', 'text', (c) => c.notNull())
    .addColumn('since', 'bigint', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .addColumn('notified_at', 'bigint')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('machine_notification_episodes').execute();
  await db.schema.dropTable('machine_notifications').execute();
}
