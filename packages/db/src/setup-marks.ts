import type { CompiledQuery, Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from './schema';
import type { CompanyScope } from './scope';
import { historyChanged } from './rollups/touch';

// Decision 1025 (issue 27 point 6, late data is the same data): a job run's setup is an input of the state
// intervals (SETUP overrides the machine, METRICS.md §1), which the ingest worker derives. A change to a run at any
// age marks the machine here; the worker that holds the machine re-derives it from the mark, reading the setup
// events from the job runs, so a run entered after its machine data counts as if it had been there all along.

/**
 * Mark a machine's setup changed from `from` on (keeps the earliest mark until a worker re-derives it).
 * `now` only orders marks (the wall clock, not the fact's time).
 */
export async function markSetupChanged(
  db: Kysely<Database>,
  input: { companyId: string; machineId: string; from: number; now: number },
): Promise<void> {
  await db
    .insertInto('setup_dirty')
    .values({
      machine_id: input.machineId,
      company_id: input.companyId,
      from_at: input.from,
      marked_at: input.now,
    })
    .onConflict((oc) =>
      oc.columns(['machine_id', 'company_id']).doUpdateSet({
        from_at: sql<number>`CASE WHEN excluded.from_at < setup_dirty.from_at THEN excluded.from_at ELSE setup_dirty.from_at END`,
        marked_at: sql<number>`excluded.marked_at`,
      }),
    )
    .execute();
}

/**
 * A job run changed from `from` on (entered, edited, set up, ended or deleted): its machine's rollups are stale,
 * and so are its state intervals (setup). Runs in the caller's transaction, so the marks commit with the change.
 */
export async function jobRunChanged(scope: CompanyScope, machineId: string, from: number): Promise<void> {
  await historyChanged(scope, machineId, from);
  await markSetupChanged(scope.db, { companyId: scope.companyId, machineId, from, now: Date.now() });
}

/**
 * The setup marks of these machines (the ones an ingest worker holds), each of its own company: the same machine id
 * under another company is another machine (decision 1190).
 */
export async function setupMarksOf(
  db: Kysely<Database>,
  machines: ReadonlyArray<{ companyId: string; machineId: string }>,
): Promise<Array<{ machine_id: string; company_id: string; from_at: number; marked_at: number }>> {
  if (machines.length === 0) return [];
  const held = new Set(machines.map((m) => `${m.companyId}\u0000${m.machineId}`));
  const ids = [...new Set(machines.map((m) => m.machineId))];
  const out = [];
  for (let i = 0; i < ids.length; i += 500)
    out.push(
      ...(await db
        .selectFrom('setup_dirty')
        .selectAll()
        .where('machine_id', 'in', ids.slice(i, i + 500))
        .execute()),
    );
  return out
    .filter((m) => held.has(`${m.company_id}\u0000${m.machine_id}`))
    .map((m) => ({ ...m, from_at: Number(m.from_at), marked_at: Number(m.marked_at) }));
}

/**
 * A mark taken at `markedAt` was re-derived and stored: cleared, unless it was renewed after it was taken (then the
 * renewal is done next round, from its own earliest time).
 */
export async function clearSetupMark(
  db: Kysely<Database>,
  mark: { companyId: string; machineId: string; markedAt: number },
): Promise<void> {
  await db.executeQuery(clearSetupMarkStatement(db, mark));
}

/** clearSetupMark's statement, built to be run later (an ingest batch's, before its transaction: decision 1177). */
export function clearSetupMarkStatement(
  db: Kysely<Database>,
  mark: { companyId: string; machineId: string; markedAt: number },
): CompiledQuery {
  return db
    .deleteFrom('setup_dirty')
    .where('machine_id', '=', mark.machineId)
    .where('company_id', '=', mark.companyId)
    .where('marked_at', '<=', mark.markedAt)
    .compile();
}
