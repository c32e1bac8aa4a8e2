import type { IngestInboxTable } from './schema';
import type { Executor } from './scope';

// The gateway inbox: pushed lines waiting for the ingest worker (their observations go through
// observations.ts, the one writer of that table).

// 6 parameters a row: far below SQLite's 32766 and PostgreSQL's 65535 bind limits.
const CHUNK = 1000;

/** Pushed gateway lines for the ingest worker to derive (their observations are stored with them). */
export async function insertInbox(trx: Executor, rows: readonly IngestInboxTable[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK)
    await trx
      .insertInto('ingest_inbox')
      .values(rows.slice(i, i + CHUNK))
      .execute();
}

/**
 * The oldest waiting pushed lines of the given machines, in arrival order (a push's lines in gateway sequence
 * order). Does not remove them: the worker removes them in the batch that stores what it derived from them,
 * so a crash in between repeats, never loses.
 */
export async function takeInbox(db: Executor, machineIds: readonly string[], limit: number) {
  if (machineIds.length === 0 || limit <= 0) return [];
  return db
    .selectFrom('ingest_inbox')
    .selectAll()
    .where('machine_id', 'in', machineIds)
    .orderBy('received_at')
    .orderBy('seq')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The ids of every line waiting in the inbox for the machine (their observations are stored already). */
export async function inboxIdsOf(db: Executor, companyId: string, machineId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('ingest_inbox')
    .select('id')
    .where('machine_id', '=', machineId)
    .where('company_id', '=', companyId)
    .execute();
  return new Set(rows.map((r) => r.id));
}
