import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { dbNowMs } from '../leases';
import type { Database } from '../schema';

/** How long a claimed dirty mark is left to its worker before another may take it (a worker that died). */
export const ROLLUP_CLAIM_MS = 120_000;

/**
 * PostgreSQL with several ingest nodes (decision 0970): take up to `limit` dirty marks no other worker holds,
 * oldest first. Marks another worker is claiming right now are skipped (SKIP LOCKED), so each mark is
 * recomputed by one worker; a claim lapses after ROLLUP_CLAIM_MS.
 */
export async function claimDirty(db: Kysely<Database>, limit: number) {
  const { rows } = await sql<{ machine_id: string; company_id: string; from_at: number; marked_at: number }>`
    update rollup_dirty set claimed_until = ${dbNowMs} + ${ROLLUP_CLAIM_MS}
    where (machine_id, company_id) in (
      select machine_id, company_id from rollup_dirty
      where claimed_until is null or claimed_until <= ${dbNowMs}
      order by marked_at
      limit ${limit}
      for update skip locked)
    returning machine_id, company_id, from_at, marked_at`.execute(db);
  return rows
    .map((r) => ({ ...r, from_at: Number(r.from_at), marked_at: Number(r.marked_at) }))
    .sort((a, b) => a.marked_at - b.marked_at);
}

/**
 * Done with a claimed mark: clear it unless it was renewed after it was taken, and free a renewed one for the
 * next run (of any worker).
 */
export async function unclaimDirty(
  db: Kysely<Database>,
  mark: { company_id: string; machine_id: string },
  markedAt: number | null,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (markedAt != null)
      await trx
        .deleteFrom('rollup_dirty')
        .where('machine_id', '=', mark.machine_id)
        .where('company_id', '=', mark.company_id)
        .where('marked_at', '<=', markedAt)
        .execute();
    await trx
      .updateTable('rollup_dirty')
      .set({ claimed_until: null })
      .where('machine_id', '=', mark.machine_id)
      .where('company_id', '=', mark.company_id)
      .execute();
  });
}
