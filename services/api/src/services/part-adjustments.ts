import { z } from 'zod';
import { epochMsSchema, idSchema, noteSchema, rejectBehaviorSchema } from '@takt/domain';
import { historyChanged, historyOfRowChanged } from '@takt/db/rollups';
import type { CompanyScope } from '@takt/db';
import { ApiError, notFound } from '../http/errors';
import type { PartAdjustmentFields } from '../repositories/part-adjustments';
import {
  deletePartAdjustmentRow as deleteRow,
  getPartAdjustment,
  insertPartAdjustment as insertRow,
  jobRunAt,
  latestOfKind,
  updatePartAdjustmentRow as updateRow,
} from '../repositories/part-adjustments';
import type { ServiceCtx } from './context';
import { checkAdjustmentKeepsGoodParts, checkRemovalKeepsGoodParts } from './good-parts';
import type { Issue } from './issues';
import { invalid, machineOr404 } from './issues';
import type { PartAdjustmentView } from './part-adjustment-reads';
import { view } from './part-adjustment-reads';
import type { PartAdjustmentInput } from './part-adjustment-rules';
import { ADJUSTMENT_FAILED, REJECT_FAILED, adjustmentFields } from './part-adjustment-rules';

// Rejects, part corrections and parts added by hand (live-operations §2 Reject Part, §3, §5, §7, §8;
// reports-admin §5 scrap rules). Quality (METRICS.md §3) reads what is stored here: the machine's total
// includes Σ count, and rejected = Σ scrapcount of scrap and non-conforming rejects.
// Service functions never read the clock: ctx.at is when the fact happened, ctx.now the server time.
// This module writes; the rules a row is held to are in part-adjustment-rules.ts, the reads and reject
// figures in part-adjustment-reads.ts. Callers import all of it from here.

export type { PartAdjustmentInput } from './part-adjustment-rules';
export { ADJUSTMENT_FAILED, REJECT_FAILED, endOfToday } from './part-adjustment-rules';
export type { PartAdjustmentView, RejectFilterQuery, RejectsByCategoryRow } from './part-adjustment-reads';
export {
  REJECT_PAGE_SIZE,
  listPartAdjustments,
  rejectList,
  rejectListCsv,
  rejectsByCategory,
  rejectsByCategoryCsv,
} from './part-adjustment-reads';

/**
 * A reject or part correction as the scrap form sends it. Unlike the domain's create schema, `count` may be
 * left out (the server derives it from the scrap count and "remove from good parts", live-operations §5)
 * and the count rules are the server's own, so a failure lists them under "Parts could not be rejected.".
 */
export const partAdjustmentBodySchema = z.object({
  machine_id: idSchema,
  adjustmenttime: epochMsSchema.optional(),
  category_id: idSchema.nullish(),
  scrapcount: z.number({ error: 'Count must be a number' }).optional(),
  count: z.number({ error: 'count must be a number' }).int().optional(),
  message: noteSchema.nullish(),
  scrap: z.boolean(),
  deductFromGoodParts: z.boolean().optional(),
  reject_behavior: rejectBehaviorSchema.nullish(),
});

/** Parts added by hand (live-operations §2 manual part count) and the undo of the last addition. */
export const manualPartsSchema = z.object({ machineId: idSchema, count: z.number().int().min(1).default(1) });
export const manualUndoSchema = z.object({ machineId: idSchema });

// Writes. Parts and rejects feed quality and the parts figures (METRICS.md §3), so every write marks the
// machine's rollups dirty from the earliest time it touches, in the same transaction, and the reports
// recompute them (ARCHITECTURE.md "Ingest contract": the affected rollups are recomputed). The old row is
// read before it changes, so its old time counts too.

async function insertPartAdjustment(
  scope: CompanyScope,
  f: PartAdjustmentFields,
  by: string | null,
  now: number,
): Promise<string> {
  await historyChanged(scope, f.machineId, f.adjustmentTime);
  return insertRow(scope, f, by, now);
}

async function updatePartAdjustmentRow(
  scope: CompanyScope,
  id: string,
  f: Omit<PartAdjustmentFields, 'machineId'>,
): Promise<void> {
  await historyOfRowChanged(scope, 'part_adjustments', id, f.adjustmentTime);
  await updateRow(scope, id, f);
}

async function deletePartAdjustmentRow(scope: CompanyScope, id: string): Promise<void> {
  await historyOfRowChanged(scope, 'part_adjustments', id);
  await deleteRow(scope, id);
}

async function reload(ctx: ServiceCtx, id: string): Promise<PartAdjustmentView> {
  const p = await getPartAdjustment(ctx.scope, id);
  if (!p) throw notFound('Part adjustment');
  return view(p);
}

/**
 * POST /api/partadjustment (sync reject_part with scrap true, part_correction with scrap false): store a
 * reject or a part correction. Failures answer 400 "Parts could not be rejected." (rejects) or
 * "Part adjustment could not be saved." (corrections) with the list of reasons.
 */
