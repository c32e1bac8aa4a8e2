import { z } from 'zod';
import { annotationInputSchema, epochMsSchema, idSchema } from '@takt/domain';
import { checkRange, epochMs, multiSelection, SETUP_REASON_NAME } from '@takt/domain';
import type { Annotation } from '@takt/domain';
import { notFound } from '../http/errors';
import {
  findAnnotationAt,
  getAnnotation,
  listAnnotations,
  listAnnotationsStartingIn,
} from '../repositories/annotations';
import { companyClock } from '../repositories/shifts';
import type { ServiceCtx } from './context';
import { invalid, machineOr404 } from './issues';
import { downtimePieces } from './downtime';
import type { AnnotationInput, ChangedAnnotation, Resolved } from './annotation-rules';
import {
  ANNOTATION_SAVE_FAILED,
  annotationIssues,
  duplicateStart,
  isMarker,
  resolveInput,
} from './annotation-rules';
import {
  deleteAnnotationRow,
  insertAnnotation,
  reload,
  settlePlanned,
  updateAnnotationRow,
} from './annotation-store';

// Annotations: the categorization of downtime (live-operations §4 downtime, planned value and categorize
// form, split and merge, §5, §7, §8). Service functions never read the clock: ctx.at is when the fact
// happened, ctx.now the server time.
// This module saves annotations (one, several, a window); the rules are in annotation-rules.ts, the writes
// in annotation-store.ts, split, merge and reset in annotation-splits.ts. Callers import all of it from here.

export type { AnnotationInput, ChangedAnnotation } from './annotation-rules';
export { ANNOTATION_SAVE_FAILED } from './annotation-rules';
export { mergeAnnotation, resetAnnotation, splitAnnotation, splitDowntime } from './annotation-splits';

/**
 * The domain's annotation input, loosened where live-operations §5 wants the server's own message:
 * a missing reason is "Select a downtime reason." (not a type error), `end` may be left out (null: not
 * explicitly set), and `activesetup` is accepted so it can be refused.
 */
export const annotationBodySchema = annotationInputSchema.extend({
  end: epochMsSchema.nullish().transform((v) => v ?? null),
  category_id: idSchema.nullish().transform((v) => v ?? null),
  activesetup: z.boolean().optional(),
});
export const annotationSaveSchema = annotationBodySchema.extend({ id: idSchema.optional() });
/** Create one annotation, or categorize the split marker that starts at the same instant. */
async function createOne(ctx: ServiceCtx, r: Resolved): Promise<string> {
  const existing = await findAnnotationAt(ctx.scope, r.fields.machineId, r.fields.start);
  if (existing) {
    if (!isMarker(existing)) throw duplicateStart();
    await updateAnnotationRow(
      ctx.scope,
      existing.id,
      { ...r.fields, end: r.fields.end ?? existing.end },
      ctx.at,
    );
    return existing.id;
  }
  return insertAnnotation(ctx.scope, r.fields, ctx.caller.user.id, ctx.at);
}

/**
 * POST /api/annotations (and sync categorize_downtime): save one annotation. With `id` it updates that
 * annotation; otherwise it creates one. Another annotation at the same machine and start answers 409
 * DUPLICATE_ANNOTATION_START "Annotation could not be saved" (live-operations §8).
 */
export async function saveAnnotation(
  ctx: ServiceCtx,
  input: AnnotationInput & { id?: string },
): Promise<Annotation> {
  if (input.id) return updateAnnotation(ctx, input.id, input);
  const issues = annotationIssues(input);
  if (issues.length) throw invalid(ANNOTATION_SAVE_FAILED, issues);
  const resolved = await resolveInput(ctx, input);
  const id = await createOne(ctx, resolved);
  await settlePlanned(ctx, [id]);
  return reload(ctx, id);
}

/**
 * POST /api/annotations/bulk: categorize several periods with one reason ("Categorize Multiple", shown as
 * "Multiple" when more than one). At least one period; a period that is already categorized cannot be
 * selected (live-operations §4, §5).
 */
