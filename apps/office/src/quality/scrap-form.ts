import {
  addDays,
  epochMs,
  formatDay,
  fromWall,
  NOTE_MAX_LENGTH,
  parseDay,
  partAdjustmentSchema,
  partAdjustmentTypeSchema,
  rejectAdjustmentCount,
  rejectBehaviorFor,
  rejectTypeEditable,
  removeFromGoodPartsShown,
  startOfLocalDay,
  toWall,
} from '@takt/domain';
import type { PartAdjustment, PartAdjustmentType, RejectBehavior } from '@takt/domain';
import { ApiError, isRecord, t } from '@takt/ui';

// The scrap form of the machine quality screen and the part corrections screen (reports-admin §2 "Machine
// quality", §4 "Scrap form: create, edit, delete; closing a dirty form asks confirmation", §5 scrap rules,
// §8 "Scrap save failure: server error list or single message in the form"; live-operations §5 reject rules).
// Pure: the form renders what these functions return, and they are unit-tested without a browser.

/** A reject (scrap or non-conforming) or a part correction (a signed change to the machine's count). */
export type AdjustmentKind = 'reject' | 'correction';

export type Adjustment = PartAdjustment;
export type Reason = PartAdjustmentType;

export const parseAdjustments = (v: unknown): Adjustment[] => partAdjustmentSchema.array().parse(v);
export const parseReasons = (v: unknown): Reason[] => partAdjustmentTypeSchema.array().parse(v);

/** What the form edits: text as typed, so a half-typed number is still shown and judged. */
export interface ScrapDraft {
  /** Company wall time, `YYYY-MM-DDTHH:MM:SS` (an <input type="datetime-local" step="1"> value). */
  time: string;
  /** Rejects: the parts rejected (scrapcount). Corrections: the signed count. */
  count: string;
  /** '' for none. */
  reasonId: string;
  /** The operator's choice; only used when the reason's reject_behavior is operator. */
  behavior: RejectBehavior | null;
  message: string;
  /** live-operations §5: "Remove from good parts" defaults to on. */
  removeFromGoodParts: boolean;
}

/** What the form needs to judge a draft besides the draft itself. */
export interface ScrapFormContext {
  kind: AdjustmentKind;
  /** The company time zone: times are typed and shown as company wall time. */
  timezone: string;
  reasons: readonly Reason[];
  /** The machine is a manual work center (live-operations §5 "Manual work centers skip this"). */
  manual: boolean;
  /** Company flag hide_remove_rejected_parts_checkbox. */
  hideRemoveFlag: boolean;
  /** Server time now (epoch ms), for the end-of-today cap. */
  now: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The company wall time of t as a datetime-local value, to the second. Whole minutes leave the seconds out,
 * as the browser's normalized value does, so an untouched field reads back unchanged.
 */
export function wallInput(timezone: string, t: number): string {
  const w = toWall(timezone, epochMs(t));
  const s = Math.floor(w.msOfDay / 1000);
  const hm = `${formatDay(w.day)}T${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}`;
  return s % 60 === 0 ? hm : `${hm}:${pad(s % 60)}`;
}

/** The instant a datetime-local value names in the company zone; null when it is not a valid time. */
export function parseWallInput(timezone: string, text: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(text.trim());
  if (!m) return null;
  const [h, min, s] = [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)];
  if (h > 23 || min > 59 || s > 59) return null;
  try {
    return fromWall(timezone, parseDay(m[1]!), ((h * 60 + min) * 60 + s) * 1000);
  } catch {
    return null;
  }
}

/** reports-admin §5 "Part adjustment date capped at end of today" (company day). */
export function endOfToday(timezone: string, now: number): number {
  return startOfLocalDay(timezone, addDays(toWall(timezone, epochMs(now)).day, 1));
}

/** The reasons the form offers: rejects only reasons flagged as scrap (live-operations §5); archived ones
 * are left out, except the one an edited entry already has. */
export function reasonsFor(kind: AdjustmentKind, all: readonly Reason[], currentId: string | null): Reason[] {
  return all.filter(
    (r) => (r.id === currentId || !r.hidden) && (kind === 'correction' || r.scrap || r.id === currentId),
  );
}

/** A new entry at `at`, or prefilled from a cycle (reports-admin §2 adjustmenttime and qty). */
export function newDraft(
  kind: AdjustmentKind,
  timezone: string,
  at: number,
  qty?: number | null,
): ScrapDraft {
  const n = qty != null && Number.isInteger(qty) && qty !== 0 ? qty : 1;
  return {
    time: wallInput(timezone, at),
    count: String(kind === 'reject' ? Math.max(1, Math.abs(n)) : n),
    reasonId: '',
    behavior: null,
    message: '',
    removeFromGoodParts: true,
  };
}

