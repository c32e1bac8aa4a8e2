// The rules an annotation is held to before it is stored (live-operations §5): the form's problems, and the
// machine and reason resolved in the caller's company.
import { plannedValue } from '@takt/domain';
import type { Annotation, AnnotationType } from '@takt/domain';
import { ApiError, notFound } from '../http/errors';
import type { AnnotationFields } from '../repositories/annotations';
import { getAnnotationType } from '../repositories/annotation-types';
import type { ServiceCtx } from './context';
import type { Issue } from './issues';
import { invalid, machineOr404 } from './issues';

export const ANNOTATION_SAVE_FAILED = 'Annotation could not be saved';

export const duplicateStart = () => new ApiError(409, 'DUPLICATE_ANNOTATION_START', ANNOTATION_SAVE_FAILED);

export interface AnnotationInput {
  machineId: string;
  start: number;
  /** null when not explicitly set: the annotation follows its downtime period (live-operations §5). */
  end: number | null;
  category_id: string | null;
  message?: string | null;
  /** The operator's choice, used only with plannedBehavior operator. */
  planned?: boolean | null;
  setup?: boolean;
  activesetup?: boolean;
}

export type ChangedAnnotation = Annotation & { deleted: boolean };

/** live-operations §5: a reason is required (unless setup), never while active setup, end after start. */
export function annotationIssues(a: AnnotationInput, prefix = ''): Issue[] {
  const issues: Issue[] = [];
  if (a.activesetup) {
    issues.push({
      field: `${prefix}activesetup`,
      code: 'active_setup',
      message: 'An active setup annotation cannot be saved.',
    });
  }
  if (!a.setup && !a.category_id) {
    issues.push({ field: `${prefix}category_id`, code: 'required', message: 'Select a downtime reason.' });
  }
  if (a.end !== null && a.end <= a.start) {
    issues.push({ field: `${prefix}end`, code: 'range', message: 'The end must be after the start.' });
  }
  if (a.message != null && a.message.length > 250) {
    issues.push({ field: `${prefix}message`, code: 'too_big', message: 'At most 250 characters' });
  }
  return issues;
}

export interface Resolved {
  fields: AnnotationFields;
  type: AnnotationType | null;
  operatorChoice: boolean | null;
}

/** Check machine and reason belong to the caller's company; setup drops the category (live-operations §5). */
export async function resolveInput(ctx: ServiceCtx, a: AnnotationInput, prefix = ''): Promise<Resolved> {
  await machineOr404(ctx, a.machineId);
  const setup = a.setup === true;
  const typeId = setup ? null : a.category_id;
  let type: AnnotationType | null = null;
  if (typeId) {
    type = (await getAnnotationType(ctx.scope, typeId)) ?? null;
    if (!type) throw notFound('Downtime reason');
    if (type.hidden) {
      throw invalid(ANNOTATION_SAVE_FAILED, [
        { field: `${prefix}category_id`, code: 'archived', message: 'This downtime reason is archived.' },
      ]);
    }
  }
  const operatorChoice = a.planned ?? null;
  return {
    fields: {
      machineId: a.machineId,
      typeId,
      start: a.start,
      end: a.end,
      message: a.message ?? null,
      // Stored planned value (METRICS.md §5); a duration-dependent one is settled by settlePlanned.
      planned: plannedValue(type, a.end === null ? 0 : a.end - a.start, operatorChoice).planned,
      setup,
    },
    type,
    operatorChoice,
  };
}

/** An uncategorized split marker (live-operations §4 "Split") can be categorized in place. */
export const isMarker = (a: Annotation) => a.category_id === null && !a.setup && !a.activesetup;
