import {
  NOTE_MAX_LENGTH,
  rejectAdjustmentCount,
  rejectBehaviorFor,
  rejectTypeEditable,
  removeFromGoodPartsShown,
  setupRemoval,
  validRejectCount,
} from '@takt/domain';
import type { ReasonRejectBehavior, RejectBehavior } from '@takt/domain';
import { t } from '@takt/ui';
import type { JobRow } from '../components/jobPicker/jobs';
import type { JobState } from '../offline/optimistic';
import { runIdOrRef } from '../offline/optimistic';

// The workcenter forms' rules and the command payloads they produce. Each payload is exactly the JSON body of
// the matching HTTP call (ARCHITECTURE.md "Offline sync contract"; endpoints/endpoints.ts COMMAND_HTTP_EQUIVALENT).

// ---- Start Job (live-operations §2, §4)

export interface Stage {
  id: string;
  name: string;
  stageOrder: number;
  archivedAt: number | null;
}

/** The company's setup stages (GET /api/setup/stages) as the Start Job and Setup overlays use them. */
export function stagesOf(raw: unknown): Stage[] {
  if (!Array.isArray(raw)) return [];
  return (raw as Record<string, unknown>[]).map((s) => ({
    id: String(s.id),
    name: String(s.name),
    stageOrder: typeof s.stageOrder === 'number' ? s.stageOrder : 0,
    archivedAt: typeof s.archivedAt === 'number' ? s.archivedAt : null,
  }));
}

export interface StartOptions {
  /** Start in setup is offered only when the job has a setup time. */
  setup: boolean;
  /** One button per stage when stages are enabled; empty: a single "Start Job in Setup". */
  stages: Stage[];
  /** Stages are enabled but none exist: "No setup stages configured." */
  noStages: boolean;
}

export function startOptions(
  job: Pick<JobRow, 'setuptime'>,
  stages: readonly Stage[],
  stagesEnabled: boolean | null,
): StartOptions {
  const active = stages.filter((s) => s.archivedAt == null).sort((a, b) => a.stageOrder - b.stageOrder);
  const enabled = stagesEnabled ?? active.length > 0;
  return {
    setup: job.setuptime != null,
    stages: enabled ? active : [],
    noStages: enabled && active.length === 0,
  };
}

export const stopJobPayload = (machineId: string, job: JobState) => ({
  id: machineId,
  jobId: job.jobId,
  laborActivitySetId: runIdOrRef(job),
});

// ---- Setup (live-operations §2, §4, §5)

export const stageTransitionPayload = (job: JobState, setupStageId: string) => ({
  laborActivitySetId: runIdOrRef(job),
  setupStageId,
});

export interface StartProductionDraft {
  keptParts: string;
  notes: string;
}

/** A Start Production problem, with the field it is about (the form marks that field invalid). */
export interface StartProductionError {
  field: keyof StartProductionDraft;
  message: string;
}

export function startProductionErrors(
  d: StartProductionDraft,
  setupParts: number | null,
): StartProductionError[] {
  const errors: StartProductionError[] = [];
  const n = Number(d.keptParts);
  if (d.keptParts.trim() === '' || !Number.isInteger(n) || n < 0)
    errors.push({ field: 'keptParts', message: t('setup.keptPartsInvalid') });
  else if (setupParts != null && n > setupParts)
    errors.push({ field: 'keptParts', message: t('setup.keptPartsTooMany', { max: setupParts }) });
  if (d.notes.length > NOTE_MAX_LENGTH)
    errors.push({ field: 'notes', message: t('form.notesTooLong', { max: NOTE_MAX_LENGTH }) });
  return errors;
}

/** Kept parts clamped to 0..setup parts when known (the server clamps again with what it counted). */
export function startProductionPayload(
  machineId: string,
  job: JobState,
  d: StartProductionDraft,
  setupParts: number | null,
) {
  const n = Math.max(0, Math.floor(Number(d.keptParts) || 0));
  const keptParts = setupParts == null ? n : setupRemoval(setupParts, n).kept;
  return { jsgId: runIdOrRef(job), machineId, message: d.notes.trim(), keptParts };
}

// ---- Reject Part (live-operations §2, §5)

export interface RejectReason {
  id: string;
  name: string;
  color: string | null;
  scrap: boolean;
  reject_behavior: ReasonRejectBehavior;
}

export function rejectReasonsOf(raw: unknown): RejectReason[] {
  if (!Array.isArray(raw)) return [];
  return (raw as Record<string, unknown>[])
    .filter((r) => r && r.scrap === true && r.hidden !== true) // only reasons flagged as scrap (§5)
    .map((r) => ({
      id: String(r.id),
      name: String(r.name),
      color: typeof r.color === 'string' ? r.color : null,
      scrap: true,
      reject_behavior: (['operator', 'scrap', 'nonconform'].includes(String(r.reject_behavior))
        ? r.reject_behavior
        : 'scrap') as ReasonRejectBehavior,
    }));
}

