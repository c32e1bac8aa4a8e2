import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Decision 1193 (issue 30 point 2): the downtime report reads the figures kept with the rollup rows (decision 1188,
// migration 0067), and computes from the states every machine with a row stored without them (null `downtime`).
// Each machine (of its company: rollups are keyed by company, decision 1190) with such a row is marked for
// recomputation from its first one, so that the worker rewrites its rows once with their figures (as 0029 marked
// every machine); a pending mark starting later is moved back there. Machines whose rows all have figures are left.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const first = sql`(SELECT min(r.start_at) FROM rollups r WHERE r.machine_id = rollup_dirty.machine_id
    AND r.company_id = rollup_dirty.company_id AND r.downtime IS NULL)`;
  await sql`UPDATE rollup_dirty SET from_at = ${first} WHERE ${first} < from_at`.execute(db);
  await sql`INSERT INTO rollup_dirty (machine_id, company_id, from_at, marked_at)
    SELECT r.machine_id, r.company_id, min(r.start_at), 0 FROM rollups r
    WHERE r.downtime IS NULL AND NOT EXISTS (SELECT 1 FROM rollup_dirty d
      WHERE d.machine_id = r.machine_id AND d.company_id = r.company_id)
    GROUP BY r.machine_id, r.company_id`.execute(db);
}

/** The marks cannot be told from the others; the worker's recompute of them is harmless. */
export async function down(): Promise<void> {}
