import { DEFAULT_PLANNED_LIMIT_MS, MINUTE_MS } from '@takt/domain';
import type { AnnotationType, PartAdjustmentType, PlannedBehavior } from '@takt/domain';
import { t } from '@takt/ui';
import type { MessageKey } from '@takt/ui';
import { nameError, setErrors } from './form';

// Downtime reasons (annotation types) and reject reasons (part adjustment types): the admin forms' rules
// (reports-admin §2, §3, §5; live-operations §3).

/** reports-admin §3: "color (default #828282)". */
export const DEFAULT_REASON_COLOR = '#828282';

export const PLANNED_BEHAVIOR_LABEL: Record<PlannedBehavior, MessageKey> = {
  operator: 'admin.reasons.behavior.operator',
  planned: 'admin.reasons.behavior.planned',
  unplanned: 'admin.reasons.behavior.unplanned',
  plannedWithLimit: 'admin.reasons.behavior.plannedWithLimit',
};

/** reports-admin §5 "plannedWithLimit default limit 5 minutes, entered in minutes, stored in ms". */
export const DEFAULT_LIMIT_MINUTES = DEFAULT_PLANNED_LIMIT_MS / MINUTE_MS;

export const minutesToMs = (minutes: number): number => Math.round(minutes * MINUTE_MS);
/** ms → minutes as the form shows them (at most 2 decimals, reports-admin §9 downtime minutes). */
export const msToMinutes = (ms: number): number => Math.round((ms / MINUTE_MS) * 100) / 100;

export interface ReasonForm {
  name: string;
  plannedBehavior: PlannedBehavior;
  /** As typed, in minutes; only read for plannedWithLimit. */
  limitMinutes: string;
  color: string;
}

export const newReasonForm = (): ReasonForm => ({
  name: '',
  plannedBehavior: 'unplanned',
  limitMinutes: String(DEFAULT_LIMIT_MINUTES),
  color: DEFAULT_REASON_COLOR,
});

export const reasonFormOf = (r: AnnotationType): ReasonForm => ({
  name: r.name,
  plannedBehavior: r.plannedBehavior,
  limitMinutes: String(msToMinutes(r.plannedLimitMs ?? DEFAULT_PLANNED_LIMIT_MS)),
  color: r.color,
});

const COLOR = /^#[0-9a-fA-F]{6}$/;

export function reasonErrors(f: ReasonForm) {
  const limit = Number(f.limitMinutes);
  return setErrors({
    name: nameError(f.name),
    limitMinutes:
      f.plannedBehavior !== 'plannedWithLimit'
        ? null
        : f.limitMinutes.trim() === ''
          ? t('admin.reasons.limitRequired')
          : !Number.isFinite(limit) || limit <= 0
            ? t('admin.reasons.limitPositive')
            : null,
    color: COLOR.test(f.color) ? null : t('admin.colorInvalid'),
  });
}

/** The body of POST/PUT /api/annotationtypes; the limit goes in ms and only with plannedWithLimit. */
export function reasonBody(f: ReasonForm) {
  return {
    name: f.name.trim(),
    plannedBehavior: f.plannedBehavior,
    plannedLimitMs: f.plannedBehavior === 'plannedWithLimit' ? minutesToMs(Number(f.limitMinutes)) : null,
    color: f.color.toLowerCase(),
  };
}

/** The planned column: the behaviour, with the limit in minutes for plannedWithLimit. */
export function plannedText(r: Pick<AnnotationType, 'plannedBehavior' | 'plannedLimitMs'>): string {
  if (r.plannedBehavior !== 'plannedWithLimit') return t(PLANNED_BEHAVIOR_LABEL[r.plannedBehavior]);
  return t('admin.reasons.withLimit', {
    minutes: msToMinutes(r.plannedLimitMs ?? DEFAULT_PLANNED_LIMIT_MS),
  });
}

// ---- Reject reasons

export type RejectBehavior = PartAdjustmentType['reject_behavior'];

/** reports-admin §9 "Reject behaviors scrap or nonconform (Scrap or Non-Conforming)"; operator: chosen when rejecting. */
export const REJECT_BEHAVIOR_LABEL: Record<RejectBehavior, MessageKey> = {
  operator: 'admin.rejects.behavior.operator',
  scrap: 'admin.rejects.behavior.scrap',
  nonconform: 'admin.rejects.behavior.nonconform',
};

export interface RejectForm {
  name: string;
  reject_behavior: RejectBehavior;
  /** live-operations §5: only reasons flagged as scrap are offered by Reject Part. */
  scrap: boolean;
  color: string;
}

export const newRejectForm = (): RejectForm => ({
  name: '',
  reject_behavior: 'scrap',
  scrap: true,
  color: DEFAULT_REASON_COLOR,
});

export const rejectFormOf = (r: PartAdjustmentType): RejectForm => ({
  name: r.name,
  reject_behavior: r.reject_behavior,
  scrap: r.scrap,
  color: r.color,
});

export const rejectErrors = (f: RejectForm) =>
  setErrors({
    name: nameError(f.name),
    color: COLOR.test(f.color) ? null : t('admin.colorInvalid'),
  });

export const rejectBody = (f: RejectForm) => ({
  name: f.name.trim(),
  reject_behavior: f.reject_behavior,
  scrap: f.scrap,
  color: f.color.toLowerCase(),
});

/** Active first, then archived; each by name (the list the screen shows). */
export function byNameActiveFirst<T extends { name: string; hidden: boolean }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => Number(a.hidden) - Number(b.hidden) || a.name.localeCompare(b.name));
}
