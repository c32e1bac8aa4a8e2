import type { Kysely } from 'kysely';

// Issue 29 point 9 (decisions 1115-1117): report preferences on the server, per user and company, so they
// follow the user to another device (reports-admin §9 "Stored preferences per company: last OEE or utilization
// horizon and selected shifts"), with the anonymize option (reports-admin §6); an invite's brand override,
// copied to the user it makes (reports-admin §3 "Invitee: invitees list, role, brand_override").
// Horizons are the report interval names; shift_ids a JSON array, NULL = no choice saved (every shift).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_preferences')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('oee_horizon', 'text')
    .addColumn('utilization_horizon', 'text')
    .addColumn('shift_ids', 'text')
    .addColumn('anonymize', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_preferences_pk', ['user_id', 'company_id'])
    .execute();
  await db.schema.alterTable('invites').addColumn('brand_override', 'text').execute();
  await db.schema.alterTable('users').addColumn('brand_override', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('brand_override').execute();
  await db.schema.alterTable('invites').dropColumn('brand_override').execute();
  await db.schema.dropTable('user_preferences').execute();
}
