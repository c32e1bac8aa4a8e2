import type { Annotation } from '@takt/domain';
import type { CompanyScope } from '@takt/db';
import { toAnnotation } from '@takt/db';
import { byConfig } from './config-cache';

// Annotations (live-operations §3): a machine's downtime categorized, split or marked as setup.
// SQL only; rows map through toAnnotation (@takt/db).

export async function getAnnotation(scope: CompanyScope, id: string): Promise<Annotation | undefined> {
  const row = await scope.selectFrom('annotations').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toAnnotation(row);
}

/** The machine's annotations, every column. */
const machineAnnotations = (scope: CompanyScope, machineId: string) =>
  scope.selectFrom('annotations').selectAll().where('machine_id', '=', machineId);

/** The machine's first annotation starting at (`=`) or after (`>`) `start`: earliest start, then earliest written. */
async function firstAnnotationFrom(
  scope: CompanyScope,
  machineId: string,
  op: '=' | '>',
  start: number,
): Promise<Annotation | undefined> {
  const row = await machineAnnotations(scope, machineId)
    .where('start_at', op, start)
    .orderBy('start_at')
    .orderBy('created_at')
    .executeTakeFirst();
  return row && toAnnotation(row);
}

/** The machine's annotation starting at `start` (the first written, should there be two). */
export const findAnnotationAt = (scope: CompanyScope, machineId: string, start: number) =>
  firstAnnotationFrom(scope, machineId, '=', start);

/** The id and last write time (updated_at: the occurredAt of the write that set it) of the annotation at `start`. */
export async function annotationWrittenAt(
  scope: CompanyScope,
  machineId: string,
  start: number,
): Promise<{ id: string; updatedAt: number } | undefined> {
  const row = await scope
    .selectFrom('annotations')
    .select(['id', 'updated_at'])
    .where('machine_id', '=', machineId)
    .where('start_at', '=', start)
    .executeTakeFirst();
  return row && { id: row.id, updatedAt: Number(row.updated_at) };
}

/** The machine's annotations that may touch [from, to): starting before `to`, ending after `from` or open. */
export async function listAnnotations(
  scope: CompanyScope,
  machineId: string,
  from: number,
  to: number,
): Promise<Annotation[]> {
  const rows = await machineAnnotations(scope, machineId)
    .where('start_at', '<', to)
    .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', from)]))
    .orderBy('start_at')
    .orderBy('created_at')
    .execute();
  return rows.map(toAnnotation);
}

/** The machine's annotations starting in [from, to]. */
export async function listAnnotationsStartingIn(
  scope: CompanyScope,
  machineId: string,
  from: number,
  to: number,
): Promise<Annotation[]> {
  const startingIn = machineAnnotations(scope, machineId).where((eb) => eb.between('start_at', from, to));
  return (await startingIn.orderBy('start_at').execute()).map(toAnnotation);
}

/** The first annotation of the machine that starts after `start`. */
export const nextAnnotation = (scope: CompanyScope, machineId: string, start: number) =>
  firstAnnotationFrom(scope, machineId, '>', start);

export interface AnnotationFields {
  machineId: string;
  typeId: string | null;
  start: number;
  end: number | null;
  message: string | null;
  planned: boolean | null;
  setup: boolean;
}

const bool = (b: boolean | null) => (b === null ? null : b ? 1 : 0);

export async function insertAnnotation(
  scope: CompanyScope,
  f: AnnotationFields,
  by: string | null,
  now: number,
): Promise<string> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('annotations', {
      id,
      machine_id: f.machineId,
      annotation_type_id: f.typeId,
      start_at: f.start,
      end_at: f.end,
      message: f.message,
      planned: bool(f.planned),
      setup: f.setup ? 1 : 0,
      active_setup: 0,
      created_by: by,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function updateAnnotationRow(
  scope: CompanyScope,
  id: string,
  f: Partial<Omit<AnnotationFields, 'machineId'>>,
  now: number,
): Promise<void> {
  await scope
    .updateTable('annotations')
    .set({
      ...(f.typeId !== undefined ? { annotation_type_id: f.typeId } : {}),
      ...(f.start !== undefined ? { start_at: f.start } : {}),
      ...(f.end !== undefined ? { end_at: f.end } : {}),
      ...(f.message !== undefined ? { message: f.message } : {}),
      ...(f.planned !== undefined ? { planned: bool(f.planned) } : {}),
      ...(f.setup !== undefined ? { setup: f.setup ? 1 : 0 } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteAnnotationRow(scope: CompanyScope, id: string): Promise<void> {
  await scope.deleteFrom('annotations').where('id', '=', id).execute();
}

/** The company's downtime_list_filter_duration (ms): shorter periods are "short" (live-operations §2, §5). */
export function downtimeListFilterMs(scope: CompanyScope): Promise<number> {
  // Kept by configuration generation in a report call (decision 1250: the company row is configuration).
  return byConfig(scope, 'downtime list filter', async () => {
    // companies is the tenancy root itself: read the caller's own row by the scope's company id.
    const row = await scope.db
      .selectFrom('companies')
      .select('downtime_list_filter_duration_ms')
      .where('id', '=', scope.companyId)
      .executeTakeFirstOrThrow();
    return Number(row.downtime_list_filter_duration_ms);
  });
}
