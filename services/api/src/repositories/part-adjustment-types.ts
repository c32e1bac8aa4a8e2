import type { Selectable } from 'kysely';
import type { PartAdjustmentType } from '@takt/domain';
import type { PartAdjustmentTypesTable, CompanyScope } from '@takt/db';

// Reject reasons (live-operations §3 "Part adjustment type"). SQL only; one row→domain mapping.

export const toPartAdjustmentType = (r: Selectable<PartAdjustmentTypesTable>): PartAdjustmentType => ({
  id: r.id,
  name: r.name,
  company_id: r.company_id,
  color: r.color,
  scrap: r.scrap === 1,
  reject_behavior: r.reject_behavior,
  hidden: r.hidden === 1,
});

export async function listPartAdjustmentTypes(
  scope: CompanyScope,
  opts: { includeHidden?: boolean; scrapOnly?: boolean } = {},
): Promise<PartAdjustmentType[]> {
  let q = scope.selectFrom('part_adjustment_types').selectAll();
  if (!opts.includeHidden) q = q.where('hidden', '=', 0);
  if (opts.scrapOnly) q = q.where('scrap', '=', 1);
  const rows = await q.orderBy('name').orderBy('id').execute();
  return rows.map(toPartAdjustmentType);
}

export async function getPartAdjustmentType(
  scope: CompanyScope,
  id: string,
): Promise<PartAdjustmentType | undefined> {
  const row = await scope
    .selectFrom('part_adjustment_types')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toPartAdjustmentType(row);
}

export interface PartAdjustmentTypeFields {
  name: string;
  color: string;
  scrap: boolean;
  reject_behavior: PartAdjustmentType['reject_behavior'];
}

export async function insertPartAdjustmentType(
  scope: CompanyScope,
  fields: PartAdjustmentTypeFields,
  now: number,
): Promise<string> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('part_adjustment_types', {
      id,
      name: fields.name,
      color: fields.color,
      scrap: fields.scrap ? 1 : 0,
      reject_behavior: fields.reject_behavior,
      hidden: 0,
      created_at: now,
    })
    .execute();
  return id;
}

export async function updatePartAdjustmentTypeRow(
  scope: CompanyScope,
  id: string,
  fields: Partial<PartAdjustmentTypeFields> & { hidden?: boolean },
): Promise<void> {
  const changes = {
    ...(fields.name !== undefined ? { name: fields.name } : {}),
    ...(fields.color !== undefined ? { color: fields.color } : {}),
    ...(fields.scrap !== undefined ? { scrap: fields.scrap ? 1 : 0 } : {}),
    ...(fields.reject_behavior !== undefined ? { reject_behavior: fields.reject_behavior } : {}),
    ...(fields.hidden !== undefined ? { hidden: fields.hidden ? 1 : 0 } : {}),
  };
  // An empty patch changes nothing; `UPDATE … SET` with no columns is a syntax error on both dialects.
  if (Object.keys(changes).length === 0) return;
  await scope.updateTable('part_adjustment_types').set(changes).where('id', '=', id).execute();
}