export async function createAnnotations(
  ctx: ServiceCtx,
  input: { annotations: AnnotationInput[] },
): Promise<{ annotations: Annotation[]; label: string }> {
  const list = input.annotations;
  if (list.length === 0) {
    throw invalid(ANNOTATION_SAVE_FAILED, [
      { field: 'annotations', code: 'too_small', message: 'Select at least one downtime period.' },
    ]);
  }
  const issues = list.flatMap((a, i) => annotationIssues(a, `annotations.${i}.`));
  if (issues.length) throw invalid(ANNOTATION_SAVE_FAILED, issues);
  const seen = new Set<string>();
  for (const a of list) {
    const key = `${a.machineId}@${a.start}`;
    if (seen.has(key)) throw duplicateStart();
    seen.add(key);
  }
  const resolved = await Promise.all(list.map((a, i) => resolveInput(ctx, a, `annotations.${i}.`)));
  // Every selected period must be uncategorized; a period whose annotation starts at the same instant is a
  // duplicate (409, the client reloads), one inside a categorized period is refused outright.
  const selected: { reason: string | null }[] = [];
  for (const [i, a] of list.entries()) {
    const existing = await findAnnotationAt(ctx.scope, a.machineId, a.start);
    if (existing && !isMarker(existing)) throw duplicateStart();
    const [piece] = await downtimePieces(ctx, a.machineId, a.start, a.start + 1);
    const categorized = !!piece && !!piece.annotation && !isMarker(piece.annotation);
    if (categorized) {
      throw invalid(ANNOTATION_SAVE_FAILED, [
        {
          field: `annotations.${i}.start`,
          code: 'categorized',
          message: 'Categorized periods cannot be selected.',
        },
      ]);
    }
    selected.push({ reason: null });
  }
  const selection = multiSelection(
    selected.map((s, i) => ({ start: list[i]!.start, end: null, reason: s.reason })),
  );
  const ids: string[] = [];
  for (const r of resolved) ids.push(await createOne(ctx, r));
  await settlePlanned(ctx, ids);
  const annotations = await Promise.all(ids.map((id) => reload(ctx, id)));
  const single = resolved[0]!.type?.name ?? SETUP_REASON_NAME;
  return { annotations, label: selection.ok && list.length > 1 ? selection.label : single };
}

/** PUT /api/annotations/:id: change an annotation; the result is checked as a whole (live-operations §5). */
export async function updateAnnotation(
  ctx: ServiceCtx,
  id: string,
  patch: Partial<AnnotationInput>,
): Promise<Annotation> {
  const current = await getAnnotation(ctx.scope, id);
  if (!current) throw notFound('Annotation');
  if (patch.machineId !== undefined && patch.machineId !== current.machineId) {
    throw invalid(ANNOTATION_SAVE_FAILED, [
      { field: 'machineId', code: 'immutable', message: 'An annotation cannot move to another machine.' },
    ]);
  }
  const merged: AnnotationInput = {
    machineId: current.machineId,
    start: patch.start ?? current.start,
    end: patch.end !== undefined ? patch.end : current.end,
    category_id: patch.category_id !== undefined ? patch.category_id : current.category_id,
    message: patch.message !== undefined ? patch.message : current.message,
    planned: patch.planned !== undefined ? patch.planned : current.planned,
    setup: patch.setup ?? current.setup,
    activesetup: patch.activesetup ?? current.activesetup,
  };
  const issues = annotationIssues(merged);
  if (issues.length) throw invalid(ANNOTATION_SAVE_FAILED, issues);
  const r = await resolveInput(ctx, merged);
  if (merged.start !== current.start) {
    const clash = await findAnnotationAt(ctx.scope, merged.machineId, merged.start);
    if (clash && clash.id !== id) throw duplicateStart();
  }
  const { machineId: _machineId, ...fields } = r.fields;
  await updateAnnotationRow(ctx.scope, id, fields, ctx.at);
  await settlePlanned(ctx, [id]);
  return reload(ctx, id);
}

