import type { AppliedRange, Horizon } from '@takt/ui';
import { arrayOf, nullable, number, object, parseWith, string, tr } from '@takt/ui';
import { PATHS } from '../routes';

// reports-admin §2 "Quality report" (company-wide, a group or one machine) over
// GET /api/partadjustment/allRejectsByCategory and GET /api/partadjustment/rejects (reports-admin §7;
// decision 0806). Pure: the page renders what these functions return, tested without a browser.

export const QUALITY_HORIZONS: readonly Horizon[] = ['hour', 'day'];
export const DEFAULT_QUALITY_HORIZON: Horizon = 'day';
/** reports-admin §9 "reject list page 25"; §7 limit 25, offset 25 × (page − 1). */
export const REJECT_PAGE_SIZE = 25;
/**
 * The `reason` URL value of rejects without a reject reason (they have no part adjustment type id); the reject
 * calls take it as category_id (decision 0812).
 */
export const UNCATEGORIZED = 'uncategorized';

const totalsCheck = object({
  rejects: arrayOf(
    object({
      scrapCount: number,
      partadjustmentType: object({ id: nullable(string), name: string, color: string }),
      category_id: nullable(string),
      machine: nullable(object({ id: string, name: string })),
    }),
  ),
});
export type RejectTotals = ReturnType<typeof totalsCheck>;
export type RejectTotal = RejectTotals['rejects'][number];
export const parseRejectTotals = parseWith(totalsCheck);

const listCheck = object({
  rows: arrayOf(
    object({
      id: string,
      adjustmenttime: number,
      machine_id: string,
      machine_name: string,
      category_id: nullable(string),
      partadjustmentType: nullable(object({ name: string, color: string })),
      scrapcount: number,
      message: nullable(string),
      jobName: nullable(string),
      reject_behavior: nullable(string),
    }),
  ),
  count: number,
  limit: number,
  offset: number,
});
export type RejectPage = ReturnType<typeof listCheck>;
export type RejectRow = RejectPage['rows'][number];
export const parseRejectPage = parseWith(listCheck);

/** What the page shows, from its URL. */
export interface QualitySelection {
  range: AppliedRange;
  group: string | null;
  machine: string | null;
}

/** The reason drilled into (a part adjustment type id or 'uncategorized'), null for all. */
export const readReason = (q: URLSearchParams): string | null => q.get('reason') || null;
/** The list's page, 1 on anything that is not a whole number above 0. */
export function readPage(q: URLSearchParams): number {
  const n = Number(q.get('page'));
  return Number.isInteger(n) && n >= 1 ? n : 1;
}
/** Drilling into a reason starts its list on page 1. */
export function writeReason(q: URLSearchParams, reason: string | null): URLSearchParams {
  const next = new URLSearchParams(q);
  if (reason) next.set('reason', reason);
  else next.delete('reason');
  next.delete('page');
  return next;
}
export function writePage(q: URLSearchParams, page: number): URLSearchParams {
  const next = new URLSearchParams(q);
  if (page > 1) next.set('page', String(page));
  else next.delete('page');
  return next;
}

/**
 * GET /api/partadjustment/allRejectsByCategory, per reason and machine (groupByMachine): the pareto sums the
 * machines, the stacked chart and the drill-down read them. The call takes no machine: one machine's figures
 * are its rows of the same answer.
 */
export function totalsQuery(s: QualitySelection): Record<string, string | number> {
  const q: Record<string, string | number> = {
    start: s.range.start,
    end: s.range.end,
    groupByMachine: 'true',
  };
  if (s.group && !s.machine) q.group = s.group;
  return q;
}

/** GET /api/partadjustment/rejects: one page of 25, newest first (reports-admin §7). */
export function rejectsQuery(
  s: QualitySelection,
  reason: string | null,
  page: number,
): Record<string, string | number> {
  const q: Record<string, string | number> = {
    start: s.range.start,
    end: s.range.end,
    limit: REJECT_PAGE_SIZE,
    offset: REJECT_PAGE_SIZE * (page - 1),
  };
  if (s.machine) q.machine_id = s.machine;
  else if (s.group) q.group = s.group;
  // category_id=uncategorized selects the rejects without a reason (decision 0812).
  if (reason) q.category_id = reason;
  return q;
}

/**
 * The CSV of the reject list (format=csv with the user token, reports-admin §7): every reject of the list's
 * filter, all pages, with the list's columns; null until there is a token.
 */
export function rejectListCsvHref(
  s: QualitySelection,
  reason: string | null,
  token: string | null,
): string | null {
  if (!token) return null;
  const q = new URLSearchParams({ start: String(s.range.start), end: String(s.range.end) });
  if (s.machine) q.set('machine_id', s.machine);
  else if (s.group) q.set('group', s.group);
  if (reason) q.set('category_id', reason);
  q.set('format', 'csv');
  q.set('token', token);
  return `/api/partadjustment/rejects?${q.toString()}`;
}

