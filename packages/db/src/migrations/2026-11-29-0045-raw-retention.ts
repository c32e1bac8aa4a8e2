import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Raw retention (issue 30 point 3, decision 1132): raw observations older than TAKT_RAW_RETENTION_DAYS are removed
// in slices by the raw retention worker.
// - raw_floor: one row, `floor_at`: raw observations before it may be gone (set before any is removed); late data
//   before it is refused, not derived.
// - observation_seeds: each machine key's last value before the floor (m, k as in observation_rows), kept when the
//   rows go, so a rebuild for late data after the floor still starts from the signals in force (decision 1025).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('raw_floor')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('floor_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('observation_seeds')
    .addColumn('m', 'integer', (c) => c.notNull())
    .addColumn('k', 'integer', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('value', 'text')
    .addPrimaryKeyConstraint('observation_seeds_pk', ['m', 'k'])
    .execute();
  // Nothing is removed yet: the floor starts at the beginning of time.
  await sql`insert into raw_floor (id, floor_at, updated_at) values (1, 0, 0)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('observation_seeds').execute();
  await db.schema.dropTable('raw_floor').execute();
}
