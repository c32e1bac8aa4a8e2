import {
  canMergeInto,
  checkRange,
  DEFAULT_PLANNED_LIMIT_MS,
  downtimeListItems,
  epochMs,
  HOUR_MS,
  multiSelection,
  piecePlannedValue,
  piecesOf,
  plannedValue,
  segmentsOf,
  SETUP_REASON_NAME,
  splitInHalf,
} from '@takt/domain';
import type {
  Annotation,
  AnnotationType,
  DowntimePeriod,
  DowntimePiece as DomainDowntimePiece,
  PlannedBehavior,
} from '@takt/domain';
import { ApiError, notFound } from '../http/errors';
import type { AnnotationFields } from '../repositories/annotations';
import {
  deleteAnnotationRow,
  downtimeListFilterMs,
  findAnnotationAt,
  getAnnotation,
  insertAnnotation,
  listAnnotations,
  listAnnotationsStartingIn,
  nextAnnotation,
  updateAnnotationRow,
} from '../repositories/annotations';
import {
  getAnnotationType,
  getAnnotationTypes,
  insertAnnotationType,
  listAnnotationTypes as listTypeRows,
  updateAnnotationTypeRow,
} from '../repositories/annotation-types';
import type { Machine } from '../repositories/machines';
import { getMachine } from '../repositories/machines';
import { companyClock } from '../repositories/shifts';
import {
  firstActiveStartAtOrAfter,
  lastActiveEndBefore,
  listStateIntervals,
} from '../repositories/state-intervals';
import type { ServiceCtx } from './context';

// Downtime periods, their categorization with annotations, and downtime reasons
// (live-operations §2 downtime underlay and list, §4 downtime, planned value and categorize form, §5, §7, §8).
// Service functions never read the clock: ctx.at is when the fact happened, ctx.now the server time.

// ---------------------------------------------------------------------------------------------------------
// Errors (live-operations §8)

export const ANNOTATION_SAVE_FAILED = 'Annotation could not be saved';
export const REASON_SAVE_FAILED = 'Downtime reason could not be saved.';
/** live-operations §7/§9: the workcenter downtime query looks 24 hours back. */
export const DOWNTIME_WINDOW_MS = 24 * HOUR_MS;
export const DEFAULT_REASON_COLOR = '#828282';

export interface Issue {
  field: string;
  code: string;
  message: string;
}

/** A 400 with the heading the client shows and the list of problems under it. */
export const invalid = (heading: string, issues: Issue[]) =>
  new ApiError(400, 'VALIDATION_ERROR', heading, issues);

/** Re-head a validation error from the request parser with the resource's failure text (§8). */
export async function headed<T>(heading: string, work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApiError && err.code === 'VALIDATION_ERROR') {
      throw new ApiError(400, 'VALIDATION_ERROR', heading, err.issues);
    }
    throw err;
  }
}

const duplicateStart = () => new ApiError(409, 'DUPLICATE_ANNOTATION_START', ANNOTATION_SAVE_FAILED);

export async function machineOr404(ctx: ServiceCtx, machineId: string): Promise<Machine> {
  const m = await getMachine(ctx.scope, machineId);
  if (!m) throw notFound('Machine');
  return m;
}

// ---------------------------------------------------------------------------------------------------------
// The period engine (pure, packages/domain derive/downtime-pieces.ts): METRICS.md §1 downtime periods split
// by annotations. The rollups use the same engine, so the list and OEE agree on every period.

export type DowntimePiece = DomainDowntimePiece<Annotation>;

// ---------------------------------------------------------------------------------------------------------
// Reading periods

/** The machine's downtime pieces overlapping [from, to), with the real starts and ends of the runs. */
export async function downtimePieces(
  ctx: ServiceCtx,
  machineId: string,
  from: number,
  to: number,
): Promise<DowntimePiece[]> {
  // A run crossing `from` began where the last ACTIVE interval before it ended; one crossing `to` ends
  // where the next ACTIVE interval begins.
  const [runStart, runEnd] = await Promise.all([
    lastActiveEndBefore(ctx.scope, machineId, from),
    firstActiveStartAtOrAfter(ctx.scope, machineId, to),
  ]);
  const loadFrom = runStart ?? Number.MIN_SAFE_INTEGER;
  const loadTo = (runEnd ?? Number.MAX_SAFE_INTEGER - 1) + 1;
  const [intervals, annotations] = await Promise.all([
    listStateIntervals(ctx.scope, machineId, loadFrom, loadTo),
    listAnnotations(ctx.scope, machineId, loadFrom, loadTo),
  ]);
  return piecesOf(segmentsOf(intervals), annotations).filter(
    (p) => p.start < to && (p.end === null || p.end > from),
  );
}

