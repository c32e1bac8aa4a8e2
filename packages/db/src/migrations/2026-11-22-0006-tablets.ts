import type { Kysely } from 'kysely';

// Tablets (live-operations §2, §3): a device registers by code, an admin associates it with the company
// (and optionally one machine), and it then authenticates with a device token of which only the sha256 is
// kept. company_id stays NULL while the tablet is pending (nobody has claimed it yet).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tablets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.references('companies.id'))
    .addColumn('serial_number', 'text', (c) => c.notNull())
    .addColumn('remote_identifier', 'text')
    .addColumn('machine_id', 'text')
    .addColumn('dashboard_view', 'text', (c) => c.notNull().defaultTo('opdash'))
    .addColumn('token_hash', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('code', 'text')
    .addColumn('code_expires_at', 'bigint')
    .addColumn('associated_by', 'text')
    .addColumn('last_seen_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tablets_code').on('tablets').column('code').execute();
  await db.schema.createIndex('tablets_token_hash').on('tablets').column('token_hash').unique().execute();
  await db.schema.createIndex('tablets_company').on('tablets').column('company_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tablets').execute();
}
