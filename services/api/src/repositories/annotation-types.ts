import type { AnnotationType, PlannedBehavior } from '@takt/domain';
import type { CompanyScope } from '@takt/db';
import { toAnnotationType } from '@takt/db';

// Downtime reasons (live-operations §3 "Annotation type"). SQL only; rows map through toAnnotationType (@takt/db).

export async function listAnnotationTypes(
  scope: CompanyScope,
  opts: { includeHidden?: boolean } = {},
): Promise<AnnotationType[]> {
  let q = scope.selectFrom('annotation_types').selectAll();
  if (!opts.includeHidden) q = q.where('hidden', '=', 0);
  const rows = await q.orderBy('name').orderBy('id').execute();
  return rows.map(toAnnotationType);
}

export async function getAnnotationType(
  scope: CompanyScope,
  id: string,
): Promise<AnnotationType | undefined> {
  const row = await scope.selectFrom('annotation_types').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toAnnotationType(row);
}

export async function getAnnotationTypes(
  scope: CompanyScope,
  ids: readonly string[],
): Promise<Map<string, AnnotationType>> {
  if (ids.length === 0) return new Map();
  const rows = await scope
    .selectFrom('annotation_types')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, toAnnotationType(r)]));
}

export interface AnnotationTypeFields {
  name: string;
  plannedBehavior: PlannedBehavior;
  plannedLimitMs: number | null;
  color: string;
}

export async function insertAnnotationType(
  scope: CompanyScope,
  fields: AnnotationTypeFields,
  now: number,
): Promise<string> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('annotation_types', {
      id,
      name: fields.name,
      planned_behavior: fields.plannedBehavior,
      planned_limit_ms: fields.plannedLimitMs,
      color: fields.color,
      hidden: 0,
      created_at: now,
    })
    .execute();
  return id;
}

export async function updateAnnotationTypeRow(
  scope: CompanyScope,
  id: string,
  fields: Partial<AnnotationTypeFields> & { hidden?: boolean },
): Promise<void> {
  await scope
    .updateTable('annotation_types')
    .set({
      ...(fields.name !== undefined ? { name: fields.name } : {}),
      ...(fields.plannedBehavior !== undefined ? { planned_behavior: fields.plannedBehavior } : {}),
      ...(fields.plannedLimitMs !== undefined ? { planned_limit_ms: fields.plannedLimitMs } : {}),
      ...(fields.color !== undefined ? { color: fields.color } : {}),
      ...(fields.hidden !== undefined ? { hidden: fields.hidden ? 1 : 0 } : {}),
    })
    .where('id', '=', id)
    .execute();
}
