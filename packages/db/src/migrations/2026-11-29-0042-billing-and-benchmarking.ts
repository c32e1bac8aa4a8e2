import type { Kysely } from 'kysely';

// Issue 29 point 9 (decisions 1110-1112): a machine's billing date and integration time (reports-admin §3 Machine
// "billingDate, integratedAt", §5 "Machine billing date from 2014-06-01 to 1 year ahead"), and the weekly
// benchmarking e-mails sent to the users who opted in.
// - machines.billing_date: 'YYYY-MM-DD' or NULL; machines.integrated_at: epoch ms set by a root user, NULL =
//   the machine's first data (read, not stored; decision 1111).
// - benchmark_mails: one row per user and week (the Monday shop date the week starts on), inserted before the
//   e-mail goes out, so each user gets each week's e-mail once, whatever restarts and however many API
//   processes (decision 1110).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('machines').addColumn('billing_date', 'text').execute();
  await db.schema.alterTable('machines').addColumn('integrated_at', 'bigint').execute();
  await db.schema
    .createTable('benchmark_mails')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('week', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('benchmark_mails_pk', ['user_id', 'week'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('benchmark_mails').execute();
  await db.schema.alterTable('machines').dropColumn('integrated_at').execute();
  await db.schema.alterTable('machines').dropColumn('billing_date').execute();
}
