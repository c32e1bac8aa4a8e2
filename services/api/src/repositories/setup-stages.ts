import type { Selectable } from 'kysely';
import type { SetupStage } from '@takt/domain';
import type { SetupStagesTable, CompanyScope } from '@takt/db';

// Setup stages (live-operations §3 Setup stage). SQL only; one mapping function.

export const toSetupStage = (r: Selectable<SetupStagesTable>): SetupStage => ({
  id: r.id,
  name: r.name,
  stageOrder: r.stage_order,
  setupPercentage: r.setup_percentage,
  archivedAt: r.archived_at,
});

export async function listSetupStages(
  scope: CompanyScope,
  opts: { includeArchived?: boolean } = {},
): Promise<SetupStage[]> {
  let q = scope.selectFrom('setup_stages').selectAll();
  if (!opts.includeArchived) q = q.where('archived_at', 'is', null);
  const rows = await q.orderBy('stage_order').orderBy('name').execute();
  return rows.map(toSetupStage);
}

export async function getSetupStage(scope: CompanyScope, id: string): Promise<SetupStage | undefined> {
  const row = await scope.selectFrom('setup_stages').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toSetupStage(row);
}

export async function setupStagesByIds(scope: CompanyScope, ids: readonly string[]): Promise<SetupStage[]> {
  if (ids.length === 0) return [];
  const rows = await scope
    .selectFrom('setup_stages')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
  return rows.map(toSetupStage);
}

export async function insertSetupStage(
  scope: CompanyScope,
  input: { name: string; stageOrder: number; setupPercentage: number; archivedAt?: number | null },
): Promise<string> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('setup_stages', {
      id,
      name: input.name,
      stage_order: input.stageOrder,
      setup_percentage: input.setupPercentage,
      archived_at: input.archivedAt ?? null,
    })
    .execute();
  return id;
}

export async function updateSetupStage(
  scope: CompanyScope,
  id: string,
  input: { name: string; stageOrder: number; setupPercentage: number; archivedAt: number | null },
): Promise<void> {
  await scope
    .updateTable('setup_stages')
    .set({
      name: input.name,
      stage_order: input.stageOrder,
      setup_percentage: input.setupPercentage,
      archived_at: input.archivedAt,
    })
    .where('id', '=', id)
    .execute();
}

/** Archive the company's active stages that are not in `keep`. */
export async function archiveSetupStagesExcept(
  scope: CompanyScope,
  keep: readonly string[],
  at: number,
): Promise<void> {
  let q = scope.updateTable('setup_stages').set({ archived_at: at }).where('archived_at', 'is', null);
  if (keep.length > 0) q = q.where('id', 'not in', [...keep]);
  await q.execute();
}
