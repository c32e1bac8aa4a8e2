import type { Kysely } from 'kysely';

// live-operations §7 CSV-link tokens (decision 0502): a link token is a `sessions` row of kind 'link', so the
// middleware can accept it only as `?token=` on GET requests and never as the session cookie. Existing rows
// are ordinary sessions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('session'))
    .execute();
  // Logout revokes the user's live link tokens.
  await db.schema.createIndex('sessions_user_kind').on('sessions').columns(['user_id', 'kind']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sessions_user_kind').execute();
  // A link token must not turn into a full session when the column goes away.
  await db.deleteFrom('sessions').where('kind', '=', 'link').execute();
  await db.schema.alterTable('sessions').dropColumn('kind').execute();
}
