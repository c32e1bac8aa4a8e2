import type { Selectable } from 'kysely';
import type { Annotation, AnnotationType } from '@takt/domain';
import type { AnnotationsTable, AnnotationTypesTable } from './schema';

// Row → domain mappings shared by the repositories and the rollup engine: each exists once.

/** live-operations §3 "Annotation type" (a downtime reason). */
export const toAnnotationType = (r: Selectable<AnnotationTypesTable>): AnnotationType => ({
  id: r.id,
  name: r.name,
  companyId: r.company_id,
  plannedBehavior: r.planned_behavior,
  plannedLimitMs: r.planned_limit_ms,
  color: r.color,
  hidden: r.hidden === 1,
});

/** The columns of an annotation row its domain object is made of. */
export type AnnotationRow = Pick<
  Selectable<AnnotationsTable>,
  | 'id'
  | 'machine_id'
  | 'annotation_type_id'
  | 'start_at'
  | 'end_at'
  | 'message'
  | 'planned'
  | 'setup'
  | 'active_setup'
>;

/** live-operations §3 Annotation: a machine's downtime categorized, split or marked as setup. */
export const toAnnotation = (r: AnnotationRow): Annotation => ({
  id: r.id,
  machineId: r.machine_id,
  category_id: r.annotation_type_id,
  annotationTypeId: r.annotation_type_id,
  start: r.start_at,
  end: r.end_at,
  message: r.message,
  planned: r.planned === null ? null : r.planned === 1,
  setup: r.setup === 1,
  activesetup: r.active_setup === 1,
  // An annotation without an explicit end follows its downtime period until it is ended.
  needstermination: r.end_at === null,
});
