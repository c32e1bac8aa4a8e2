import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Decision 1022 (issue 27 points 2 and 5): a manycycles run credits parts on every requiredCycles-th cycle of
// the run. Rows computed from a time after a manycycles run started counted its cycles from there, so every
// machine with stored rows and a manycycles run is marked dirty from its first such run's start (an earlier
// mark is kept): the worker rebuilds its hourly, day and week rows with the run's cycles counted from its start.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const first = sql`(SELECT min(j.start_at) FROM job_runs j
    WHERE j.machine_id = rollup_dirty.machine_id AND j.part_behavior = 'manycycles')`;
  await sql`UPDATE rollup_dirty SET from_at = ${first} WHERE ${first} < from_at`.execute(db);
  await sql`INSERT INTO rollup_dirty (machine_id, company_id, from_at, marked_at)
    SELECT machine_id, min(company_id), min(start_at), 0 FROM job_runs
    WHERE part_behavior = 'manycycles'
      AND machine_id IN (SELECT machine_id FROM rollups)
      AND machine_id NOT IN (SELECT machine_id FROM rollup_dirty)
    GROUP BY machine_id`.execute(db);
}

// Nothing to undo: the marks only make the worker recompute.
export async function down(): Promise<void> {}
