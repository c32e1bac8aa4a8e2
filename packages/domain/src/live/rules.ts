import { DAY_MS, HOUR_MS, MINUTE_MS } from '../brand';

// live-operations §4, §5, §9: the operator-side rules that produce or display numbers.

// ---- Setup: kept parts (live-operations §4 Setup, §5 "Parts to keep")

export interface SetupRemoval {
  /** Parts kept, clamped to 0..setup parts. */
  kept: number;
  /** Parts removed = setup parts − kept. */
  removed: number;
  /** The negative part adjustment to save, only when removed > 0. */
  adjustment: { count: number } | null;
}

/** Kept parts are clamped to 0..setupParts; a negative adjustment is saved only when something is removed. */
export function setupRemoval(setupParts: number, keptInput: number): SetupRemoval {
  const made = Math.max(0, Math.floor(setupParts));
  const kept = Math.min(made, Math.max(0, Math.floor(Number.isFinite(keptInput) ? keptInput : 0)));
  const removed = made - kept;
  return { kept, removed, adjustment: removed > 0 ? { count: -removed } : null };
}

// ---- Rejects (live-operations §5, reports-admin §5)

export type RejectBehavior = 'scrap' | 'nonconform';
export type ReasonRejectBehavior = 'operator' | RejectBehavior;

/** The behavior comes from the reason, unless the reason lets the operator choose. */
export function rejectBehaviorFor(
  reason: ReasonRejectBehavior,
  operatorChoice: RejectBehavior | null,
): RejectBehavior {
  return reason === 'operator' ? (operatorChoice ?? 'scrap') : reason;
}

/** The scrap/nonconform radios are enabled only when the behavior is editable and a category exists. */
export const rejectTypeEditable = (reason: ReasonRejectBehavior | null, hasCategory: boolean): boolean =>
  hasCategory && reason === 'operator';

/** "Remove from good parts" is hidden by the company flag, when not allowed, and on manual work centers. */
export function removeFromGoodPartsShown(o: {
  hideFlag: boolean;
  allowed: boolean;
  manual: boolean;
}): boolean {
  return !o.hideFlag && o.allowed && !o.manual;
}

/**
 * The part adjustment count sent with a reject: 0 when removed from good parts (the machine counted them,
 * they leave the good parts), else the scrap count (they were never counted). Decision 0107: manual work
 * centers skip the checkbox and send 0 (their parts were entered by hand and are already counted).
 */
export function rejectAdjustmentCount(o: {
  scrapcount: number;
  removeFromGoodParts: boolean;
  manual?: boolean;
}): number {
  if (o.manual) return 0;
  return o.removeFromGoodParts ? 0 : o.scrapcount;
}

/** Reject count validation: required, a number, at least 1. */
export function validRejectCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 1;
}

// ---- Downtime list (live-operations §2, §4, §5)

export const SETUP_REASON_NAME = 'Setup';
export const MULTIPLE_REASON_LABEL = 'Multiple';

export interface DowntimePeriodLike {
  start: number;
  /** null while the downtime is still going on. */
  end: number | null;
  reason: string | null;
  setup?: boolean;
  /**
   * METRICS.md §1 No data (decision 1060): a piece of a period the machine sent no data in, reason "No data".
   * It is no operator's category (shown while categorized periods are hidden) and no idle stop either: hidden
   * by "Only Uncategorized" and never selectable for "Categorize Multiple".
   */
  noData?: boolean;
}

export interface DowntimeListOptions {
  /** Company downtime_list_filter_duration, in ms. */
  filterDurationMs: number;
  showShort: boolean;
  showCategorized: boolean;
  onlyUncategorized?: boolean;
  /** "Only Long Downtimes": periods longer than `longDowntimeMs` only. */
  onlyLong?: boolean;
  /**
   * The company's long-downtime threshold (reports-admin §9, decision 1087), in ms; the filter duration when
   * not given.
   */
  longDowntimeMs?: number;
}

export interface DowntimeListItem<T> {
  period: T;
  durationMs: number;
  categorized: boolean;
  /** Categorized periods cannot be selected in Select Multiple mode. */
  selectable: boolean;
}

const durationOf = (p: DowntimePeriodLike, now: number) => (p.end ?? now) - p.start;

/**
 * The downtime list: periods with reason "Setup" are excluded; short periods (duration at or below the filter
 * duration) are hidden unless shown; categorized ones hidden unless shown, and never selectable.
 */
