import type { Kysely } from 'kysely';

// ARCHITECTURE.md offline sync: a command id is made by the client, so it is unique within a company only.
// The key of sync_commands becomes (company_id, id): the same id sent by two companies is two commands, and
// a clash no longer fails the insert (an INTERNAL error never remembered, retried by the outbox forever) nor
// tells one company that another used the id. SQLite cannot change a primary key in place, so the table is
// rebuilt on both dialects alike: create the new table, copy, drop the old one, rename. The old table had no
// index besides its primary key.

const COLUMNS = [
  'id',
  'company_id',
  'machine_id',
  'type',
  'occurred_at',
  'received_at',
  'status',
  'result',
  'caller',
] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function rebuild(db: Kysely<any>, key: 'company' | 'global'): Promise<void> {
  await db.schema
    .createTable('sync_commands_next')
    .addColumn('id', 'text', (c) => (key === 'global' ? c.notNull().primaryKey() : c.notNull()))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('machine_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('caller', 'text')
    .$call((t) =>
      key === 'company' ? t.addPrimaryKeyConstraint('sync_commands_company_key', ['company_id', 'id']) : t,
    )
    .execute();
  await db
    .insertInto('sync_commands_next')
    .columns([...COLUMNS])
    .expression(db.selectFrom('sync_commands').select([...COLUMNS]))
    .execute();
  await db.schema.dropTable('sync_commands').execute();
  await db.schema.alterTable('sync_commands_next').renameTo('sync_commands').execute();
}

/**
 * The rebuild in one transaction: the migrator already opens one on PostgreSQL, not on SQLite (where DDL is
 * transactional too), and a failure between the drop and the rename must not lose the table.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function atOnce(db: Kysely<any>, work: (tx: Kysely<any>) => Promise<void>): Promise<void> {
  if (db.isTransaction) await work(db);
  else await db.transaction().execute(work);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await atOnce(db, (tx) => rebuild(tx, 'company'));
}

/** Back to a global key: fails (and changes nothing) if two companies already share a command id. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await atOnce(db, (tx) => rebuild(tx, 'global'));
}
