// live-operations §4 / reports-admin §4: goal-dashboard and utilization statuses, the performance ring.

export const GOAL_STATUSES = ['success', 'warning', 'danger', 'unavailable', 'noJobStandards'] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

export interface GoalStatusInput {
  scheduled: boolean;
  /** The job run has standards (an expected cycle time). */
  hasJobStandards: boolean;
  /** Percent of goal (actual / expected × 100), null when nothing is expected yet. */
  percentOfGoal: number | null;
  /** Production runtime so far (ms); 0 = not yet producing. */
  productionRuntimeMs: number;
  /** The company's warning and failure percents (e.g. 85 and 70). */
  warningPercent: number;
  failurePercent: number;
}

/**
 * Parts goal and OEE dashboards: unscheduled → unavailable; no job standards → noJobStandards; success if
 * percent of goal is at or above the warning percent or there is no production runtime yet; warning if at
 * or above the failure percent; danger otherwise.
 */
export function goalStatus(m: GoalStatusInput): GoalStatus {
  if (!m.scheduled) return 'unavailable';
  if (!m.hasJobStandards) return 'noJobStandards';
  if (m.productionRuntimeMs <= 0 || m.percentOfGoal === null) return 'success';
  if (m.percentOfGoal >= m.warningPercent) return 'success';
  if (m.percentOfGoal >= m.failurePercent) return 'warning';
  return 'danger';
}

/** Utilization: danger below the failure percent, warning below the warning percent, else success. */
export function utilizationStatus(
  percent: number,
  limits: { warningPercent: number; failurePercent: number },
): 'success' | 'warning' | 'danger' {
  if (percent < limits.failurePercent) return 'danger';
  if (percent < limits.warningPercent) return 'warning';
  return 'success';
}

/** live-operations §2 / reports-admin §9: the ring chart caps at 405 degrees. */
export const RING_MAX_DEGREES = 405;

/** Degrees of a ring for a percent (100 % = 360°), never below 0 nor above 405°. */
export function ringDegrees(percent: number | null): number {
  if (percent === null || !Number.isFinite(percent)) return 0;
  return Math.min(RING_MAX_DEGREES, Math.max(0, percent * 3.6));
}

export interface RingText {
  /** "In Setup", "At Goal", "N Part(s) Ahead" or "N Part(s) Behind". */
  main: string;
  /** "of N expected", or null in setup. */
  sub: string | null;
}

const parts = (n: number) => `${n} ${n === 1 ? 'Part' : 'Parts'}`;

/** live-operations §2 performance ring text, from parts ahead (+) or behind (−) of the expected parts now. */
export function performanceRingText(input: {
  inSetup: boolean;
  actualParts: number;
  expectedParts: number;
}): RingText {
  if (input.inSetup) return { main: 'In Setup', sub: null };
  const diff = Math.round(input.actualParts) - Math.round(input.expectedParts);
  const sub = `of ${Math.round(input.expectedParts)} expected`;
  if (diff === 0) return { main: 'At Goal', sub };
  return { main: diff > 0 ? `${parts(diff)} Ahead` : `${parts(-diff)} Behind`, sub };
}
