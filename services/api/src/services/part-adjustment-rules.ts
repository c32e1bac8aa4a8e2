// The rules a reject or a part correction is held to before it is stored (live-operations §5 reject rules;
// reports-admin §5 scrap rules): the row to write, or the list of problems under the form's heading.
import {
  addDays,
  rejectAdjustmentCount,
  rejectBehaviorFor,
  startOfLocalDay,
  toWall,
  epochMs,
  EARLIEST_TIME_MS,
  timeProblem,
} from '@takt/domain';
import type { PartAdjustmentType, RejectBehavior } from '@takt/domain';
import { notFound } from '../http/errors';
import { INT_COLUMN_MAX } from '../http/validate';
import type { Machine } from '../repositories/machines';
import type { PartAdjustmentFields } from '../repositories/part-adjustments';
import { getPartAdjustmentType } from '../repositories/part-adjustment-types';
import type { ServiceCtx } from './context';
import type { Issue } from './issues';
import { invalid } from './issues';

export const REJECT_FAILED = 'Parts could not be rejected.';
export const ADJUSTMENT_FAILED = 'Part adjustment could not be saved.';

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

export const BEHAVIOR_LABEL: Record<RejectBehavior, string> = {
  scrap: 'Scrap',
  nonconform: 'Non-Conforming',
};

/**
 * The row to store for an adjustment, or the list of problems (live-operations §5 reject rules).
 * `checkArchived` refuses an archived reason (on create, or when the reason changes).
 */
export async function adjustmentFields(
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
