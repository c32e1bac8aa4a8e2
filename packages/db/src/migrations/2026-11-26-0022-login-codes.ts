import type { Kysely } from 'kysely';

// reports-admin §2 "Login: … code option" (decision 0935): one-time sign-in codes sent by e-mail. One open code
// per user (a new one replaces it); only the sha256 of the code is kept, and using it deletes the row.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('login_codes')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('login_codes').execute();
}
