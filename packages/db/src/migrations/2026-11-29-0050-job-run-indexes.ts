import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Decision 1146: every dashboard answer reads the company's open job runs and each unscheduled machine's last
// stopped run. job_runs was indexed by (machine_id, start_at) only, so both reads went through every run the
// machines ever had (and the company's open runs through the whole table): a cost that grew with the history.
// - job_runs_open: the open runs only (a partial index: a few rows per company, whatever the history).
// - job_runs_machine_end: a machine's runs by end, so its last stopped run is one step of the index.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists job_runs_open on job_runs (company_id, machine_id) where end_at is null`.execute(
    db,
  );
  await db.schema
    .createIndex('job_runs_machine_end')
    .ifNotExists()
    .on('job_runs')
    .columns(['machine_id', 'end_at', 'start_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('job_runs_machine_end').ifExists().execute();
  await db.schema.dropIndex('job_runs_open').ifExists().execute();
}
