import type { Kysely } from 'kysely';

// Accounts. reports-admin §2 API keys (decision 0840): only the sha256 of the token is kept, so a copy of the database
// yields no working key; `prefix` is the token's first characters, shown in the list to tell keys apart.
// `scopes` is a JSON array of scope names.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_company').on('api_keys').columns(['company_id', 'name']).execute();
  // Login throttling (decision 0842): one row per failed login and key (`account:<e-mail>`,
  // `address:<ip>`), counted over a sliding window. In the database, not in memory, so every API process
  // counts the same attempts (ARCHITECTURE.md "Process model").
  await db.schema
    .createTable('login_failures')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_key_at').on('login_failures').columns(['key', 'at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('login_failures').execute();
  await db.schema.dropTable('api_keys').execute();
}
