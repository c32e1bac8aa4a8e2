// Reads of part adjustments: a machine's list, and the reject figures the reports page and export
// (reports-admin §2, §7; decision 0812). Every read is the caller's company's (ctx.scope).
import { formatWallTime, shiftOccurrences, UNCATEGORIZED_REJECT, epochMs } from '@takt/domain';
import type { PartAdjustment, TimeSpan } from '@takt/domain';
import { loadCalendar } from '@takt/db/rollups';
import { notFound } from '../http/errors';
import { toCsv } from '../http/csv';
import type { StoredPartAdjustment } from '../repositories/part-adjustments';
import {
  countPartAdjustments,
  groupMachineIds,
  listPartAdjustments as listRows,
  rejectTotals,
} from '../repositories/part-adjustments';
import { getPartAdjustmentType } from '../repositories/part-adjustment-types';
import type { ServiceCtx } from './context';
import { DEFAULT_REASON_COLOR } from './annotation-types';
import { machineOr404 } from './issues';
import { BEHAVIOR_LABEL } from './part-adjustment-rules';

/** live-operations §9: the reject list is paged by 25. */
export const REJECT_PAGE_SIZE = 25;

export type PartAdjustmentView = PartAdjustment & { kind: StoredPartAdjustment['kind'] };

export const view = ({ typeHidden: _hidden, ...p }: StoredPartAdjustment): PartAdjustmentView => p;

/** A reject without a reason, as the reports name it. */
const UNCATEGORIZED_NAME = 'Uncategorized';

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
