import type { Kysely } from 'kysely';

// Decision 1188 (issue 30 point 2): the downtime report's figures kept with the rollup rows. Each hourly, day and week
// row gets `downtime`: by reason, the report's downtime ms (planned and not) and the periods beginning in the row, and
// the period in progress at the start of each run of its time (packages/domain rollup/downtime-figures.ts, stored by
// encodeDowntimeFigures). Null: the row was stored before, without them; the recompute fills them as it rewrites rows.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['rollups', 'rollup_days', 'rollup_weeks'])
    await db.schema.alterTable(table).addColumn('downtime', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['rollup_weeks', 'rollup_days', 'rollups'])
    await db.schema.alterTable(table).dropColumn('downtime').execute();
}
