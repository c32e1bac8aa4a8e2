import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { markDirtyFromFirstRow } from './2026-11-25-0011-rollup-days';

// Issue 27 point 4 (decision 1002): run time with no standard is left out of both sides of Performance, so the
// stored sums keep `standard_run_ms`, the ACTIVE time of runs with an ideal cycle time (P's denominator).
// Rows already stored get an estimate (their ACTIVE time when they hold ideal time, else 0; the hourly rows'
// JSON is read the same way) and every machine with rows is marked dirty, so the worker rewrites them exactly.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['rollup_days', 'rollup_weeks']) {
    await db.schema
      .alterTable(table)
      .addColumn('standard_run_ms', 'double precision', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`UPDATE ${sql.table(table)} SET standard_run_ms = CASE WHEN ideal_ms > 0 THEN active_ms ELSE 0 END`.execute(
      db,
    );
  }
  await markDirtyFromFirstRow(db, 'rollups');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['rollup_weeks', 'rollup_days'])
    await db.schema.alterTable(table).dropColumn('standard_run_ms').execute();
}
