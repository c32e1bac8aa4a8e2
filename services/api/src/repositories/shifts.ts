import type { Selectable } from 'kysely';
import type { CompanyClock, ShiftVersion } from '@takt/domain';
import type { ShiftVersionsTable, ShiftsTable, CompanyScope } from '@takt/db';
import { loadCompanyClock } from '@takt/db/rollups';

// Shifts and their versions (reports-admin §3 Shift). SQL only; one mapping function per table.

export interface ShiftRecord {
  id: string;
  name: string;
  createdAt: number;
}

export interface ShiftVersionRecord extends ShiftVersion {
  id: string;
  shiftId: string;
  byweekday: number[];
  terminationdate: string | null;
}

export const toShift = (r: Selectable<ShiftsTable>): ShiftRecord => ({
  id: r.id,
  name: r.name,
  createdAt: r.created_at,
});

export const toShiftVersion = (r: Selectable<ShiftVersionsTable>): ShiftVersionRecord => ({
  id: r.id,
  shiftId: r.shift_id,
  startoffsetminutes: r.startoffsetminutes,
  endoffsetminutes: r.endoffsetminutes,
  // Stored as '0,1,2' (0 = Monday … 6 = Sunday).
  byweekday: r.byweekday === '' ? [] : r.byweekday.split(',').map(Number),
  effectivedate: r.effectivedate,
  terminationdate: r.terminationdate,
});

export async function listShiftsWithVersions(
  scope: CompanyScope,
): Promise<Array<ShiftRecord & { versions: ShiftVersionRecord[] }>> {
  const [shifts, versions] = await Promise.all([
    scope.selectFrom('shifts').selectAll().orderBy('name').orderBy('id').execute(),
    scope.selectFrom('shift_versions').selectAll().orderBy('effectivedate').execute(),
  ]);
  const all = versions.map(toShiftVersion);
  return shifts.map((s) => ({ ...toShift(s), versions: all.filter((v) => v.shiftId === s.id) }));
}

export async function insertShift(
  scope: CompanyScope,
  input: { name: string; createdAt: number },
): Promise<string> {
  const id = crypto.randomUUID();
  await scope.insertInto('shifts', { id, name: input.name, created_at: input.createdAt }).execute();
  return id;
}

export async function insertShiftVersion(
  scope: CompanyScope,
  input: {
    shiftId: string;
    startoffsetminutes: number;
    endoffsetminutes: number;
    byweekday: readonly number[];
    effectivedate: string;
    terminationdate?: string | null;
    createdAt: number;
  },
): Promise<string> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('shift_versions', {
      id,
      shift_id: input.shiftId,
      startoffsetminutes: input.startoffsetminutes,
      endoffsetminutes: input.endoffsetminutes,
      byweekday: [...input.byweekday].sort((a, b) => a - b).join(','),
      effectivedate: input.effectivedate,
      terminationdate: input.terminationdate ?? null,
      created_at: input.createdAt,
    })
    .execute();
  return id;
}

/**
 * The company's calendar basics for the shift calendar. Companies are the tenancy root, so this reads the
 * scope's own company row by id (never another).
 */
export const companyClock = (scope: CompanyScope): Promise<CompanyClock> =>
  loadCompanyClock(scope.db, scope.companyId);

export async function getShiftWithVersions(
  scope: CompanyScope,
  id: string,
): Promise<(ShiftRecord & { versions: ShiftVersionRecord[] }) | undefined> {
  const shift = await scope.selectFrom('shifts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!shift) return undefined;
  const versions = await scope
    .selectFrom('shift_versions')
    .selectAll()
    .where('shift_id', '=', id)
    .orderBy('effectivedate')
    .execute();
  return { ...toShift(shift), versions: versions.map(toShiftVersion) };
}

export async function renameShift(scope: CompanyScope, id: string, name: string): Promise<void> {
  await scope.updateTable('shifts').set({ name }).where('id', '=', id).execute();
}

export async function setShiftVersionTermination(
  scope: CompanyScope,
  versionId: string,
  terminationdate: string | null,
): Promise<void> {
  await scope.updateTable('shift_versions').set({ terminationdate }).where('id', '=', versionId).execute();
}

export async function deleteShiftVersions(scope: CompanyScope, versionIds: readonly string[]): Promise<void> {
  if (versionIds.length === 0) return;
  await scope
    .deleteFrom('shift_versions')
    .where('id', 'in', [...versionIds])
    .execute();
}

/** A shift and its versions (only ever one that has not started yet: see services/shifts.ts). */
export async function deleteShift(scope: CompanyScope, id: string): Promise<void> {
  await scope.deleteFrom('shift_versions').where('shift_id', '=', id).execute();
  await scope.deleteFrom('shifts').where('id', '=', id).execute();
}
