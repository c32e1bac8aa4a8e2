// Period edits on annotations: split in half, merge with the next, reset, and "Split Downtime" in the
// underlay (live-operations §4, §9).
import { canMergeInto, splitInHalf } from '@takt/domain';
import type { Annotation } from '@takt/domain';
import { ApiError, notFound } from '../http/errors';
import { findAnnotationAt, getAnnotation, nextAnnotation } from '../repositories/annotations';
import type { ServiceCtx } from './context';
import { invalid, machineOr404 } from './issues';
import { downtimePieces } from './downtime';
import type { ChangedAnnotation } from './annotation-rules';
import { ANNOTATION_SAVE_FAILED, duplicateStart } from './annotation-rules';
import {
  deleteAnnotationRow,
  insertAnnotation,
  reload,
  settlePlanned,
  updateAnnotationRow,
} from './annotation-store';

/** The end an annotation has now: its explicit end, else the end of the piece it covers, else ctx.now. */
async function effectiveEnd(ctx: ServiceCtx, a: Annotation): Promise<number> {
  if (a.end !== null) return a.end;
  const pieces = await downtimePieces(ctx, a.machineId, a.start, a.start + 1);
  const piece = pieces.find((p) => p.annotation?.id === a.id);
  return piece?.end ?? ctx.now;
}

/**
 * POST /api/annotations/:id/split: split in half, only when half the duration exceeds 10 s
 * (live-operations §4, §9). The first half keeps the id and ends at the middle; the second starts there,
 * with the same reason and message, and keeps the original end (none if there was none).
 */
export async function splitAnnotation(
  ctx: ServiceCtx,
  id: string,
): Promise<{ annotations: ChangedAnnotation[] }> {
  const a = await getAnnotation(ctx.scope, id);
  if (!a) throw notFound('Annotation');
  const halves = splitInHalf(a.start, await effectiveEnd(ctx, a));
  if (!halves) {
    throw invalid(ANNOTATION_SAVE_FAILED, [
      {
        field: 'id',
        code: 'too_short',
        message: 'An annotation can be split only when half of it is longer than 10 seconds.',
      },
    ]);
  }
  const [first, second] = halves;
  if (await findAnnotationAt(ctx.scope, a.machineId, second.start)) throw duplicateStart();
  await updateAnnotationRow(ctx.scope, a.id, { end: first.end }, ctx.at);
  const secondId = await insertAnnotation(
    ctx.scope,
    {
      machineId: a.machineId,
      typeId: a.category_id,
      start: second.start,
      end: a.end,
      message: a.message,
      planned: a.planned,
      setup: a.setup,
    },
    ctx.caller.user.id,
    ctx.at,
  );
  await settlePlanned(ctx, [a.id, secondId]);
  return {
    annotations: [
      { ...(await reload(ctx, a.id)), deleted: false },
      { ...(await reload(ctx, secondId)), deleted: false },
    ],
  };
}

/**
 * POST /api/annotations/:id/merge: merge with the next annotation of the machine, which is deleted; the
 * merged one takes its end. A setup annotation cannot be merged into (live-operations §4).
 */
export async function mergeAnnotation(
  ctx: ServiceCtx,
  id: string,
): Promise<{ annotations: ChangedAnnotation[] }> {
  const a = await getAnnotation(ctx.scope, id);
  if (!a) throw notFound('Annotation');
  const next = await nextAnnotation(ctx.scope, a.machineId, a.start);
  if (!next) {
    throw invalid(ANNOTATION_SAVE_FAILED, [
      { field: 'id', code: 'no_next', message: 'There is no next annotation to merge with.' },
    ]);
  }
  if (!canMergeInto(next)) {
    throw invalid(ANNOTATION_SAVE_FAILED, [
      { field: 'id', code: 'setup', message: 'A setup annotation cannot be merged into.' },
    ]);
  }
  await deleteAnnotationRow(ctx.scope, next.id);
  await updateAnnotationRow(ctx.scope, a.id, { end: next.end }, ctx.at);
  await settlePlanned(ctx, [a.id]);
  return {
    annotations: [
      { ...(await reload(ctx, a.id)), deleted: false },
      { ...next, deleted: true },
    ],
  };
}

/** DELETE /api/annotations/:id: reset (the period goes back to uncategorized). */
export async function resetAnnotation(
  ctx: ServiceCtx,
  id: string,
): Promise<{ annotations: ChangedAnnotation[] }> {
  const a = await getAnnotation(ctx.scope, id);
  if (!a) throw notFound('Annotation');
  await deleteAnnotationRow(ctx.scope, a.id);
  return { annotations: [{ ...a, deleted: true }] };
}

/**
 * POST /api/downtime/split (and sync split_downtime): "Split Downtime" in the underlay ends the downtime
 * piece going on at ctx.at there, so a new, uncategorized period starts from ctx.at (live-operations §4).
 * A categorized piece gets its annotation ended at ctx.at; an uncategorized one gets a split marker (an
 * annotation without a reason) over [its start, ctx.at].
 */
export async function splitDowntime(
  ctx: ServiceCtx,
  input: { machineId: string },
): Promise<{ ended: Annotation; start: number }> {
  await machineOr404(ctx, input.machineId);
  const [piece] = await downtimePieces(ctx, input.machineId, ctx.at, ctx.at + 1);
  if (!piece || piece.setup || piece.start >= ctx.at) {
    throw new ApiError(409, 'NO_DOWNTIME', 'There is no downtime to split at this time.');
  }
  let endedId: string;
  if (piece.annotation) {
    endedId = piece.annotation.id;
    await updateAnnotationRow(ctx.scope, endedId, { end: ctx.at }, ctx.at);
  } else {
    endedId = await insertAnnotation(
      ctx.scope,
      {
        machineId: input.machineId,
        typeId: null,
        start: piece.start,
        end: ctx.at,
        message: null,
        planned: null,
        setup: false,
      },
      ctx.caller.user.id,
      ctx.at,
    );
  }
  await settlePlanned(ctx, [endedId]);
  return { ended: await reload(ctx, endedId), start: ctx.at };
}