export type DowntimeItem = Omit<DowntimePeriod, 'annotationType'> & {
  annotationType: Pick<AnnotationType, 'id' | 'name' | 'color' | 'plannedBehavior' | 'plannedLimitMs'> | null;
  /** The covering annotation (null when no annotation covers the period). */
  annotation: Annotation | null;
  /** Categorized periods cannot be selected for "Categorize Multiple" (live-operations §4). */
  selectable: boolean;
  /** At or below the company's downtime_list_filter_duration. */
  short: boolean;
};

export interface DowntimeQuery {
  machineId: string;
  /** Default: 24 hours before ctx.now. */
  start?: number;
  /** Default: ctx.now. */
  end?: number;
  /** false: one item per reason with count and total duration. */
  instances?: boolean;
  /** true: clip periods to [start, end]. */
  pinToBounds?: boolean;
  showShort?: boolean;
  showCategorized?: boolean;
  onlyUncategorized?: boolean;
  onlyLong?: boolean;
}

/**
 * GET /api/downtime: the machine's downtime periods, split and categorized by annotations, without setup
 * (live-operations §5), oldest first. The live period has end null and lasts until ctx.now.
 */
export async function listDowntime(
  ctx: ServiceCtx,
  q: DowntimeQuery,
): Promise<{ items: DowntimeItem[]; start: number; end: number }> {
  const machine = await machineOr404(ctx, q.machineId);
  const end = q.end ?? ctx.now;
  const start = q.start ?? end - DOWNTIME_WINDOW_MS;
  if (!(start < end)) {
    throw invalid('Start Date must be before End Date', [
      { field: 'end', code: 'range', message: 'Start Date must be before End Date' },
    ]);
  }
  // live-operations §5/§9 "downtime 31 days", on the company's wall clock like every other range, so a
  // month with a clock change is still 31 days (domain checkRange, the same text everywhere).
  const check = checkRange(
    await companyClock(ctx.scope),
    { start: epochMs(start), end: epochMs(end) },
    'downtime',
  );
  if (!check.ok)
    throw invalid(check.message, [{ field: 'start', code: check.error, message: check.message }]);
  return { items: await downtimeItems(ctx, machine, { ...q, start, end }), start, end };
}

/**
 * A machine's downtime items over [start, end) as GET /api/downtime lists them (the range already checked by
 * the caller; the company downtime report checks its own on the wall clock).
 */
export async function downtimeItems(
  ctx: ServiceCtx,
  machine: Machine,
  q: Omit<DowntimeQuery, 'machineId' | 'start' | 'end'> & { start: number; end: number },
): Promise<DowntimeItem[]> {
  const { start, end } = q;
  const filterDurationMs = await downtimeListFilterMs(ctx.scope);

  const pieces = await downtimePieces(ctx, machine.id, start, end);
  const types = await getAnnotationTypes(
    ctx.scope,
    pieces.flatMap((p) => (p.annotation?.category_id ? [p.annotation.category_id] : [])),
  );
  const periods = pieces.map((p) => {
    const type = p.annotation?.category_id ? (types.get(p.annotation.category_id) ?? null) : null;
    const pinnedStart = q.pinToBounds ? Math.max(p.start, start) : p.start;
    const pinnedEnd = q.pinToBounds && p.end !== null ? Math.min(p.end, end) : p.end;
    // METRICS.md §5 on the period's actual duration (the rollups judge it the same way).
    const planned = p.annotation && type ? piecePlannedValue(type, p.annotation, p, ctx.now).planned : null;
    const item: DowntimeItem = {
      start: pinnedStart,
      end: pinnedEnd,
      duration: (pinnedEnd ?? ctx.now) - pinnedStart,
      isEndSet: p.annotation?.end != null && p.annotation.end === p.end,
      machine: machine.name,
      machineId: machine.id,
      reason: p.setup ? SETUP_REASON_NAME : (type?.name ?? null),
      color: p.setup ? null : (type?.color ?? null),
      message: p.annotation?.message ?? null,
      planned,
      annotationType: type && {
        id: type.id,
        name: type.name,
        color: type.color,
        plannedBehavior: type.plannedBehavior,
        plannedLimitMs: type.plannedLimitMs,
      },
      count: 1,
      setup: p.setup,
      selected: false,
      annotation: p.annotation,
      selectable: false,
      short: false,
    };
    return item;
  });
  const listed = downtimeListItems(periods, ctx.now, {
    filterDurationMs,
    showShort: q.showShort ?? true,
    showCategorized: q.showCategorized ?? true,
    onlyUncategorized: q.onlyUncategorized,
    onlyLong: q.onlyLong,
  }).map((li) => ({ ...li.period, selectable: li.selectable, short: li.durationMs <= filterDurationMs }));
  if (q.instances !== false) return listed;

  // instances=false: one row per reason (uncategorized together), with the count and total duration.
  const byReason = new Map<string, DowntimeItem>();
  for (const it of listed) {
    const key = it.annotationType?.id ?? '';
    const acc = byReason.get(key);
    if (!acc) {
      byReason.set(key, { ...it, annotation: null, message: null, count: 1 });
      continue;
    }
    acc.count += 1;
    acc.duration += it.duration;
    acc.start = Math.min(acc.start, it.start);
    acc.end = acc.end === null || it.end === null ? null : Math.max(acc.end, it.end);
  }
  return [...byReason.values()];
}

