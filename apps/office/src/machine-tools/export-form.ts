import { epochMs, formatDay, fromWall, parseDay, toWall } from '@takt/domain';
import { t } from '@takt/ui';

// The event-data export form (reports-admin §2 "an event-data export page"; §5 "Event export: 'Start Date must
// be before End Date' otherwise; minimum two years back, maximum now"; §7 "machineId, start, end, filterKeys;
// response not shown; user told file comes within an hour"; §8 success "We'll send that to you within an
// hour."; decision 0702). The form's dates are wall times in the company's zone (datetime-local inputs).
// Pure: the page gives it the inputs and the server's clock.

/** The texts of §5 and §8, exactly as the server answers them (services/api services/event-exports.ts). */
export const EXPORT_TEXTS = {
  startBeforeEnd: 'Start Date must be before End Date',
  tooOld: 'Start Date cannot be more than 2 years ago',
  future: 'End Date cannot be in the future',
  queued: "We'll send that to you within an hour.",
} as const;

/** reports-admin §9 "Export minimum 2 years back": the same calendar instant two years earlier (UTC). */
export function exportEarliest(now: number): number {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() - 2);
  return d.getTime();
}

const LOCAL = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/;

/** A datetime-local value ("2026-11-25T14:30") in `tz` as epoch ms; null when it is not one. */
export function fromLocalInput(text: string, tz: string): number | null {
  const m = LOCAL.exec(text.trim());
  if (!m) return null;
  const [h, min] = [Number(m[2]), Number(m[3])];
  if (h > 23 || min > 59) return null;
  try {
    return fromWall(tz, parseDay(m[1]!), (h * 60 + min) * 60_000);
  } catch {
    return null;
  }
}

/** Epoch ms as a datetime-local value in `tz` (minutes; seconds dropped). */
export function toLocalInput(ms: number, tz: string): string {
  const w = toWall(tz, epochMs(ms));
  const minutes = Math.floor(w.msOfDay / 60_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${formatDay(w.day)}T${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

export interface ExportDraft {
  /** datetime-local text, company wall time */
  start: string;
  end: string;
  /** The fields to export; none chosen exports every field (decision 0702). */
  keys: readonly string[];
}

export type ExportErrors = Partial<Record<'start' | 'end', string>>;

export interface ExportCheck {
  errors: ExportErrors;
  /** The request body when the draft is valid. */
  request: { machineId: string; start: number; end: number; filterKeys: string[] } | null;
}

/**
 * Validates as the user types (UI.md) with the spec's rules and texts: both dates present and valid, start
 * not more than two years back, end not after now, start before end (§5). `now` is the server's clock.
 */
export function checkExport(draft: ExportDraft, machineId: string, tz: string, now: number): ExportCheck {
  const errors: ExportErrors = {};
  const start = fromLocalInput(draft.start, tz);
  const end = fromLocalInput(draft.end, tz);
  if (draft.start.trim() === '') errors.start = t('machineTools.export.startRequired');
  else if (start === null) errors.start = t('machineTools.export.invalidDate');
  else if (start < exportEarliest(now)) errors.start = EXPORT_TEXTS.tooOld;
  if (draft.end.trim() === '') errors.end = t('machineTools.export.endRequired');
  else if (end === null) errors.end = t('machineTools.export.invalidDate');
  // The picker works in minutes: an end in the current minute is "now".
  else if (end > now + 60_000) errors.end = EXPORT_TEXTS.future;
  if (start !== null && end !== null && !(start < end)) errors.end = EXPORT_TEXTS.startBeforeEnd;
  const ok = Object.keys(errors).length === 0 && start !== null && end !== null;
  return {
    errors,
    request: ok ? { machineId, start, end: Math.min(end, now), filterKeys: [...draft.keys] } : null,
  };
}

/** The form's first state: the last 24 hours up to the current minute, every field. */
export function defaultDraft(now: number, tz: string): ExportDraft {
  return { start: toLocalInput(now - 86_400_000, tz), end: toLocalInput(now, tz), keys: [] };
}

/** The datetime-local bounds (min two years back, max now) for the inputs' min and max attributes. */
export function inputBounds(now: number, tz: string): { min: string; max: string } {
  // The earliest whole minute not before the limit.
  return {
    min: toLocalInput(Math.ceil(exportEarliest(now) / 60_000) * 60_000, tz),
    max: toLocalInput(now, tz),
  };
}

/** The problems a 400 answer lists, as the field texts of the form (anything else as a form-level text). */
export function serverErrors(details: unknown): { errors: ExportErrors; other: string[] } {
  const issues = Array.isArray(details) ? (details as Array<Record<string, unknown>>) : [];
  const errors: ExportErrors = {};
  const other: string[] = [];
  for (const i of issues) {
    const message = typeof i.message === 'string' ? i.message : null;
    if (!message) continue;
    const field = Array.isArray(i.path) ? i.path.join('.') : i.field;
    if (field === 'start' || field === 'end') errors[field] = message;
    else other.push(message);
  }
  return { errors, other };
}
