import type { Kysely } from 'kysely';

// Reads before the raw floor (decision 1150): the Overrides report charts its fields' raw observations, which raw
// retention (decision 1132) removes. observation_steps keeps, when the rows go, every change of a machine's override
// keys (m, k as in observation_rows), so a report of a range before the floor still shows its steps. Keyed
// (m, k, ts): a retention step done twice keeps one row; the report reads it by machine, key and time.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('observation_steps')
    .addColumn('m', 'integer', (c) => c.notNull())
    .addColumn('k', 'integer', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('value', 'text')
    .addPrimaryKeyConstraint('observation_steps_pk', ['m', 'k', 'ts'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('observation_steps').execute();
}