// ---------------------------------------------------------------------------------------------------------
// Annotations

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

// ---------------------------------------------------------------------------------------------------------
// Downtime reasons (annotation types)

export interface AnnotationTypeInput {
  name: string;
  plannedBehavior: PlannedBehavior;
  /** ms; plannedWithLimit defaults to 5 minutes (live-operations §9). Ignored for other behaviors. */
  plannedLimitMs?: number | null;
  color?: string;
}

/** GET /api/annotationtypes: the company's downtime reasons (for a machine of the company when given). */
export async function listAnnotationTypes(
  ctx: ServiceCtx,
  q: { machineId?: string; includeHidden?: boolean },
): Promise<AnnotationType[]> {
  // The schema has no per-machine-group reason list yet: every reason of the company applies to every machine.
  if (q.machineId) await machineOr404(ctx, q.machineId);
  return listTypeRows(ctx.scope, { includeHidden: q.includeHidden });
}

function typeIssues(t: Partial<AnnotationTypeInput>): Issue[] {
  const issues: Issue[] = [];
  if (t.name !== undefined && t.name.trim() === '') {
    issues.push({ field: 'name', code: 'required', message: 'Missing required field: Name' });
  }
  if (t.plannedLimitMs != null && !(t.plannedLimitMs > 0)) {
    issues.push({
      field: 'plannedLimitMs',
      code: 'too_small',
      message: 'The limit must be more than 0 minutes.',
    });
  }
  return issues;
}

const limitFor = (behavior: PlannedBehavior, limit: number | null | undefined) =>
  behavior === 'plannedWithLimit' ? (limit ?? DEFAULT_PLANNED_LIMIT_MS) : null;

export async function createAnnotationType(
  ctx: ServiceCtx,
  input: AnnotationTypeInput,
): Promise<AnnotationType> {
  const issues = typeIssues(input);
  if (issues.length) throw invalid(REASON_SAVE_FAILED, issues);
  const id = await insertAnnotationType(
    ctx.scope,
    {
      name: input.name.trim(),
      plannedBehavior: input.plannedBehavior,
      plannedLimitMs: limitFor(input.plannedBehavior, input.plannedLimitMs),
      color: input.color ?? DEFAULT_REASON_COLOR,
    },
    ctx.at,
  );
  return (await getAnnotationType(ctx.scope, id))!;
}

export async function updateAnnotationType(
  ctx: ServiceCtx,
  id: string,
  patch: Partial<AnnotationTypeInput>,
): Promise<AnnotationType> {
  const current = await getAnnotationType(ctx.scope, id);
  if (!current) throw notFound('Downtime reason');
  const issues = typeIssues(patch);
  if (issues.length) throw invalid(REASON_SAVE_FAILED, issues);
  const behavior = patch.plannedBehavior ?? current.plannedBehavior;
  await updateAnnotationTypeRow(ctx.scope, id, {
    ...(patch.name !== undefined ? { name: patch.name.trim() } : {}),
    plannedBehavior: behavior,
    plannedLimitMs: limitFor(
      behavior,
      patch.plannedLimitMs !== undefined ? patch.plannedLimitMs : current.plannedLimitMs,
    ),
    ...(patch.color !== undefined ? { color: patch.color } : {}),
  });
  return (await getAnnotationType(ctx.scope, id))!;
}

/** Archive (hidden) or restore a downtime reason. */
export async function setAnnotationTypeHidden(
  ctx: ServiceCtx,
  id: string,
  hidden: boolean,
): Promise<AnnotationType> {
  const current = await getAnnotationType(ctx.scope, id);
  if (!current) throw notFound('Downtime reason');
  await updateAnnotationTypeRow(ctx.scope, id, { hidden });
  return (await getAnnotationType(ctx.scope, id))!;
}