/**
 * POST /api/annotations/setRange: the categorize form saves its window. Per machine, the annotations that
 * start inside the window are replaced by the ones sent (matched by start): new ones are created, changed
 * ones updated, missing ones deleted. Answers only what changed, each with a `deleted` flag (live-operations §7).
 * Active setup annotations belong to the setup flow and are left alone.
 */
export async function setAnnotationRange(
  ctx: ServiceCtx,
  input: { annotations: AnnotationInput[]; start?: number; end?: number },
): Promise<{ annotations: ChangedAnnotation[] }> {
  const issues = input.annotations.flatMap((a, i) => annotationIssues(a, `annotations.${i}.`));
  if (input.start !== undefined && input.end !== undefined && input.end < input.start) {
    issues.push({ field: 'end', code: 'range', message: 'Start Date must be before End Date' });
  }
  if (issues.length) throw invalid(ANNOTATION_SAVE_FAILED, issues);
  const all = await Promise.all(input.annotations.map((a, i) => resolveInput(ctx, a, `annotations.${i}.`)));
  const byMachine = new Map<string, Resolved[]>();
  for (const r of all) byMachine.set(r.fields.machineId, [...(byMachine.get(r.fields.machineId) ?? []), r]);
  const changed: ChangedAnnotation[] = [];
  for (const [machineId, resolved] of byMachine) {
    const list = resolved.map((r) => r.fields);
    const starts = new Set<number>();
    for (const a of list) {
      if (starts.has(a.start)) throw duplicateStart();
      starts.add(a.start);
    }
    const from = input.start ?? Math.min(...list.map((a) => a.start));
    const to = input.end ?? Math.max(...list.map((a) => a.end ?? a.start));
    const existing = (await listAnnotationsStartingIn(ctx.scope, machineId, from, to)).filter(
      (a) => !a.activesetup,
    );
    const touched: string[] = [];
    for (const r of resolved) {
      const match = existing.find((e) => e.start === r.fields.start);
      if (!match) {
        const clash = await findAnnotationAt(ctx.scope, machineId, r.fields.start);
        if (clash) throw duplicateStart();
        touched.push(await insertAnnotation(ctx.scope, r.fields, ctx.caller.user.id, ctx.at));
        continue;
      }
      const same =
        match.category_id === r.fields.typeId &&
        match.end === r.fields.end &&
        (match.message ?? null) === r.fields.message &&
        match.setup === r.fields.setup &&
        (r.type?.plannedBehavior !== 'operator' || match.planned === r.fields.planned);
      if (same) continue;
      const { machineId: _m, ...fields } = r.fields;
      await updateAnnotationRow(ctx.scope, match.id, fields, ctx.at);
      touched.push(match.id);
    }
    for (const e of existing) {
      if (starts.has(e.start)) continue;
      await deleteAnnotationRow(ctx.scope, e.id);
      changed.push({ ...e, deleted: true });
    }
    await settlePlanned(ctx, touched);
    for (const id of touched) changed.push({ ...(await reload(ctx, id)), deleted: false });
  }
  return { annotations: changed.sort((a, b) => a.start - b.start) };
}

/** GET /api/annotations: a machine's annotations touching [start, end) (the timeline annotation grid). */
export async function listMachineAnnotations(
  ctx: ServiceCtx,
  q: { machineId: string; start: number; end: number },
): Promise<Annotation[]> {
  await machineOr404(ctx, q.machineId);
  // live-operations §5/§9 "timeline list 1 day" (decision 0705), on the company's wall clock as the report
  // ranges are (a day with a clock change is still one day).
  const check = checkRange(
    await companyClock(ctx.scope),
    { start: epochMs(q.start), end: epochMs(q.end) },
    'timelineList',
  );
  if (!check.ok) {
    const message =
      check.error === 'START_NOT_BEFORE_END' ? 'Start Date must be before End Date' : check.message;
    throw invalid(message, [{ field: 'end', code: check.error, message }]);
  }
  return listAnnotations(ctx.scope, q.machineId, q.start, q.end);
}
