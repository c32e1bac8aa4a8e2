import type { CompanyScope } from '@takt/db';

// Which machine a record belongs to, for holding a bound tablet to its machine (auth/tablet-binding.ts,
// decision 0500) and for announcing a write on the right machines' live channels.

/** Tables whose every row belongs to one machine (machine_id). */
const MACHINE_RECORD_TABLES = [
  'part_adjustments',
  'annotations',
  'job_runs',
  'job_machines',
  'operator_runs',
] as const;

/** Of `ids`, those that are machines of the company. */
export async function existingMachineIds(scope: CompanyScope, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await scope.selectFrom('machines').select('id').where('id', 'in', ids).execute();
  return rows.map((r) => r.id);
}

/** Whether any of the ids is a record of a machine other than `machineId` (one query per record table). */
export async function anyRecordOfOtherMachine(
  scope: CompanyScope,
  ids: readonly string[],
  machineId: string,
): Promise<boolean> {
  if (ids.length === 0) return false;
  const hits = await Promise.all(
    MACHINE_RECORD_TABLES.map((table) =>
      scope
        .selectFrom(table)
        .select('machine_id')
        .where('id', 'in', ids)
        .where('machine_id', '!=', machineId)
        .limit(1)
        .executeTakeFirst(),
    ),
  );
  return hits.some((h) => h !== undefined);
}

/** The machines the records with these ids belong to. */
export async function machinesOfRecords(scope: CompanyScope, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await Promise.all(
    MACHINE_RECORD_TABLES.map((table) =>
      scope.selectFrom(table).select('machine_id').where('id', 'in', ids).execute(),
    ),
  );
  return rows.flat().map((r) => r.machine_id);
}
