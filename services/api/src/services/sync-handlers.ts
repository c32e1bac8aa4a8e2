import { laterWriteWins } from '@takt/domain';
import { ApiError } from '../http/errors';
import { annotationWrittenAt } from '../repositories/annotations';
import { annotationSaveSchema, saveAnnotation, splitDowntime, updateAnnotation } from './annotations';
import { liveSyncHandlers } from './live-sync';
import {
  addManualParts,
  createPartAdjustment,
  manualPartsSchema,
  manualUndoSchema,
  partAdjustmentBodySchema,
  undoManualParts,
} from './part-adjustments';
import { machineCommand, payloadOf, sameMachine } from './sync';
import type { SyncHandlers } from './sync';

// Every operator action the floor app can queue offline, mapped to the service behind its HTTP call
// (ARCHITECTURE.md "Offline sync contract"). Each payload is that call's body, validated by its schema.

/** Shown when a categorization made offline lost to a later one from another tablet. */
export const CATEGORIZED_ELSEWHERE =
  'This downtime was categorized on another tablet after this change; that reason was kept.';

/** The command type says whether it is a reject or a correction, so the payload needs no `scrap` flag. */
const adjustmentPayload = partAdjustmentBodySchema.omit({ scrap: true });

export const syncHandlers: SyncHandlers = {
  ...liveSyncHandlers,
  /**
   * Two tablets categorizing the same period offline both send an annotation with the same start. The
   * conflict rule (decision 0008): the categorization that happened later (occurredAt) wins, whichever
   * arrives first; at the same millisecond the one already stored stays. The loser is answered
   * CATEGORIZED_ELSEWHERE, so its tablet shows which reason was kept instead of dropping the change silently.
   */
  categorize_downtime: async (ctx, command) => {
    const body = payloadOf(command, annotationSaveSchema);
    sameMachine(command, body.machineId);
    try {
      return await saveAnnotation(ctx, body);
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'DUPLICATE_ANNOTATION_START') throw err;
      const existing = await annotationWrittenAt(ctx.scope, body.machineId, body.start);
      if (!existing) throw err;
      // updatedAt is the occurredAt of the write that set the stored reason.
      if (!laterWriteWins({ occurredAt: existing.updatedAt }, { occurredAt: ctx.at }))
        throw new ApiError(409, 'CATEGORIZED_ELSEWHERE', CATEGORIZED_ELSEWHERE);
      const { id: _id, ...patch } = body;
      return updateAnnotation(ctx, existing.id, patch);
    }
  },
  split_downtime: async (ctx, command) => splitDowntime(ctx, { machineId: command.machineId }),
  reject_part: machineCommand(
    adjustmentPayload,
    (b) => b.machine_id,
    (ctx, body) => createPartAdjustment(ctx, { ...body, scrap: true }),
  ),
  part_correction: machineCommand(
    adjustmentPayload,
    (b) => b.machine_id,
    (ctx, body) => createPartAdjustment(ctx, { ...body, scrap: false }),
  ),
  manual_add_part: machineCommand(manualPartsSchema, (b) => b.machineId, addManualParts),
  manual_undo: machineCommand(manualUndoSchema, (b) => b.machineId, undoManualParts),
};
