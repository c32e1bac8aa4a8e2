import { percentOfGoal } from '@takt/domain';
import type { AppliedRange, Horizon } from '@takt/ui';
import { arrayOf, nullable, number, object, optional, parseWith, string, tr } from '@takt/ui';
import { recomputingCheck } from '../reports/shared';

// reports-admin §2 "Parts report" (/dashboard/parts?{query}, and /machine/{id}/parts) over GET
// /api/reports/partGoals (reports-admin §7): good parts per machine by hour, shift or day against the goal
// of the job runs, at most 7 days (§5, §9). Pure: the page renders what these functions return.

/** reports-admin §2 "Per-machine chart by hour, shift or day." */
export const PARTS_HORIZONS: readonly Horizon[] = ['hour', 'shift', 'day'];
export const DEFAULT_PARTS_HORIZON: Horizon = 'day';
/** reports-admin §5, §9: "Maximum range: … 7 days parts". */
export const PARTS_MAX_DAYS = 7;

const cell = {
  start: number,
  end: number,
  shopDate: string,
  shiftId: optional(nullable(string)),
  shiftName: optional(nullable(string)),
  parts: number,
  goal: nullable(number),
};
const answerCheck = object({
  range: object({ start: number, end: number }),
  recomputing: recomputingCheck,
  interval: string,
  intervals: arrayOf(
    object({
      start: number,
      end: number,
      shopDate: string,
      shiftId: optional(nullable(string)),
      shiftName: optional(nullable(string)),
    }),
  ),
  machines: arrayOf(
    object({
      machineId: string,
      machineName: string,
      parts: number,
      goal: nullable(number),
      /** The good parts of the intervals that have a goal: what the goal is compared with (decision 1021). */
      goalParts: number,
      intervals: arrayOf(object(cell)),
    }),
  ),
});
export type PartsAnswer = ReturnType<typeof answerCheck>;
export type PartsMachine = PartsAnswer['machines'][number];
export const parseParts = parseWith(answerCheck);

export interface PartsSelection {
  range: AppliedRange;
  group: string | null;
  machine: string | null;
}

export function partsQuery(s: PartsSelection): Record<string, string | number> {
  return {
    start: s.range.start,
    end: s.range.end,
    // The server's intervals are hour, shift, day, …: the picker's horizon is the chart's interval.
    interval: s.range.interval,
    ...(s.group ? { group: s.group } : {}),
    ...(s.machine ? { machineId: s.machine } : {}),
  };
}

/** reports-admin §2 "CSV export via /api/reports/partGoals?{query}&format=csv" with the user token. */
export function partsCsvHref(s: PartsSelection, token: string | null): string | null {
  if (!token) return null;
  const q = new URLSearchParams(
    Object.entries({ ...partsQuery(s), format: 'csv', token }).map(([k, v]) => [k, String(v)]),
  );
  return `/api/reports/partGoals?${q.toString()}`;
}

/** reports-admin §9: parts to whole; no goal shows '-'. */
const whole = (n: number | null): string => (n == null ? '-' : String(Math.round(n)));

export interface PartsRow {
  machineId: string;
  machine: string;
  parts: string;
  goal: string;
  /** Percent of goal, whole ('-' without a goal). */
  percent: string;
  /** Parts ahead (+) or behind (−) the goal, whole; '' without a goal. */
  delta: string;
  behind: boolean;
}

/**
 * One row per machine: good parts, goal, percent of goal and parts ahead or behind. The percent and the delta
 * compare like with like: the good parts of the intervals that have a goal against it (decision 1021).
 */
export function partsRows(machines: readonly PartsMachine[]): PartsRow[] {
  return machines.map((m) => {
    const pct = percentOfGoal(m.goalParts, m.goal);
    const delta = m.goal == null ? null : Math.round(m.goalParts) - Math.round(m.goal);
    return {
      machineId: m.machineId,
      machine: m.machineName,
      parts: whole(m.parts),
      goal: whole(m.goal),
      percent: pct == null ? '-' : `${String(Math.round(pct))} %`,
      delta: delta == null ? '' : delta >= 0 ? `+${String(delta)}` : `−${String(-delta)}`,
      behind: delta != null && delta < 0,
    };
  });
}

export interface PartsTotals {
  /** Every machine's good parts. */
  parts: number;
  /** The good parts the goal is compared with: of the machines and intervals that have one. */
  goalParts: number;
  /** Null when no machine had a goal in the range. */
  goal: number | null;
  percent: string;
}

/**
 * The tiles: all machines' good parts; the goal, and the percent of it, like with like (decision 1021): the
 * good parts made where a goal was set (machines and intervals with a job run with standards) against it,
 * never a machine without a job's parts against another's goal.
 */
export function partsTotals(machines: readonly PartsMachine[]): PartsTotals {
  const parts = machines.reduce((t, m) => t + m.parts, 0);
  const goals = machines.filter((m) => m.goal != null);
  const goal = goals.length ? goals.reduce((t, m) => t + (m.goal ?? 0), 0) : null;
  const goalParts = goals.reduce((t, m) => t + m.goalParts, 0);
  const pct = percentOfGoal(goalParts, goal);
  return {
    parts: Math.round(parts),
    goalParts: Math.round(goalParts),
    goal: goal == null ? null : Math.round(goal),
    percent: pct == null ? '-' : `${String(Math.round(pct))} %`,
  };
}

/** The empty state of the page (reports-admin §4 pattern: a message instead of an empty chart). */
export const partsEmptyText = (answer: PartsAnswer): string | null =>
  answer.machines.length === 0 ? tr('parts.noMachines') : null;
