import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../schema';
import { writeWeekPacks } from '../rollups/week-packs';

// Decision 1235 (issue 30 point 2): each machine's week rows and their in-shift downtime by reason stored packed, one
// row a machine and span of 2^33 ms of week starts (~99 days), so a cold week index reads a few blobs a machine
// instead of every week row written out as JSON text. The week rows' writer (rollups/days.ts writeRollupWeeks)
// writes the packs of the weeks it wrote in its transaction; this migration packs the week rows already stored. On
// PostgreSQL the pack is compressed with lz4 (faster to read back than pglz).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('rollup_week_packs')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    .addColumn('span_start', 'bigint', (c) => c.notNull())
    .addColumn('pack', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('rollup_week_packs_pk', ['company_id', 'machine_id', 'span_start'])
    .execute();
  if (postgres) await sql`alter table rollup_week_packs alter column pack set compression lz4`.execute(db);
  const machines = await db
    .selectFrom('rollup_weeks')
    .select((eb) => [
      'company_id',
      'machine_id',
      eb.fn.min('start_at').as('first'),
      eb.fn.max('start_at').as('last'),
    ])
    .groupBy(['company_id', 'machine_id'])
    .execute();
  for (const m of machines)
    await writeWeekPacks(
      db as Kysely<Database>,
      { companyId: m.company_id as string, machineId: m.machine_id as string },
      { start: Number(m.first), end: Number(m.last) + 1 },
    );
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('rollup_week_packs').execute();
}
