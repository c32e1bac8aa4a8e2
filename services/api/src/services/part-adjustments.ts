import { z } from 'zod';
import { epochMsSchema, idSchema, noteSchema, rejectBehaviorSchema } from '@takt/domain';
import {
  addDays,
  formatWallTime,
  rejectAdjustmentCount,
  shiftOccurrences,
  UNCATEGORIZED_REJECT,
  rejectBehaviorFor,
  startOfLocalDay,
  toWall,
  epochMs,
  EARLIEST_TIME_MS,
  timeProblem,
} from '@takt/domain';
import type { PartAdjustment, PartAdjustmentType, RejectBehavior, TimeSpan } from '@takt/domain';
import { historyChanged, historyOfRowChanged, loadCalendar } from '@takt/db/rollups';
import type { CompanyScope } from '@takt/db';
import { ApiError, notFound } from '../http/errors';
import { toCsv } from '../http/csv';
import { INT_COLUMN_MAX } from '../http/validate';
import type { Machine } from '../repositories/machines';
import type { PartAdjustmentFields, StoredPartAdjustment } from '../repositories/part-adjustments';
import {
  countPartAdjustments,
  deletePartAdjustmentRow as deleteRow,
  getPartAdjustment,
  groupMachineIds,
  insertPartAdjustment as insertRow,
  jobRunAt,
  latestOfKind,
  listPartAdjustments as listRows,
  rejectTotals,
  updatePartAdjustmentRow as updateRow,
} from '../repositories/part-adjustments';
import { getPartAdjustmentType } from '../repositories/part-adjustment-types';
import type { ServiceCtx } from './context';
import { DEFAULT_REASON_COLOR } from './annotation-types';
import { checkAdjustmentKeepsGoodParts, checkRemovalKeepsGoodParts } from './good-parts';
import type { Issue } from './issues';
import { invalid, machineOr404 } from './issues';

// Rejects, part corrections and parts added by hand (live-operations §2 Reject Part, §3, §5, §7, §8;
// reports-admin §5 scrap rules). Quality (METRICS.md §3) reads what is stored here: the machine's total
// includes Σ count, and rejected = Σ scrapcount of scrap and non-conforming rejects.
// Service functions never read the clock: ctx.at is when the fact happened, ctx.now the server time.

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

export const REJECT_FAILED = 'Parts could not be rejected.';
export const ADJUSTMENT_FAILED = 'Part adjustment could not be saved.';
/** live-operations §9: the reject list is paged by 25. */
export const REJECT_PAGE_SIZE = 25;

export type PartAdjustmentView = PartAdjustment & { kind: StoredPartAdjustment['kind'] };

const view = ({ typeHidden: _hidden, ...p }: StoredPartAdjustment): PartAdjustmentView => p;

/** reports-admin §5: the adjustment date is capped at the end of today (company time zone). */
export function endOfToday(timezone: string, now: number): number {
  return startOfLocalDay(timezone, addDays(toWall(timezone, epochMs(now)).day, 1));
}

export interface PartAdjustmentInput {
  machine_id: string;
  /** Default: ctx.at. */
  adjustmenttime?: number;
  category_id?: string | null;
  /** Rejects: the parts rejected, at least 1. */
  scrapcount?: number;
  /** Rejects: 0 when removed from good parts, else the scrap count (computed when left out). Corrections: ± parts. */
  count?: number;
  message?: string | null;
  /** true: a reject (scrap or non-conforming); false: a part correction. */
  scrap: boolean;
  /** live-operations §5 "remove from good parts": defaults to on. */
  deductFromGoodParts?: boolean;
  /** Only when the reason's reject_behavior is operator; otherwise it must match the reason's, or be left out. */
  reject_behavior?: RejectBehavior | null;
}

const BEHAVIOR_LABEL: Record<RejectBehavior, string> = { scrap: 'Scrap', nonconform: 'Non-Conforming' };
/** A reject without a reason, as the reports name it. */
const UNCATEGORIZED_NAME = 'Uncategorized';

/**
 * The row to store for an adjustment, or the list of problems (live-operations §5 reject rules).
 * `checkArchived` refuses an archived reason (on create, or when the reason changes).
 */
