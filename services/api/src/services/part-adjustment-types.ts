import type { PartAdjustmentType } from '@takt/domain';
import { notFound } from '../http/errors';
import {
  getPartAdjustmentType,
  insertPartAdjustmentType,
  listPartAdjustmentTypes as listTypeRows,
  updatePartAdjustmentTypeRow,
} from '../repositories/part-adjustment-types';
import type { ServiceCtx } from './context';
import { DEFAULT_REASON_COLOR } from './annotation-types';
import type { Issue } from './issues';
import { invalid } from './issues';

// Reject reasons, stored as part adjustment types (live-operations §3 Part adjustment type, §5, §7, §8).

export const REJECT_REASON_SAVE_FAILED = 'Reject reason could not be saved.';

export interface PartAdjustmentTypeInput {
  name: string;
  color?: string;
  /** Only reasons flagged scrap are offered for rejects. Default true. */
  scrap?: boolean;
  reject_behavior: PartAdjustmentType['reject_behavior'];
}

export function listPartAdjustmentTypes(
  ctx: ServiceCtx,
  q: { scrapOnly?: boolean; includeHidden?: boolean },
): Promise<PartAdjustmentType[]> {
  return listTypeRows(ctx.scope, q);
}

const nameIssues = (name: string | undefined): Issue[] =>
  name !== undefined && name.trim() === ''
    ? [{ field: 'name', code: 'required', message: 'Missing required field: Name' }]
    : [];

export async function createPartAdjustmentType(
  ctx: ServiceCtx,
  input: PartAdjustmentTypeInput,
): Promise<PartAdjustmentType> {
  const issues = nameIssues(input.name);
  if (issues.length) throw invalid(REJECT_REASON_SAVE_FAILED, issues);
  const id = await insertPartAdjustmentType(
    ctx.scope,
    {
      name: input.name.trim(),
      color: input.color ?? DEFAULT_REASON_COLOR,
      scrap: input.scrap ?? true,
      reject_behavior: input.reject_behavior,
    },
    ctx.at,
  );
  return (await getPartAdjustmentType(ctx.scope, id))!;
}

export async function updatePartAdjustmentType(
  ctx: ServiceCtx,
  id: string,
  patch: Partial<PartAdjustmentTypeInput>,
): Promise<PartAdjustmentType> {
  if (!(await getPartAdjustmentType(ctx.scope, id))) throw notFound('Reject reason');
  const issues = nameIssues(patch.name);
  if (issues.length) throw invalid(REJECT_REASON_SAVE_FAILED, issues);
  await updatePartAdjustmentTypeRow(ctx.scope, id, { ...patch, name: patch.name?.trim() });
  return (await getPartAdjustmentType(ctx.scope, id))!;
}

/** Archive (hidden) or restore a reject reason. */
export async function setPartAdjustmentTypeHidden(
  ctx: ServiceCtx,
  id: string,
  hidden: boolean,
): Promise<PartAdjustmentType> {
  if (!(await getPartAdjustmentType(ctx.scope, id))) throw notFound('Reject reason');
  await updatePartAdjustmentTypeRow(ctx.scope, id, { hidden });
  return (await getPartAdjustmentType(ctx.scope, id))!;
}