export async function createPartAdjustment(
  ctx: ServiceCtx,
  input: PartAdjustmentInput,
): Promise<PartAdjustmentView> {
  const machine = await machineOr404(ctx, input.machine_id);
  const fields = await adjustmentFields(ctx, machine, input, { checkArchived: true });
  // METRICS.md §3: never more parts rejected than made (decision 0997).
  await checkAdjustmentKeepsGoodParts(ctx, fields, null, input.scrap ? REJECT_FAILED : ADJUSTMENT_FAILED);
  const jobRunId = await jobRunAt(ctx.scope, machine.id, fields.adjustmentTime);
  const id = await insertPartAdjustment(ctx.scope, { ...fields, jobRunId }, ctx.caller.user.id, ctx.at);
  return reload(ctx, id);
}

/** PUT /api/partadjustment/:id: edit; the result is checked as a whole with the same rules. */
export async function updatePartAdjustment(
  ctx: ServiceCtx,
  id: string,
  patch: Partial<PartAdjustmentInput>,
): Promise<PartAdjustmentView> {
  const current = await getPartAdjustment(ctx.scope, id);
  if (!current) throw notFound('Part adjustment');
  const machine = await machineOr404(ctx, patch.machine_id ?? current.machine_id);
  const scrap = patch.scrap ?? current.scrap;
  const merged: PartAdjustmentInput = {
    machine_id: machine.id,
    adjustmenttime: patch.adjustmenttime ?? current.adjustmenttime,
    category_id: patch.category_id !== undefined ? patch.category_id : current.category_id,
    scrapcount: patch.scrapcount ?? (scrap ? current.scrapcount : undefined),
    // A reject's count follows its scrap count and checkbox unless the caller sends one.
    count: patch.count ?? (scrap ? undefined : current.count),
    message: patch.message !== undefined ? patch.message : current.message,
    scrap,
    deductFromGoodParts: patch.deductFromGoodParts ?? current.deductFromGoodParts,
    reject_behavior:
      patch.reject_behavior !== undefined
        ? patch.reject_behavior
        : patch.category_id !== undefined && patch.category_id !== current.category_id
          ? null
          : current.reject_behavior,
  };
  const fields = await adjustmentFields(ctx, machine, merged, {
    checkArchived: merged.category_id !== current.category_id,
    kind: current.kind,
  });
  await checkAdjustmentKeepsGoodParts(ctx, fields, current, scrap ? REJECT_FAILED : ADJUSTMENT_FAILED);
  const jobRunId = await jobRunAt(ctx.scope, machine.id, fields.adjustmentTime);
  const { machineId: _m, ...rest } = fields;
  await updatePartAdjustmentRow(ctx.scope, id, { ...rest, jobRunId });
  return reload(ctx, id);
}

/** DELETE /api/partadjustment/:id. */
export async function deletePartAdjustment(
  ctx: ServiceCtx,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const current = await getPartAdjustment(ctx.scope, id);
  if (!current) throw notFound('Part adjustment');
  await checkRemovalKeepsGoodParts(ctx, current, current.scrap ? REJECT_FAILED : ADJUSTMENT_FAILED, 'id');
  await deletePartAdjustmentRow(ctx.scope, id);
  return { id, deleted: true };
}

/**
 * Add Part on a manual work center (sync manual_add_part): `count` parts (the job's multiplier, or 1 for
 * "Add 1 Part") counted at ctx.at.
 */
export async function addManualParts(
  ctx: ServiceCtx,
  input: { machineId: string; count: number },
): Promise<PartAdjustmentView> {
  const machine = await machineOr404(ctx, input.machineId);
  const issues: Issue[] = [];
  if (machine.workcenterType !== 'manual') {
    issues.push({
      field: 'machineId',
      code: 'not_manual',
      message: 'Parts can be added by hand only on manual work centers.',
    });
  }
  if (!Number.isInteger(input.count) || input.count < 1) {
    issues.push({ field: 'count', code: 'too_small', message: 'Count must be at least 1' });
  }
  if (issues.length) throw invalid(ADJUSTMENT_FAILED, issues);
  const jobRunId = await jobRunAt(ctx.scope, machine.id, ctx.at);
  const id = await insertPartAdjustment(
    ctx.scope,
    {
      machineId: machine.id,
      adjustmentTime: ctx.at,
      typeId: null,
      scrapcount: 0,
      count: input.count,
      message: null,
      rejectBehavior: null,
      deductFromGoodParts: false,
      jobRunId,
      kind: 'manual',
    },
    ctx.caller.user.id,
    ctx.at,
  );
  return reload(ctx, id);
}

/** Undo on a manual work center (sync manual_undo): takes back the last parts added by hand. */
export async function undoManualParts(
  ctx: ServiceCtx,
  input: { machineId: string },
): Promise<{ id: string; deleted: true }> {
  await machineOr404(ctx, input.machineId);
  const id = await latestOfKind(ctx.scope, input.machineId, 'manual');
  if (!id) throw new ApiError(409, 'NOTHING_TO_UNDO', 'There are no added parts to undo.');
  const added = await getPartAdjustment(ctx.scope, id);
  if (added) await checkRemovalKeepsGoodParts(ctx, added, ADJUSTMENT_FAILED, 'machineId');
  await deletePartAdjustmentRow(ctx.scope, id);
  return { id, deleted: true };
}
