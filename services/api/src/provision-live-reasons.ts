import { DEFAULT_PLANNED_LIMIT_MS } from '@takt/domain';
import type { CompanyScope } from '@takt/db';
import { insertAnnotationType, listAnnotationTypes } from './repositories/annotation-types';
import type { AnnotationTypeFields } from './repositories/annotation-types';
import { insertPartAdjustmentType, listPartAdjustmentTypes } from './repositories/part-adjustment-types';
import type { PartAdjustmentTypeFields } from './repositories/part-adjustment-types';

/** Demo downtime reasons: every plannedBehavior, each with its own colour, so every rule of live-operations §4
 * (planned value) can be tried on the demo plant. */
export const DEMO_DOWNTIME_REASONS: readonly AnnotationTypeFields[] = [
  { name: 'Operator choice', plannedBehavior: 'operator', plannedLimitMs: null, color: '#5b8def' },
  { name: 'Preventive maintenance', plannedBehavior: 'planned', plannedLimitMs: null, color: '#2e9d5b' },
  { name: 'Lunch break', plannedBehavior: 'plannedWithLimit', plannedLimitMs: 30 * 60_000, color: '#8d6e63' },
  {
    name: 'Tool change',
    plannedBehavior: 'plannedWithLimit',
    plannedLimitMs: DEFAULT_PLANNED_LIMIT_MS,
    color: '#f2a93b',
  },
  { name: 'Waiting for material', plannedBehavior: 'unplanned', plannedLimitMs: null, color: '#e4572e' },
  { name: 'Machine breakdown', plannedBehavior: 'unplanned', plannedLimitMs: null, color: '#b71c1c' },
  { name: 'No operator', plannedBehavior: 'unplanned', plannedLimitMs: null, color: '#9c27b0' },
];

/** Demo reject reasons: every reject_behavior, and one reason not flagged scrap (a count correction). */
export const DEMO_REJECT_REASONS: readonly PartAdjustmentTypeFields[] = [
  { name: 'Dimension out of tolerance', scrap: true, reject_behavior: 'scrap', color: '#e4572e' },
  { name: 'Surface finish', scrap: true, reject_behavior: 'nonconform', color: '#f2a93b' },
  { name: 'Operator judgement', scrap: true, reject_behavior: 'operator', color: '#5b8def' },
  { name: 'Count correction', scrap: false, reject_behavior: 'scrap', color: '#828282' },
];

/**
 * Seed the demo company's downtime and reject reasons. Idempotent: a reason whose name exists (archived or
 * not) is left as it is, so an edited demo keeps its edits across restarts.
 */
export async function seedDemoReasons(scope: CompanyScope, now: number): Promise<void> {
  await scope.transaction(async (tx) => {
    const downtime = new Set((await listAnnotationTypes(tx, { includeHidden: true })).map((t) => t.name));
    for (const r of DEMO_DOWNTIME_REASONS) {
      if (!downtime.has(r.name)) await insertAnnotationType(tx, r, now);
    }
    const rejects = new Set((await listPartAdjustmentTypes(tx, { includeHidden: true })).map((t) => t.name));
    for (const r of DEMO_REJECT_REASONS) {
      if (!rejects.has(r.name)) await insertPartAdjustmentType(tx, r, now);
    }
  });
}
