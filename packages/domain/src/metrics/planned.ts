// METRICS.md §5, live-operations §4 "Planned value of a downtime".
import { MINUTE_MS } from '../brand';

export const PLANNED_BEHAVIORS = ['operator', 'planned', 'unplanned', 'plannedWithLimit'] as const;
export type PlannedBehavior = (typeof PLANNED_BEHAVIORS)[number];

/** live-operations §9: plannedWithLimit limit defaults to 5 minutes (entered in minutes, stored in ms). */
export const DEFAULT_PLANNED_LIMIT_MS = 5 * MINUTE_MS;

export interface AnnotationTypeLike {
  plannedBehavior: PlannedBehavior;
  plannedLimitMs?: number | null;
}

export interface PlannedValue {
  /** true Planned, false Unplanned, null Exceeded Limit — or cleared when there is no type. */
  planned: boolean | null;
  /** 'Planned' | 'Unplanned' | 'Exceeded Limit', '' when uncategorized. */
  label: '' | 'Planned' | 'Unplanned' | 'Exceeded Limit';
  /** Whether the period counts as planned downtime in OEE (null and cleared count as unplanned). */
  countsAsPlanned: boolean;
}

const of = (planned: boolean | null, label: PlannedValue['label']): PlannedValue => ({
  planned,
  label,
  countsAsPlanned: planned === true,
});

/**
 * The planned value of a downtime period of `durationMs`, categorized with annotation type `type`
 * (null = uncategorized) and the operator's choice (only used with plannedBehavior 'operator').
 * Decision 0106: plannedWithLimit judges the whole period: within the limit all of it is planned, beyond
 * it all of it is "Exceeded Limit" (unplanned in OEE).
 */
export function plannedValue(
  type: AnnotationTypeLike | null | undefined,
  durationMs: number,
  operatorChoice?: boolean | null,
): PlannedValue {
  if (!type) return of(null, '');
  switch (type.plannedBehavior) {
    case 'planned':
      return of(true, 'Planned');
    case 'unplanned':
      return of(false, 'Unplanned');
    case 'plannedWithLimit':
      return durationMs <= (type.plannedLimitMs ?? DEFAULT_PLANNED_LIMIT_MS)
        ? of(true, 'Planned')
        : of(null, 'Exceeded Limit');
    case 'operator':
      return operatorChoice === true ? of(true, 'Planned') : of(false, 'Unplanned');
  }
}

/** Display text of a stored planned value (live-operations §4): true Planned, false Unplanned, null Exceeded Limit. */
export function plannedLabel(planned: boolean | null): 'Planned' | 'Unplanned' | 'Exceeded Limit' {
  return planned === true ? 'Planned' : planned === false ? 'Unplanned' : 'Exceeded Limit';
}
