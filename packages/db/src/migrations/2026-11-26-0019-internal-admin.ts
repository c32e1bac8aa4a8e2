import type { Kysely } from 'kysely';

// The internal (root) screens' storage (reports-admin §2 "Internal company admin", "Internal machine list",
// "System page"; §3 Company trial_expiration_date, erp; decisions 0920-0923).
// - companies.trial_expiration_date ('YYYY-MM-DD', NULL: no trial), erp (free text), muted (0/1: internal data
//   alarms silenced), annual_recurring_revenue (whole US dollars, NULL: not entered).
// - machines.make, model, payer: what the internal machine list sorts by; entered there by root users.
// - system_versions: one row ('current') with the API and JS revisions the System page increments; they are
//   part of the MM-API-Version header, so every open app sees a new version (decision 0922).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('companies').addColumn('trial_expiration_date', 'text').execute();
  await db.schema.alterTable('companies').addColumn('erp', 'text').execute();
  await db.schema
    .alterTable('companies')
    .addColumn('muted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('companies').addColumn('annual_recurring_revenue', 'bigint').execute();
  for (const name of ['make', 'model', 'payer']) {
    await db.schema.alterTable('machines').addColumn(name, 'text').execute();
  }
  await db.schema
    .createTable('system_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_revision', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('js_revision', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint')
    .execute();
  await db.insertInto('system_versions').values({ id: 'current', api_revision: 0, js_revision: 0 }).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('system_versions').execute();
  for (const name of ['payer', 'model', 'make']) {
    await db.schema.alterTable('machines').dropColumn(name).execute();
  }
  for (const name of ['annual_recurring_revenue', 'muted', 'erp', 'trial_expiration_date']) {
    await db.schema.alterTable('companies').dropColumn(name).execute();
  }
}
