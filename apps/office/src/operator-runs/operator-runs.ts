import { formatElapsed } from '@takt/domain';
import type { CompanyClock, DateBounds, EpochMs, OperatorRun } from '@takt/domain';
import { readRangeParams, t, writeRangeParams } from '@takt/ui';
import type { AppliedRange, Horizon } from '@takt/ui';

// The operator runs screen's rules (live-operations §2 "Operator runs (admin, see companion)", decision 1091):
// its URL (range, operator, machine), the list call, the table's rows and the correction form.

export const RUN_HORIZONS: readonly Horizon[] = ['day', 'week', 'month'];

/** The screen's state, all in its URL so it can be bookmarked. */
export interface RunsFilter {
  range: AppliedRange;
  operatorId: string | null;
  machineId: string | null;
}

export function readRunsFilter(query: URLSearchParams, clock: CompanyClock, now: EpochMs): RunsFilter {
  return {
    range: readRangeParams(query, clock, now, { interval: 'day', allowed: RUN_HORIZONS }),
    operatorId: query.get('operator') || null,
    machineId: query.get('machine') || null,
  };
}

export function writeRunsFilter(query: URLSearchParams, f: RunsFilter): URLSearchParams {
  const next = writeRangeParams(query, f.range);
  for (const [key, value] of [
    ['operator', f.operatorId],
    ['machine', f.machineId],
  ] as const) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  return next;
}

/** GET /api/operatorruns/list's query for a filter. */
export function listQuery(f: RunsFilter): Record<string, string | number> {
  return {
    startAt: f.range.start,
    endAt: f.range.end,
    ...(f.machineId ? { machineId: f.machineId } : {}),
    ...(f.operatorId ? { operatorId: f.operatorId } : {}),
  };
}

/** At most this many runs come in one answer (decision 1091); the screen says so when it got that many. */
export const LIST_LIMIT = 1000;

export interface RunRow {
  run: OperatorRun;
  operator: string;
  machine: string;
  open: boolean;
  /** h:mm:ss (Nd h:mm:ss beyond a day); an open run's runs to now. */
  duration: string;
}

export function runRows(
  runs: readonly OperatorRun[],
  machineNames: ReadonlyMap<string, string>,
  now: number,
): RunRow[] {
  return runs.map((run) => ({
    run,
    operator: run.operator.name,
    machine: machineNames.get(run.machineId) ?? t('common.none'),
    open: run.endAt == null,
    duration: formatElapsed(run.startAt, run.endAt ?? Math.max(now, run.startAt)),
  }));
}

/** The correction form: start, end, and for an open run whether it stays open. */
export interface CorrectionForm {
  startAt: number;
  endAt: number;
  keepOpen: boolean;
  /** Whether each typed field holds a whole valid value (DateTimeInput's onValidity). */
  typed: { start: boolean; end: boolean };
}

export function correctionFormOf(run: OperatorRun, now: number): CorrectionForm {
  return {
    startAt: run.startAt,
    endAt: run.endAt ?? Math.max(now, run.startAt + 60_000),
    keepOpen: run.endAt == null,
    typed: { start: true, end: true },
  };
}

/**
 * What keeps the form from being sent: the spec's range rule ("Start Date must be before End Date"), and the
 * bounds (the fields show those as their invalid-min and invalid-max marks).
 */
export function correctionErrors(f: CorrectionForm, bounds: DateBounds): { end?: string; blocked: boolean } {
  const outside = (v: number) => v < bounds.min || v > bounds.max;
  const end = !f.keepOpen && f.endAt <= f.startAt ? t('operatorRuns.startBeforeEnd') : undefined;
  const blocked =
    end != null ||
    !f.typed.start ||
    (!f.keepOpen && !f.typed.end) ||
    outside(f.startAt) ||
    (!f.keepOpen && outside(f.endAt));
  return { ...(end ? { end } : {}), blocked };
}

/** PUT /api/operatorruns/:id's body. */
export const correctionBody = (f: CorrectionForm) => ({
  startAt: f.startAt,
  endAt: f.keepOpen ? null : f.endAt,
});