/** The draft of a stored entry, for editing. */
export function draftOf(a: Adjustment, timezone: string): ScrapDraft {
  return {
    time: wallInput(timezone, a.adjustmenttime),
    count: String(a.scrap ? a.scrapcount : a.count),
    reasonId: a.category_id ?? '',
    behavior: a.reject_behavior,
    message: a.message ?? '',
    removeFromGoodParts: a.scrap ? a.deductFromGoodParts : true,
  };
}

/** reports-admin §4: closing a form whose fields differ from what it opened with asks first. */
export const isDirty = (draft: ScrapDraft, initial: ScrapDraft): boolean =>
  (Object.keys(draft) as (keyof ScrapDraft)[]).some((k) => draft[k] !== initial[k]);

export interface ScrapFormView {
  errors: { time?: string; count?: string; reason?: string; message?: string };
  valid: boolean;
  /** The scrap / non-conforming radios are enabled (reason behaviour operator, live-operations §5). */
  typeEditable: boolean;
  /** The type the entry will be stored with (null for corrections, or before a reason is chosen). */
  behavior: RejectBehavior | null;
  /** "Remove from good parts" is shown (hidden by the company flag and on manual work centers). */
  showRemoveFromGood: boolean;
}

const wholeNumber = (text: string): number | null => {
  const trimmed = text.trim();
  if (!/^[-+]?\d+$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isSafeInteger(n) ? n : null;
};

/** The rules of reports-admin §5 and live-operations §5, as the user types. */
export function scrapFormView(d: ScrapDraft, ctx: ScrapFormContext): ScrapFormView {
  const errors: ScrapFormView['errors'] = {};
  const at = parseWallInput(ctx.timezone, d.time);
  if (at === null) errors.time = t('scrap.err.time');
  else if (at >= endOfToday(ctx.timezone, ctx.now)) errors.time = t('scrap.err.timeFuture');
  const n = wholeNumber(d.count);
  const reason = ctx.reasons.find((r) => r.id === d.reasonId) ?? null;
  if (ctx.kind === 'reject') {
    if (n === null || n < 1) errors.count = t('scrap.err.count');
    if (!reason) errors.reason = t('scrap.err.reason');
  } else if (n === null || n === 0) {
    errors.count = t('scrap.err.correctionCount');
  }
  if (d.message.length > NOTE_MAX_LENGTH) errors.message = t('scrap.err.message', { max: NOTE_MAX_LENGTH });
  const isReject = ctx.kind === 'reject';
  return {
    errors,
    valid: Object.keys(errors).length === 0,
    typeEditable: isReject && rejectTypeEditable(reason?.reject_behavior ?? null, reason !== null),
    behavior: isReject && reason ? rejectBehaviorFor(reason.reject_behavior, d.behavior) : null,
    showRemoveFromGood:
      isReject &&
      removeFromGoodPartsShown({ hideFlag: ctx.hideRemoveFlag, allowed: true, manual: ctx.manual }),
  };
}

/** The body of POST /api/partadjustment (create) or PUT /api/partadjustment/:id (edit). */
export interface ScrapBody {
  machine_id?: string;
  adjustmenttime: number;
  category_id: string | null;
  scrapcount?: number;
  count: number;
  message: string | null;
  scrap: boolean;
  deductFromGoodParts?: boolean;
  reject_behavior?: RejectBehavior | null;
}

/**
 * The entry as the API takes it; call only with a valid draft. reports-admin §5: "Scrap: count from
 * scrapcount unless deduct-from-good-parts, which sends 0; manual workcenters skip this" (they send 0 and no
 * checkbox: their parts were entered by hand, decision 0107). The type is sent only when the reason lets the
 * user choose it.
 */
export function scrapBody(d: ScrapDraft, ctx: ScrapFormContext): ScrapBody {
  const view = scrapFormView(d, ctx);
  const adjustmenttime = parseWallInput(ctx.timezone, d.time) ?? ctx.now;
  const n = wholeNumber(d.count) ?? 0;
  const message = d.message.trim() === '' ? null : d.message;
  if (ctx.kind === 'correction') {
    return { adjustmenttime, category_id: d.reasonId || null, count: n, message, scrap: false };
  }
  const deduct = view.showRemoveFromGood ? d.removeFromGoodParts : true;
  return {
    adjustmenttime,
    category_id: d.reasonId || null,
    scrapcount: n,
    count: rejectAdjustmentCount({ scrapcount: n, removeFromGoodParts: deduct, manual: ctx.manual }),
    message,
    scrap: true,
    deductFromGoodParts: deduct,
    ...(view.typeEditable ? { reject_behavior: view.behavior } : {}),
  };
}

/** What a failed save shows in the form: the server's heading and its list of problems, or one message. */
export interface SaveFailure {
  message: string;
  items: string[];
}

/** reports-admin §8 "Scrap save failure: server error list or single message in the form". */
export function saveFailure(err: unknown, kind: AdjustmentKind): SaveFailure {
  const fallback = kind === 'reject' ? t('scrap.err.rejectFailed') : t('scrap.err.correctionFailed');
  if (err instanceof ApiError) {
    const items = Array.isArray(err.issues)
      ? err.issues
          .map((i) => (isRecord(i) && typeof i.message === 'string' ? i.message : null))
          .filter((m): m is string => m !== null && m !== '')
      : [];
    return { message: err.message || fallback, items };
  }
  return { message: err instanceof Error && err.message ? err.message : fallback, items: [] };
}

// ---- The screens' URLs (reports-admin §2)

export interface Prefill {
  adjustmenttime: number;
  qty: number | null;
}

/** adjustmenttime and qty in the URL open the form prefilled; anything unreadable opens nothing. */
export function readPrefill(q: URLSearchParams): Prefill | null {
  const raw = q.get('adjustmenttime');
  if (raw === null || raw.trim() === '') return null;
  const at = Number(raw);
  if (!Number.isFinite(at) || at <= 0) return null;
  const qtyRaw = q.get('qty');
  const qty =
    qtyRaw !== null && qtyRaw.trim() !== '' && Number.isInteger(Number(qtyRaw)) ? Number(qtyRaw) : null;
  return { adjustmenttime: Math.floor(at), qty };
}

/** The URL without the prefill, once the form it opened is saved or closed (a reload opens nothing). */
export function withoutPrefill(q: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(q);
  next.delete('adjustmenttime');
  next.delete('qty');
  return next;
}

/**
 * /machine/{id}/quality (kind reject) or /app/machines/{id}/part-corrections (kind correction) for a cycle:
 * the cycle's time and part count prefill the form, and the range keeps the cycle in view. The Cycles
 * report's "Reject Part" and "Correct Part" row actions link here (reports-admin §2).
 */
export function adjustmentHref(
  kind: AdjustmentKind,
  machineId: string,
  o: { adjustmenttime: number; qty: number; start?: number; end?: number },
): string {
  const q = new URLSearchParams();
  if (o.start !== undefined && o.end !== undefined) {
    q.set('start', String(o.start));
    q.set('end', String(o.end));
  }
  q.set('adjustmenttime', String(o.adjustmenttime));
  q.set('qty', String(o.qty));
  const id = encodeURIComponent(machineId);
  const path = kind === 'reject' ? `/machine/${id}/quality` : `/app/machines/${id}/part-corrections`;
  return `${path}?${q.toString()}`;
}

// ---- The grid

export interface ScrapSummary {
  entries: number;
  /** Rejects: Σ scrapcount; corrections: Σ count. */
  parts: number;
  scrap: number;
  nonconform: number;
}

export function scrapSummary(rows: readonly Adjustment[], kind: AdjustmentKind): ScrapSummary {
  let parts = 0;
  let scrap = 0;
  let nonconform = 0;
  for (const r of rows) {
    if (kind === 'correction') {
      parts += r.count;
      continue;
    }
    parts += r.scrapcount;
    if (r.reject_behavior === 'nonconform') nonconform += r.scrapcount;
    else scrap += r.scrapcount;
  }
  return { entries: rows.length, parts, scrap, nonconform };
}

/** Newest first, as the quality report's list (reports-admin §7). */
export const newestFirst = (rows: readonly Adjustment[]): Adjustment[] =>
  [...rows].sort((a, b) => b.adjustmenttime - a.adjustmenttime || a.id.localeCompare(b.id));

export const typeLabel = (b: RejectBehavior | null): string =>
  b === 'nonconform' ? t('reject.nonconform') : b === 'scrap' ? t('reject.scrap') : '';

/** A correction's count with its sign (+3, −2). */
export const signedCount = (n: number): string => (n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : '0');