async function adjustmentFields(
  ctx: ServiceCtx,
  machine: Machine,
  input: PartAdjustmentInput,
  opts: { checkArchived: boolean; kind?: PartAdjustmentFields['kind'] },
): Promise<Omit<PartAdjustmentFields, 'jobRunId'>> {
  const heading = input.scrap ? REJECT_FAILED : ADJUSTMENT_FAILED;
  const issues: Issue[] = [];
  const at = input.adjustmenttime ?? ctx.at;
  // Decision 0980: nothing happened before the floor (a year-1 time made the rollups build from year 1).
  const early = at < EARLIEST_TIME_MS ? timeProblem('The adjustment time', at, ctx.now) : null;
  if (early) {
    issues.push({ field: 'adjustmenttime', code: 'too_small', message: early });
  } else if (at >= endOfToday(ctx.caller.company.timezone, ctx.now)) {
    issues.push({
      field: 'adjustmenttime',
      code: 'too_big',
      message: 'The adjustment time cannot be after the end of today.',
    });
  }
  if (input.message != null && input.message.length > 250) {
    issues.push({ field: 'message', code: 'too_big', message: 'At most 250 characters' });
  }
  let type: PartAdjustmentType | null = null;
  if (input.category_id) {
    type = (await getPartAdjustmentType(ctx.scope, input.category_id)) ?? null;
    if (!type) throw notFound('Reject reason');
    if (opts.checkArchived && type.hidden) {
      issues.push({ field: 'category_id', code: 'archived', message: 'This reject reason is archived.' });
    }
  }
  const message = input.message ?? null;

  if (!input.scrap) {
    // A part correction: a signed change to the machine's count, no scrap.
    const count = input.count ?? 0;
    if (!Number.isInteger(count) || count === 0) {
      issues.push({ field: 'count', code: 'invalid', message: 'Count must be a whole number other than 0.' });
    } else if (Math.abs(count) > INT_COLUMN_MAX) {
      issues.push({
        field: 'count',
        code: 'too_big',
        message: `Count must be between -${INT_COLUMN_MAX} and ${INT_COLUMN_MAX}`,
      });
    }
    if (issues.length) throw invalid(heading, issues);
    return {
      machineId: machine.id,
      adjustmentTime: at,
      typeId: type?.id ?? null,
      scrapcount: 0,
      count,
      message,
      rejectBehavior: null,
      deductFromGoodParts: false,
      kind: opts.kind && opts.kind !== 'reject' ? opts.kind : 'correction',
    };
  }

  // A reject.
  const scrapcount = input.scrapcount;
  if (scrapcount === undefined || scrapcount === null) {
    issues.push({ field: 'scrapcount', code: 'required', message: 'Count is required' });
  } else if (!Number.isInteger(scrapcount)) {
    issues.push({ field: 'scrapcount', code: 'invalid', message: 'Count must be a whole number' });
  } else if (scrapcount < 1) {
    issues.push({ field: 'scrapcount', code: 'too_small', message: 'Count must be at least 1' });
  } else if (scrapcount > INT_COLUMN_MAX) {
    issues.push({ field: 'scrapcount', code: 'too_big', message: `Count must be at most ${INT_COLUMN_MAX}` });
  }
  if (!input.category_id) {
    issues.push({ field: 'category_id', code: 'required', message: 'Select a reject reason.' });
  }
  let behavior: RejectBehavior | null = null;
  if (type) {
    if (!type.scrap) {
      issues.push({
        field: 'category_id',
        code: 'not_scrap',
        message: 'Only reasons flagged as scrap can be used to reject parts.',
      });
    }
    const chosen = input.reject_behavior ?? null;
    if (type.reject_behavior !== 'operator' && chosen !== null && chosen !== type.reject_behavior) {
      issues.push({
        field: 'reject_behavior',
        code: 'not_editable',
        message: `This reason always rejects as ${BEHAVIOR_LABEL[type.reject_behavior]}.`,
      });
    }
    behavior = rejectBehaviorFor(type.reject_behavior, chosen);
  }
  // live-operations §5: count 0 when removed from good parts (default on), else the scrap count.
  // Manual work centers skip the checkbox: their parts were entered by hand, count 0 (decision 0107).
  const manual = machine.workcenterType === 'manual';
  const deduct = manual ? true : (input.deductFromGoodParts ?? true);
  const expected = rejectAdjustmentCount({
    scrapcount: scrapcount ?? 0,
    removeFromGoodParts: deduct,
    manual,
  });
  if (!manual && input.count !== undefined && input.count !== expected) {
    issues.push({
      field: 'count',
      code: 'custom',
      message: 'count must be 0 when removed from good parts, else the scrap count',
    });
  }
  if (issues.length) throw invalid(heading, issues);
  return {
    machineId: machine.id,
    adjustmentTime: at,
    typeId: type!.id,
    scrapcount: scrapcount!,
    count: expected,
    message,
    rejectBehavior: behavior,
    deductFromGoodParts: deduct,
    kind: 'reject',
  };
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

/**
 * GET /api/partadjustment: a machine's adjustments in [start, end). Adjustments with an archived reason
 * are hidden unless includeHidden; scrap=true gives rejects only, scrap=false everything else.
 */
export async function listPartAdjustments(
  ctx: ServiceCtx,
  q: { machine_id: string; start: number; end: number; includeHidden?: boolean; scrap?: boolean },
): Promise<PartAdjustmentView[]> {
  await machineOr404(ctx, q.machine_id);
  const rows = await listRows(ctx.scope, {
    machineIds: [q.machine_id],
    start: q.start,
    end: q.end,
    includeHiddenTypes: q.includeHidden,
    rejects: q.scrap,
  });
  return rows.map(view);
}

async function machineFilter(ctx: ServiceCtx, q: { machine_id?: string; group?: string }) {
  let ids: string[] | undefined;
  if (q.group) {
    ids = await groupMachineIds(ctx.scope, q.group);
    if (!ids) throw notFound('Machine group');
  }
  if (q.machine_id) {
    await machineOr404(ctx, q.machine_id);
    ids = ids ? ids.filter((id) => id === q.machine_id) : [q.machine_id];
  }
  return ids;
}

/**
 * The reason filter: a reason of the company (else 404), or null for rejects without one when the caller asks
 * for 'uncategorized' (decision 0812); undefined: any reason.
 */
async function categoryFilter(ctx: ServiceCtx, categoryId: string | undefined) {
  if (categoryId === undefined) return undefined;
  if (categoryId === UNCATEGORIZED_REJECT) return null;
  if (!(await getPartAdjustmentType(ctx.scope, categoryId))) throw notFound('Reject reason');
  return categoryId;
}

/**
 * The selected shifts' occurrences in [start, end) on the company calendar, back-to-back ones joined (a
 * reject counts when its time falls inside, as GET /api/reports/downtime clips periods to them); undefined
 * without a shift filter. A shift the company does not have answers 404.
 */
async function shiftSpans(
  ctx: ServiceCtx,
  q: { start: number; end: number; shifts?: readonly string[] | undefined },
): Promise<TimeSpan[] | undefined> {
  if (!q.shifts?.length) return undefined;
  const calendar = await loadCalendar(ctx.scope.db, ctx.scope.companyId);
  const picked = calendar.shifts.filter((s) => q.shifts!.includes(s.id));
  if (q.shifts.some((id) => !picked.some((s) => s.id === id))) throw notFound('Shift');
  const spans: TimeSpan[] = [];
  for (const o of shiftOccurrences(calendar, picked, epochMs(q.start), epochMs(q.end))) {
    const last = spans[spans.length - 1];
    if (last && last.end === o.start) last.end = o.end;
    else spans.push({ start: o.start, end: o.end });
  }
  return spans;
}

/** The filters every reject call shares (reports-admin §7; decision 0812). */
export interface RejectFilterQuery {
  start: number;
  end: number;
  group?: string | undefined;
  machine_id?: string | undefined;
  /** Shift ids: only rejects inside their occurrences. */
  shifts?: string[] | undefined;
  /** A reject reason id, or 'uncategorized' for rejects without one. */
  category_id?: string | undefined;
}

async function rejectFilter(ctx: ServiceCtx, q: RejectFilterQuery) {
  const [machineIds, typeId, spans] = await Promise.all([
    machineFilter(ctx, q),
    categoryFilter(ctx, q.category_id),
    shiftSpans(ctx, q),
  ]);
  return { start: q.start, end: q.end, machineIds, typeId, spans };
}

export interface RejectsByCategoryRow {
  scrapCount: number;
  partadjustmentType: { id: string | null; name: string; color: string };
  category_id: string | null;
  machine: { id: string; name: string } | null;
}

/** GET /api/partadjustment/allRejectsByCategory: Σ scrap count per reason (and machine), largest first. */
export async function rejectsByCategory(
  ctx: ServiceCtx,
  q: RejectFilterQuery & { groupByMachine?: boolean | undefined },
): Promise<{ rejects: RejectsByCategoryRow[] }> {
  const filter = await rejectFilter(ctx, q);
  const totals = await rejectTotals(ctx.scope, { ...filter, byMachine: q.groupByMachine === true });
  return {
    rejects: totals.map((t) => ({
      scrapCount: t.scrapCount,
      partadjustmentType: {
        id: t.typeId,
        name: t.typeName ?? UNCATEGORIZED_NAME,
        color: t.typeColor ?? DEFAULT_REASON_COLOR,
      },
      category_id: t.typeId,
      machine: t.machineId ? { id: t.machineId, name: t.machineName ?? '' } : null,
    })),
  };
}

/** The same rows as CSV with a header row. */
export function rejectsByCategoryCsv(rows: readonly RejectsByCategoryRow[], byMachine: boolean): string {
  const header = byMachine ? ['Reason', 'Machine', 'Scrap Count'] : ['Reason', 'Scrap Count'];
  return toCsv(
    header,
    rows.map((r) =>
      byMachine
        ? [r.partadjustmentType.name, r.machine?.name ?? '', r.scrapCount]
        : [r.partadjustmentType.name, r.scrapCount],
    ),
  );
}

/** GET /api/partadjustment/rejects: the paged reject list (newest first), with the total count. */
export async function rejectList(
  ctx: ServiceCtx,
  q: RejectFilterQuery & { limit?: number; offset?: number },
): Promise<{ rows: PartAdjustmentView[]; count: number; limit: number; offset: number }> {
  const filter = { ...(await rejectFilter(ctx, q)), rejects: true, includeHiddenTypes: true };
  const limit = q.limit ?? REJECT_PAGE_SIZE;
  const offset = q.offset ?? 0;
  const [rows, count] = await Promise.all([
    listRows(ctx.scope, { ...filter, limit, offset, newestFirst: true }),
    countPartAdjustments(ctx.scope, filter),
  ]);
  return { rows: rows.map(view), count, limit, offset };
}

/**
 * GET /api/partadjustment/rejects?format=csv: every reject of the filter (not one page), newest first as the
 * list pages them, with the list's columns (reports-admin §2 "paged list of rejects"); times on the company
 * wall clock as the other report CSVs write them.
 */
export async function rejectListCsv(ctx: ServiceCtx, q: RejectFilterQuery): Promise<string> {
  const filter = { ...(await rejectFilter(ctx, q)), rejects: true, includeHiddenTypes: true };
  const rows = await listRows(ctx.scope, { ...filter, newestFirst: true });
  const timezone = ctx.caller.company.timezone;
  return toCsv(
    ['Time', 'Machine', 'Reason', 'Count', 'Type', 'Operation', 'Message'],
    rows.map((r) => [
      formatWallTime(timezone, r.adjustmenttime),
      r.machine_name,
      r.partadjustmentType?.name ?? UNCATEGORIZED_NAME,
      r.scrapcount,
      // Rejects always carry a behavior (the filter keeps rejects only).
      BEHAVIOR_LABEL[r.reject_behavior ?? 'scrap'],
      r.jobName ?? '',
      r.message ?? '',
    ]),
  );
}