export interface RejectDraft {
  count: string;
  reasonId: string | null;
  behavior: RejectBehavior | null;
  message: string;
  removeFromGoodParts: boolean;
}

export const NEW_REJECT: RejectDraft = {
  count: '1',
  reasonId: null,
  behavior: null,
  message: '',
  removeFromGoodParts: true,
};

export interface RejectFormView {
  /** The scrap / non-conforming radios (reason behaviour operator only). */
  typeEditable: boolean;
  showRemoveFromGood: boolean;
  errors: { count?: string; reason?: string; message?: string };
  valid: boolean;
}

export function rejectFormView(
  d: RejectDraft,
  reasons: readonly RejectReason[],
  o: { hideRemoveFlag: boolean; manual: boolean },
): RejectFormView {
  const reason = reasons.find((r) => r.id === d.reasonId) ?? null;
  const errors: RejectFormView['errors'] = {};
  const count = Number(d.count);
  if (d.count.trim() === '' || !validRejectCount(count) || !Number.isInteger(count))
    errors.count = t('reject.countInvalid');
  if (!reason) errors.reason = t('reject.needReason');
  if (d.message.length > NOTE_MAX_LENGTH) errors.message = t('form.tooLong', { max: NOTE_MAX_LENGTH });
  return {
    typeEditable: rejectTypeEditable(reason?.reject_behavior ?? null, !!reason),
    showRemoveFromGood: removeFromGoodPartsShown({
      hideFlag: o.hideRemoveFlag,
      allowed: true,
      manual: o.manual,
    }),
    errors,
    valid: Object.keys(errors).length === 0,
  };
}

/** The reject as POST /api/partadjustment takes it: count 0 when removed from good parts (§5). */
export function rejectPayload(
  machineId: string,
  d: RejectDraft,
  reason: RejectReason,
  at: number,
  o: { manual: boolean; showRemoveFromGood: boolean },
) {
  const scrapcount = Math.floor(Number(d.count));
  const removeFromGoodParts = o.showRemoveFromGood ? d.removeFromGoodParts : true;
  const behavior = rejectBehaviorFor(reason.reject_behavior, d.behavior);
  return {
    machine_id: machineId,
    adjustmenttime: at,
    category_id: reason.id,
    scrapcount,
    count: rejectAdjustmentCount({ scrapcount, removeFromGoodParts, manual: o.manual }),
    message: d.message.trim() || null,
    scrap: true,
    deductFromGoodParts: o.manual ? true : removeFromGoodParts,
    reject_behavior: behavior,
  };
}

// ---- Downtime (live-operations §2, §4, §5)

export interface DowntimeReason {
  id: string;
  name: string;
  color: string;
  plannedBehavior: string;
}

export function downtimeReasonsOf(raw: unknown): DowntimeReason[] {
  if (!Array.isArray(raw)) return [];
  return (raw as Record<string, unknown>[])
    .filter((r) => r && r.hidden !== true)
    .map((r) => ({
      id: String(r.id),
      name: String(r.name),
      color: typeof r.color === 'string' ? r.color : '#828282',
      plannedBehavior: String(r.plannedBehavior ?? 'unplanned'),
    }));
}

export interface CategorizeDraft {
  reasonId: string | null;
  planned: boolean;
  description: string;
}

/** The planned checkbox shows only when the reason's plannedBehavior is operator (§2). */
export const plannedEditable = (r: DowntimeReason | null | undefined) => r?.plannedBehavior === 'operator';

/**
 * The underlay's reason grid saves on one tap only when nothing is left to ask: an operator-planned reason
 * first shows the planned checkbox and the description (live-operations §2 "Underlay").
 */
export const oneTapReason = (r: DowntimeReason) => !plannedEditable(r);

/** One annotation per period (POST /api/annotations body); end null: not explicitly set (§5). */
export function categorizePayload(
  machineId: string,
  start: number,
  d: CategorizeDraft,
  reason: DowntimeReason,
) {
  return {
    machineId,
    start,
    end: null,
    category_id: reason.id,
    message: d.description.trim() || null,
    ...(plannedEditable(reason) ? { planned: d.planned } : {}),
  };
}

export function categorizeErrors(d: CategorizeDraft, periods: number): string[] {
  const e: string[] = [];
  if (!d.reasonId) e.push(t('downtime.needReason'));
  if (periods < 1) e.push(t('downtime.needPeriod'));
  if (d.description.length > NOTE_MAX_LENGTH) e.push(t('form.descriptionTooLong', { max: NOTE_MAX_LENGTH }));
  return e;
}