/**
 * The CSV of the drill-down on screen (Reason, Machine, Scrap Count; format=csv with the user token,
 * reports-admin §7), narrowed to the reason drilled into; null until there is a token.
 */
export function qualityCsvHref(
  s: QualitySelection,
  reason: string | null,
  token: string | null,
): string | null {
  if (!token) return null;
  const q = new URLSearchParams({
    start: String(s.range.start),
    end: String(s.range.end),
    groupByMachine: 'true',
  });
  if (s.group && !s.machine) q.set('group', s.group);
  if (reason) q.set('category_id', reason);
  q.set('format', 'csv');
  q.set('token', token);
  return `/api/partadjustment/allRejectsByCategory?${q.toString()}`;
}

export const reasonKey = (r: { category_id: string | null }): string => r.category_id ?? UNCATEGORIZED;

/** The answer's rows for the machine drilled into (all rows without one). */
export const rowsFor = (a: RejectTotals, machine: string | null): RejectTotal[] =>
  a.rejects.filter((r) => !machine || r.machine?.id === machine);

export interface ParetoBar {
  key: string;
  name: string;
  color: string;
  count: number;
  /** Accumulated share of all rejects, 0..100, one decimal. */
  cumulative: number;
}

/** The pareto by reject reason, largest first (ties by name), with the accumulated percent. */
export function paretoBars(rows: readonly RejectTotal[]): ParetoBar[] {
  const byReason = new Map<string, ParetoBar>();
  for (const r of rows) {
    const key = reasonKey(r);
    const bar = byReason.get(key) ?? {
      key,
      name: r.category_id ? r.partadjustmentType.name : tr('quality.uncategorized'),
      color: r.partadjustmentType.color,
      count: 0,
      cumulative: 0,
    };
    bar.count += r.scrapCount;
    byReason.set(key, bar);
  }
  const bars = [...byReason.values()]
    .filter((b) => b.count > 0)
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  const total = bars.reduce((t, b) => t + b.count, 0);
  let sum = 0;
  return bars.map((b) => {
    sum += b.count;
    return { ...b, cumulative: total > 0 ? Math.round((sum / total) * 1000) / 10 : 0 };
  });
}

export interface MachineTotal {
  id: string;
  name: string;
  count: number;
}

/** Rejects per machine (of one reason, or all), largest first: the drill-down's rows. */
export function machineTotals(rows: readonly RejectTotal[], reason: string | null): MachineTotal[] {
  const byMachine = new Map<string, MachineTotal>();
  for (const r of rows) {
    if (!r.machine || (reason && reasonKey(r) !== reason)) continue;
    const m = byMachine.get(r.machine.id) ?? { id: r.machine.id, name: r.machine.name, count: 0 };
    m.count += r.scrapCount;
    byMachine.set(r.machine.id, m);
  }
  return [...byMachine.values()]
    .filter((m) => m.count > 0)
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

export interface StackedChart {
  machines: MachineTotal[];
  /** One series per reason, in pareto order: rejects per machine. */
  series: { key: string; name: string; values: number[] }[];
}

/** Rejects by machine, stacked by reason; only `reason` when drilled in. */
export function stackedByMachine(rows: readonly RejectTotal[], reason: string | null): StackedChart {
  const machines = machineTotals(rows, reason);
  const bars = paretoBars(rows).filter((b) => !reason || b.key === reason);
  return {
    machines,
    series: bars.map((b) => ({
      key: b.key,
      name: b.name,
      values: machines.map((m) =>
        rows
          .filter((r) => r.machine?.id === m.id && reasonKey(r) === b.key)
          .reduce((t, r) => t + r.scrapCount, 0),
      ),
    })),
  };
}

/** reports-admin §9: "Reject behaviors scrap or nonconform (Scrap or Non-Conforming)". */
export const rejectTypeLabel = (behavior: string | null): string =>
  behavior === 'nonconform' ? tr('quality.type.nonconform') : tr('quality.type.scrap');

/** 'Rejects 26–50 of 60' (nothing on an empty list). */
export function pageLabel(p: Pick<RejectPage, 'count' | 'offset'> & { shown: number }): string {
  if (p.count === 0 || p.shown === 0) return '';
  return tr('quality.pageOf', { from: p.offset + 1, to: p.offset + p.shown, count: p.count });
}

export const pageCount = (count: number): number => Math.max(1, Math.ceil(count / REJECT_PAGE_SIZE));

/** /dashboard/quality for a range, a group or a machine (the OEE waterfall's quality step, decision 0806). */
export function qualityHref(
  range: { start: number; end: number; interval?: string; quicklink?: string | null },
  d: { group?: string | null; machine?: string | null },
): string {
  const q = new URLSearchParams({ start: String(range.start), end: String(range.end) });
  if (range.interval) q.set('interval', range.interval);
  if (range.quicklink) q.set('quicklink', range.quicklink);
  if (d.group) q.set('group', d.group);
  if (d.machine) q.set('machine', d.machine);
  return `${PATHS.quality}?${q.toString()}`;
}
