import { historyChanged } from '@takt/db/rollups';
import { DEFAULT_PLANNED_LIMIT_MS } from '@takt/domain';
import type { AnnotationType, PlannedBehavior } from '@takt/domain';
import { notFound } from '../http/errors';
import {
  getAnnotationType,
  insertAnnotationType,
  listAnnotationTypes as listTypeRows,
  updateAnnotationTypeRow,
} from '../repositories/annotation-types';
import type { ServiceCtx } from './context';
import type { Issue } from './issues';
import { invalid, machineOr404 } from './issues';

// Downtime reasons, stored as annotation types (live-operations §3 Annotation type, §5, §7, §8).

export const REASON_SAVE_FAILED = 'Downtime reason could not be saved.';
/** The colour a reason gets when none is picked. */
export const DEFAULT_REASON_COLOR = '#828282';

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
  const updated = (await getAnnotationType(ctx.scope, id))!;
  if (
    updated.plannedBehavior !== current.plannedBehavior ||
    updated.plannedLimitMs !== current.plannedLimitMs
  )
    await reasonHistoryChanged(ctx, id);
  return updated;
}

/**
 * A reason's planned behavior or limit changed: every stored figure of a downtime with that reason is stale
 * (planned time counts apart, METRICS.md), so each machine that has one is marked for recomputation from its
 * first such downtime; the rollup worker recomputes in bounded slices.
 */
async function reasonHistoryChanged(ctx: ServiceCtx, typeId: string): Promise<void> {
  const firsts = await ctx.scope
    .selectFrom('annotations')
    .select(['machine_id', (eb) => eb.fn.min<number>('start_at').as('from')])
    .where('annotation_type_id', '=', typeId)
    .groupBy('machine_id')
    .execute();
  for (const f of firsts) await historyChanged(ctx.scope, f.machine_id, Number(f.from));
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
