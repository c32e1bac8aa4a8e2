import type { Insertable } from 'kysely';
import type { CompanyScope, SyncCommandsTable } from '@takt/db';

// The offline sync's command log (ARCHITECTURE.md "Offline sync contract"): one row per command id and
// company (migration 0009), holding the first answer so a redelivery gets it again.

export type SyncCommandRow = Omit<Insertable<SyncCommandsTable>, 'company_id'>;

export async function findSyncCommand(
  scope: CompanyScope,
  id: string,
): Promise<{ status: string; result: string | null } | undefined> {
  return scope
    .selectFrom('sync_commands')
    .select(['status', 'result'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Mutates: logs a command with its status (the scope sets company_id). */
export async function insertSyncCommand(scope: CompanyScope, row: SyncCommandRow): Promise<void> {
  await scope.insertInto('sync_commands', row).execute();
}

/** Mutates: the logged result of an applied command. */
export async function setSyncCommandResult(
  scope: CompanyScope,
  id: string,
  result: string | null,
): Promise<void> {
  await scope.updateTable('sync_commands').set({ result }).where('id', '=', id).execute();
}
