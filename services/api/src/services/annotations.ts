import { z } from 'zod';
import { annotationInputSchema, epochMsSchema, idSchema } from '@takt/domain';
import {
  canMergeInto,
  checkRange,
  epochMs,
  multiSelection,
  piecePlannedValue,
  plannedValue,
  SETUP_REASON_NAME,
  splitInHalf,
} from '@takt/domain';
import type { Annotation, AnnotationType } from '@takt/domain';
import { historyChanged, historyOfRowChanged } from '@takt/db/rollups';
import type { CompanyScope } from '@takt/db';
import { ApiError, notFound } from '../http/errors';
import type { AnnotationFields } from '../repositories/annotations';
import {
  deleteAnnotationRow as deleteRow,
  findAnnotationAt,
  getAnnotation,
  insertAnnotation as insertRow,
  listAnnotations,
  listAnnotationsStartingIn,
  nextAnnotation,
  updateAnnotationRow as updateRow,
} from '../repositories/annotations';
import { getAnnotationType } from '../repositories/annotation-types';
import { companyClock } from '../repositories/shifts';
import type { ServiceCtx } from './context';
import type { Issue } from './issues';
import { invalid, machineOr404 } from './issues';
import type { DowntimePiece } from './downtime';
import { downtimePieces } from './downtime';

// Annotations: the categorization of downtime (live-operations §4 downtime, planned value and categorize
// form, split and merge, §5, §7, §8). Service functions never read the clock: ctx.at is when the fact
// happened, ctx.now the server time.

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

// Writes. An annotation decides how its downtime counts (planned or not, METRICS.md §1), so every write marks
// the machine's rollups dirty from the earliest time it touches, in the same transaction, and the reports
// recompute them (ARCHITECTURE.md "Ingest contract": the affected rollups are recomputed). The old row is
// read before it changes, so its old start counts too.

async function insertAnnotation(
  scope: CompanyScope,
  f: AnnotationFields,
  by: string | null,
  now: number,
): Promise<string> {
  await historyChanged(scope, f.machineId, f.start);
  return insertRow(scope, f, by, now);
}

async function updateAnnotationRow(
  scope: CompanyScope,
  id: string,
  f: Partial<Omit<AnnotationFields, 'machineId'>>,
  now: number,
): Promise<void> {
  await historyOfRowChanged(scope, 'annotations', id, f.start);
  await updateRow(scope, id, f, now);
}

async function deleteAnnotationRow(scope: CompanyScope, id: string): Promise<void> {
  await historyOfRowChanged(scope, 'annotations', id);
  await deleteRow(scope, id);
}

export const ANNOTATION_SAVE_FAILED = 'Annotation could not be saved';

const duplicateStart = () => new ApiError(409, 'DUPLICATE_ANNOTATION_START', ANNOTATION_SAVE_FAILED);

export interface AnnotationInput {
  machineId: string;
  start: number;
  /** null when not explicitly set: the annotation follows its downtime period (live-operations §5). */
  end: number | null;
  category_id: string | null;
  message?: string | null;
  /** The operator's choice, used only with plannedBehavior operator. */
  planned?: boolean | null;
  setup?: boolean;
  activesetup?: boolean;
}

export type ChangedAnnotation = Annotation & { deleted: boolean };

/** live-operations §5: a reason is required (unless setup), never while active setup, end after start. */
function annotationIssues(a: AnnotationInput, prefix = ''): Issue[] {
  const issues: Issue[] = [];
  if (a.activesetup) {
    issues.push({
      field: `${prefix}activesetup`,
      code: 'active_setup',
      message: 'An active setup annotation cannot be saved.',
    });
  }
  if (!a.setup && !a.category_id) {
    issues.push({ field: `${prefix}category_id`, code: 'required', message: 'Select a downtime reason.' });
  }
  if (a.end !== null && a.end <= a.start) {
    issues.push({ field: `${prefix}end`, code: 'range', message: 'The end must be after the start.' });
  }
  if (a.message != null && a.message.length > 250) {
    issues.push({ field: `${prefix}message`, code: 'too_big', message: 'At most 250 characters' });
  }
  return issues;
}

interface Resolved {
  fields: AnnotationFields;
  type: AnnotationType | null;
  operatorChoice: boolean | null;
}

/** Check machine and reason belong to the caller's company; setup drops the category (live-operations §5). */
async function resolveInput(ctx: ServiceCtx, a: AnnotationInput, prefix = ''): Promise<Resolved> {
  await machineOr404(ctx, a.machineId);
  const setup = a.setup === true;
  const typeId = setup ? null : a.category_id;
  let type: AnnotationType | null = null;
  if (typeId) {
    type = (await getAnnotationType(ctx.scope, typeId)) ?? null;
    if (!type) throw notFound('Downtime reason');
    if (type.hidden) {
      throw invalid(ANNOTATION_SAVE_FAILED, [
        { field: `${prefix}category_id`, code: 'archived', message: 'This downtime reason is archived.' },
      ]);
    }
  }
  const operatorChoice = a.planned ?? null;
  return {
    fields: {
      machineId: a.machineId,
      typeId,
      start: a.start,
      end: a.end,
      message: a.message ?? null,
      // Stored planned value (METRICS.md §5); a duration-dependent one is settled by settlePlanned.
      planned: plannedValue(type, a.end === null ? 0 : a.end - a.start, operatorChoice).planned,
      setup,
    },
    type,
    operatorChoice,
  };
}

/**
 * Store the planned value of annotations whose value depends on their duration (plannedWithLimit without an
 * explicit end: the duration is that of the downtime piece it covers, measured to ctx.now while live).
 */
async function settlePlanned(ctx: ServiceCtx, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    const a = await getAnnotation(ctx.scope, id);
    if (!a || !a.category_id) continue;
    const type = await getAnnotationType(ctx.scope, a.category_id);
    if (!type) continue;
    let piece: DowntimePiece | undefined;
    if (a.end === null && type.plannedBehavior === 'plannedWithLimit') {
      const pieces = await downtimePieces(ctx, a.machineId, a.start, a.start + 1);
      piece = pieces.find((p) => p.annotation?.id === a.id);
    }
    const planned = piecePlannedValue(type, a, piece, ctx.now).planned;
    if (type.plannedBehavior !== 'operator' && planned !== a.planned) {
      await updateAnnotationRow(ctx.scope, a.id, { planned }, ctx.at);
    }
  }
}

async function reload(ctx: ServiceCtx, id: string): Promise<Annotation> {
  const a = await getAnnotation(ctx.scope, id);
  if (!a) throw notFound('Annotation');
  return a;
}

/** An uncategorized split marker (live-operations §4 "Split") can be categorized in place. */
const isMarker = (a: Annotation) => a.category_id === null && !a.setup && !a.activesetup;

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
