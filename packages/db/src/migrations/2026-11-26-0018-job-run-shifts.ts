import type { Kysely } from 'kysely';

// The schedule form's fields of a job run that had no column (reports-admin §3 Job schedule group:
// "partchangeovertime (ms), shifts"; §2 "Schedule (job runs) timeline … with shifts"; decision 0910).
// - job_runs.part_changeover_ms: the part changeover time in ms; 0 when none (dispatch never sets it).
// - job_run_shifts: the shifts a run is scheduled to run in, one row per (run, shift).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('job_runs')
    .addColumn('part_changeover_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('job_run_shifts')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('job_run_id', 'text', (c) => c.notNull().references('job_runs.id'))
    .addColumn('shift_id', 'text', (c) => c.notNull().references('shifts.id'))
    .addPrimaryKeyConstraint('job_run_shifts_pk', ['job_run_id', 'shift_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_run_shifts').execute();
  await db.schema.alterTable('job_runs').dropColumn('part_changeover_ms').execute();
}
