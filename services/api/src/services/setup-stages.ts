import type { SetupStage } from '@takt/domain';
import { invalidInput } from '../http/errors';
import {
  archiveSetupStagesExcept,
  insertSetupStage,
  listSetupStages,
  setupStagesByIds,
  updateSetupStage,
} from '../repositories/setup-stages';
import type { ServiceCtx } from './context';

// Setup stages: the list and its save (reports-admin §2 "Setup stages: ordered list, drag reorder, archive,
// restore", §5 "percentages total exactly 100", §7 "setup stages (save takes setupStages)").

/** The company's setup stages in order (what the Start Job overlay offers as one button per stage). */
export async function listStages(
  ctx: ServiceCtx,
  opts: { includeArchived?: boolean } = {},
): Promise<SetupStage[]> {
  return listSetupStages(ctx.scope, opts);
}

export interface SetupStageInput {
  id?: string | undefined;
  name: string;
  stageOrder: number;
  setupPercentage: number;
}

/**
 * PUT /api/setup/stages `{ setupStages }`: the list is the company's active stages after the save, in
 * order. Listed stages with an id are updated (an archived one is restored), those without are created,
 * and active stages left out are archived (never deleted: labor activities refer to them).
 */
export async function saveSetupStages(
  ctx: ServiceCtx,
  stages: readonly SetupStageInput[],
): Promise<SetupStage[]> {
  const ids = stages.flatMap((s) => (s.id ? [s.id] : []));
  const known = new Set((await setupStagesByIds(ctx.scope, ids)).map((s) => s.id));
  const issues = stages.flatMap((s, i) => {
    if (!s.id) return [];
    if (!known.has(s.id))
      return [{ field: `setupStages.${i}.id`, code: 'not_found', message: 'Setup stage not found.' }];
    if (ids.indexOf(s.id) !== ids.lastIndexOf(s.id))
      return [{ field: `setupStages.${i}.id`, code: 'duplicate', message: 'A setup stage is listed twice.' }];
    return [];
  });
  if (issues.length > 0) throw invalidInput(issues);

  await archiveSetupStagesExcept(ctx.scope, ids, ctx.now);
  for (const s of stages) {
    const fields = { name: s.name.trim(), stageOrder: s.stageOrder, setupPercentage: s.setupPercentage };
    if (s.id) await updateSetupStage(ctx.scope, s.id, { ...fields, archivedAt: null });
    else await insertSetupStage(ctx.scope, fields);
  }
  return listSetupStages(ctx.scope);
}