export function downtimeListItems<T extends DowntimePeriodLike>(
  periods: readonly T[],
  now: number,
  o: DowntimeListOptions,
): DowntimeListItem<T>[] {
  const out: DowntimeListItem<T>[] = [];
  for (const p of periods) {
    if (p.setup || p.reason === SETUP_REASON_NAME) continue;
    const durationMs = durationOf(p, now);
    const short = durationMs <= o.filterDurationMs;
    const noData = p.noData === true;
    const categorized = !noData && p.reason !== null && p.reason !== '';
    if (short && !o.showShort) continue;
    if (o.onlyLong && durationMs <= (o.longDowntimeMs ?? o.filterDurationMs)) continue;
    if (categorized && (!o.showCategorized || o.onlyUncategorized)) continue;
    if (noData && o.onlyUncategorized) continue;
    out.push({ period: p, durationMs, categorized, selectable: !categorized && !noData });
  }
  return out;
}

/** Multi-select categorization: at least one period, all uncategorized; the selection shows as "Multiple". */
export function multiSelection<T extends DowntimePeriodLike>(
  selected: readonly T[],
): { ok: true; label: string } | { ok: false; message: string } {
  if (selected.length === 0) return { ok: false, message: 'Select at least one downtime period.' };
  if (selected.some((p) => p.reason !== null && p.reason !== ''))
    return { ok: false, message: 'Categorized periods cannot be selected.' };
  return { ok: true, label: selected.length > 1 ? MULTIPLE_REASON_LABEL : (selected[0]?.reason ?? '') };
}

/** A period ended by an annotation restarts the live downtime from that end (live-operations §4). */
export const liveDowntimeStart = (downtimeStart: number, annotationEnd: number | null): number =>
  annotationEnd !== null && annotationEnd > downtimeStart ? annotationEnd : downtimeStart;

// ---- Timeline categorize form (live-operations §4, §9)

export const SPLIT_MIN_HALF_MS = 10_000;

/** An annotation can be split in half only when half its duration exceeds 10 s. */
export const canSplitInHalf = (durationMs: number): boolean => durationMs / 2 > SPLIT_MIN_HALF_MS;

/** The two halves of [start, end), or null when too short to split. */
export function splitInHalf(
  start: number,
  end: number,
): [{ start: number; end: number }, { start: number; end: number }] | null {
  if (!canSplitInHalf(end - start)) return null;
  const mid = start + Math.floor((end - start) / 2);
  return [
    { start, end: mid },
    { start: mid, end },
  ];
}

/** Merge with the next annotation: never into a setup annotation. */
export const canMergeInto = (next: { setup?: boolean | null } | null | undefined): boolean =>
  !!next && !next.setup;

export interface AnnotationDraft {
  start: number;
  end: number | null;
  endExplicit: boolean;
  category_id: string | null;
  setup: boolean;
  activesetup: boolean;
  message?: string | null;
  planned?: boolean | null;
}

/**
 * live-operations §5: annotations are saved only with a category or as setup, and not while active setup;
 * setup annotations drop their category; end is sent null unless explicitly set. Returns null when not saved.
 */
export function annotationToSave(a: AnnotationDraft): Omit<AnnotationDraft, 'endExplicit'> | null {
  if (a.activesetup) return null;
  if (!a.setup && !a.category_id) return null;
  const { endExplicit, ...rest } = a;
  return { ...rest, category_id: a.setup ? null : a.category_id, end: endExplicit ? a.end : null };
}

// ---- Display (live-operations §9; METRICS.md §6: rounding happens only when formatting)

/** Part-time display: under 1 h m:ss, under 1 day h:mm:ss, under 30 days days, otherwise months. */
export function formatPartTime(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const s = total % 60;
  const m = Math.floor(total / 60) % 60;
  const h = Math.floor(total / 3600);
  const two = (n: number) => String(n).padStart(2, '0');
  if (ms < HOUR_MS) return `${Math.floor(total / 60)}:${two(s)}`;
  if (ms < DAY_MS) return `${h}:${two(m)}:${two(s)}`;
  if (ms < 30 * DAY_MS) {
    const d = Math.floor(ms / DAY_MS);
    return `${d} ${d === 1 ? 'day' : 'days'}`;
  }
  const months = Math.floor(ms / (30 * DAY_MS));
  return `${months} ${months === 1 ? 'month' : 'months'}`;
}

/** 10 ** decimals for the decimals the rules use. */
const SCALE = [1, 10, 100, 1000];

const fixed = (x: number, decimals: number) => {
  const f = SCALE[decimals] ?? 10 ** decimals;
  // Round half away from zero on the decimal value, avoiding 1.005 → 1.00 binary artefacts.
  const n = Math.round(Math.abs(x) * f + 1e-9);
  if (!(n < 1e15)) {
    // Large, infinite or NaN: as toFixed writes them.
    const r = (Math.sign(x) * n) / f;
    return (Object.is(r, -0) ? 0 : r).toFixed(decimals);
  }
  // The digits of the integer n with the point `decimals` from the right: what toFixed writes for n / f, which
  // is n's nearest decimal of that many places below 1e15 (decision 1216: a report CSV formats ~60,000 cells,
  // and toFixed was most of it). -0 writes as 0.
  const sign = x < 0 && n > 0 ? '-' : '';
  // Decision 1236: the digits of small n written once per process (a report's percents and hours are a few thousand
  // distinct values over its ~60,000 cells), then shared.
  const kept = n < DIGITS_KEPT ? digitsKept[decimals] : undefined;
  const digits = kept?.[n] ?? digitsOf(n, decimals, f);
  if (kept) kept[n] = digits;
  return sign === '' ? digits : sign + digits;
};

