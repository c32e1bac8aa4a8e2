import { formatPartTime } from '@takt/domain';
import type { AppliedRange, Horizon } from '@takt/ui';
import { arrayOf, boolean, nullable, number, object, optional, parseWith, string, tr } from '@takt/ui';
import { failureText, recomputingCheck } from '../reports/shared';
import { PATHS } from '../routes';

// reports-admin §2 "Cycles report" (/machine/{id}/cycles?start&end) over GET /api/reports/cycles
// (reports-admin §7; decision 0806). Pure: the page renders what these functions return.

export const CYCLES_HORIZONS: readonly Horizon[] = ['hour', 'day'];
export const DEFAULT_CYCLES_HORIZON: Horizon = 'day';
/** reports-admin §9: "Slow part: cycle more than 20 percent over expected." */
export const SLOW_FACTOR = 1.2;

const answerCheck = object({
  range: object({ start: number, end: number }),
  machineId: optional(string),
  machineName: optional(string),
  /** The machine, while its figures in the range are being recomputed (decision 1004). */
  recomputing: recomputingCheck,
  /**
   * The range's parts (METRICS.md §3): the cycles' parts and every part adjustment in the range, as the Parts
   * report's cell for the same machine and time counts them (decision 1020).
   */
  parts: object({ total: number, rejected: number, good: number }),
  cycles: arrayOf(
    object({
      timestamp: number,
      start: optional(number),
      duration: number,
      expectedCycleTime: number,
      idealCycleTime: number,
      parts: number,
      scraps: number,
      nonconforms: number,
      setup: optional(boolean),
      job: nullable(object({ id: string, name: string })),
    }),
  ),
});
export type CyclesAnswer = ReturnType<typeof answerCheck>;
export type CycleItem = CyclesAnswer['cycles'][number];
export const parseCycles = parseWith(answerCheck);

export interface CyclesSelection {
  range: AppliedRange;
  machine: string;
}

export const cyclesQuery = (s: CyclesSelection): Record<string, string | number> => ({
  machineId: s.machine,
  start: s.range.start,
  end: s.range.end,
});

/** The grid's CSV (format=csv with the user token, reports-admin §7); null until there is a token. */
export function cyclesCsvHref(s: CyclesSelection, token: string | null): string | null {
  if (!token) return null;
  const q = new URLSearchParams({
    machineId: s.machine,
    start: String(s.range.start),
    end: String(s.range.end),
    format: 'csv',
    token,
  });
  return `/api/reports/cycles?${q.toString()}`;
}

/** reports-admin §9: slow when more than 20 % over expected; a cycle without a standard is never slow. */
export const isSlow = (c: Pick<CycleItem, 'duration' | 'expectedCycleTime'>): boolean =>
  c.expectedCycleTime > 0 && c.duration > c.expectedCycleTime * SLOW_FACTOR;

/** Cycle times as durations (m:ss under an hour, live-operations §9); no standard shows '-'. */
export const cycleTime = (ms: number): string => (ms > 0 ? formatPartTime(ms) : '-');

export interface CycleRow {
  id: string;
  /** The cycle's end (the grid's Time) and start, for the row actions. */
  time: number;
  start: number;
  /** Parts of the cycle, whole and at least 1: what Reject Part and Correct Part prefill. */
  qty: number;
  duration: string;
  expected: string;
  ideal: string;
  /** reports-admin §9: parts to whole. */
  parts: string;
  scrap: string;
  nonConform: string;
  operation: string;
  slow: boolean;
  /** How far over expected, in whole percent, for a slow cycle ('+25 %'); '' otherwise. */
  over: string;
}

/** The grid (Time, Duration, Expected, Ideal, Parts, Scrap, Non-Conform, Operation) in time order. */
export function cycleRows(cycles: readonly CycleItem[], onlySlow = false): CycleRow[] {
  return cycles
    .filter((c) => !onlySlow || isSlow(c))
    .map((c, i) => {
      const slow = isSlow(c);
      return {
        id: `${String(c.timestamp)}-${String(i)}`,
        time: c.timestamp,
        start: c.start ?? c.timestamp - c.duration,
        qty: Math.max(1, Math.round(c.parts)),
        duration: cycleTime(c.duration),
        expected: cycleTime(c.expectedCycleTime),
        ideal: cycleTime(c.idealCycleTime),
        parts: String(Math.round(c.parts)),
        scrap: String(Math.round(c.scraps)),
        nonConform: String(Math.round(c.nonconforms)),
        operation: c.job?.name ?? '',
        slow,
        over: slow
          ? tr('cycles.overBy', {
              percent: Math.round((c.duration / c.expectedCycleTime - 1) * 100),
            })
          : '',
      };
    });
}

export interface CyclesSummary {
  cycles: number;
  slow: number;
  parts: number;
  /** Mean cycle time as a duration, '-' without cycles. */
  average: string;
}

export function cyclesSummary(cycles: readonly CycleItem[]): CyclesSummary {
  const total = cycles.reduce((t, c) => t + c.duration, 0);
  return {
    cycles: cycles.length,
    slow: cycles.filter(isSlow).length,
    parts: Math.round(cycles.reduce((t, c) => t + c.parts, 0)),
    average: cycles.length ? cycleTime(total / cycles.length) : '-',
  };
}

/** /machine/{id}/cycles?start&end (reports-admin §2), keeping the range's interval and quick link. */
export function machineCyclesHref(
  id: string,
  range: { start: number; end: number; interval?: string; quicklink?: string | null },
): string {
  const q = new URLSearchParams({ start: String(range.start), end: String(range.end) });
  if (range.interval) q.set('interval', range.interval);
  if (range.quicklink) q.set('quicklink', range.quicklink);
  return `${PATHS.machineCycles.replace(':id', encodeURIComponent(id))}?${q.toString()}`;
}

/** reports-admin §8: a report that failed says 'There was an error with your request. Please try again.'. */
export const reportErrorText = (err: unknown): string => failureText(err, tr('reports.requestError'));
