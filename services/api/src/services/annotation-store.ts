// Annotation storage as the services write it: every write marks the rollups dirty first, and the planned
// value that depends on a duration is settled after the write (METRICS.md §1, §5).
import { piecePlannedValue } from '@takt/domain';
import type { Annotation } from '@takt/domain';
import { historyChanged, historyOfRowChanged } from '@takt/db/rollups';
import type { CompanyScope } from '@takt/db';
import { notFound } from '../http/errors';
import type { AnnotationFields } from '../repositories/annotations';
import {
  deleteAnnotationRow as deleteRow,
  getAnnotation,
  insertAnnotation as insertRow,
  updateAnnotationRow as updateRow,
} from '../repositories/annotations';
import { getAnnotationType } from '../repositories/annotation-types';
import type { ServiceCtx } from './context';
import type { DowntimePiece } from './downtime';
import { downtimePieces } from './downtime';

// Writes. An annotation decides how its downtime counts (planned or not, METRICS.md §1), so every write marks
// the machine's rollups dirty from the earliest time it touches, in the same transaction, and the reports
// recompute them (ARCHITECTURE.md "Ingest contract": the affected rollups are recomputed). The old row is
// read before it changes, so its old start counts too.

export async function insertAnnotation(
  scope: CompanyScope,
  f: AnnotationFields,
  by: string | null,
  now: number,
): Promise<string> {
  await historyChanged(scope, f.machineId, f.start);
  return insertRow(scope, f, by, now);
}

export async function updateAnnotationRow(
  scope: CompanyScope,
  id: string,
  f: Partial<Omit<AnnotationFields, 'machineId'>>,
  now: number,
): Promise<void> {
  await historyOfRowChanged(scope, 'annotations', id, f.start);
  await updateRow(scope, id, f, now);
}

export async function deleteAnnotationRow(scope: CompanyScope, id: string): Promise<void> {
  await historyOfRowChanged(scope, 'annotations', id);
  await deleteRow(scope, id);
}

/**
 * Store the planned value of annotations whose value depends on their duration (plannedWithLimit without an
 * explicit end: the duration is that of the downtime piece it covers, measured to ctx.now while live).
 */
export async function settlePlanned(ctx: ServiceCtx, ids: readonly string[]): Promise<void> {
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

export async function reload(ctx: ServiceCtx, id: string): Promise<Annotation> {
  const a = await getAnnotation(ctx.scope, id);
  if (!a) throw notFound('Annotation');
  return a;
}