/** The digits of the integer n with the point `decimals` from the right (see fixed). */
const digitsOf = (n: number, decimals: number, f: number): string => {
  if (decimals === 0) return String(n);
  const whole = Math.floor(n / f);
  const frac = String(n - whole * f);
  return `${whole}.${frac.length < decimals ? '0'.repeat(decimals - frac.length) + frac : frac}`;
};

/** fixed's digits of n below this, kept per decimals 0–3 once written (at most 4 × 10,000 short strings). */
const DIGITS_KEPT = 10_000;
const digitsKept: Array<Array<string | undefined>> = SCALE.map(() =>
  new Array<string | undefined>(DIGITS_KEPT).fill(undefined),
);

export const formatParts = (n: number): string => fixed(n, 0);
export const formatDowntimeMinutes = (ms: number): string => fixed(ms / MINUTE_MS, 2);
export const formatInCycleHours = (ms: number): string => fixed(ms / HOUR_MS, 1);

/** Percent contexts (live-operations §9, reports-admin §2). */
export const PERCENT_DECIMALS = { oeeTable: 1, tile: 1, shiftMatrix: 0, utilization: 0 } as const;

/** A fraction as a percent with the context's decimals; null renders as '-' (METRICS.md §3). */
export function formatPercent(fraction: number | null, context: keyof typeof PERCENT_DECIMALS): string {
  if (fraction === null || !Number.isFinite(fraction)) return '-';
  return fixed(fraction * 100, PERCENT_DECIMALS[context]);
}

/** Parts per hour = 3,600,000 / cycle time (ms); null without a cycle time. */
export const partsPerHour = (cycleTimeMs: number): number | null =>
  cycleTimeMs > 0 ? HOUR_MS / cycleTimeMs : null;
export const formatPartsPerHour = (cycleTimeMs: number): string => {
  const p = partsPerHour(cycleTimeMs);
  return p === null ? '-' : fixed(p, 1);
};

// ---- Cycle display rules (live-operations §9)

/** A part cycle more than 20 % over expected is slow. */
export const isSlowCycle = (durationMs: number, expectedMs: number): boolean =>
  expectedMs > 0 && durationMs > expectedMs * 1.2;
/** Slow parts show when the window is at most 75× the average cycle; fast parts at most 10×. */
export const showSlowParts = (windowMs: number, averageCycleMs: number): boolean =>
  averageCycleMs > 0 && windowMs <= 75 * averageCycleMs;
export const showFastParts = (windowMs: number, averageCycleMs: number): boolean =>
  averageCycleMs > 0 && windowMs <= 10 * averageCycleMs;
/** A program is shown individually only if its duration is at least 1/150 of the window. */
export const showProgram = (durationMs: number, windowMs: number): boolean => durationMs * 150 >= windowMs;
export const SUBPROGRAM_WINDOW_MS = 7_200_000;
/** Sub-programs load when the window is at most 2 h, padded to a 2-hour span around its middle. */
export function subprogramWindow(start: number, end: number): { start: number; end: number } | null {
  if (end - start > SUBPROGRAM_WINDOW_MS) return null;
  const pad = (SUBPROGRAM_WINDOW_MS - (end - start)) / 2;
  return { start: start - Math.floor(pad), end: end + Math.ceil(pad) };
}

// ---- Cycle-time entry (live-operations §5 company cycleinputoption)

export type CycleInputOption = 'timepercycle' | 'timeperpart' | 'partsperhour';

/** The stored cycle time (ms per cycle) from what the user typed, per the company's cycleinputoption. */
export function cycleTimeFromInput(
  option: CycleInputOption,
  value: number,
  partCountMultiplier: number,
): number | null {
  if (!(value > 0)) return null;
  switch (option) {
    case 'timepercycle':
      return value;
    case 'timeperpart':
      return value * partCountMultiplier;
    case 'partsperhour':
      return (HOUR_MS / value) * partCountMultiplier;
  }
}

/** Cycle time inputs: hours and minutes ≥ 0; seconds 0..60 (step 0.001). Returns ms or null when invalid. */
export function cycleTimeMs(hours: number, minutes: number, seconds: number): number | null {
  if (!(hours >= 0) || !(minutes >= 0) || !(seconds >= 0 && seconds <= 60)) return null;
  return Math.round(hours * HOUR_MS + minutes * MINUTE_MS + seconds * 1000);
}

/** Notes and description: at most 250 characters. */
export const NOTE_MAX_LENGTH = 250;
