import { checkRange, epochMs } from '@takt/domain';
import type { CompanyScope } from '@takt/db';
import { observationsAfter, observationsOfKey } from '../repositories/diagnostics';
import { getMachine } from '../repositories/machines';
import { listStateIntervals } from '../repositories/state-intervals';
import { dashboardTiles } from '../services/dashboard';

/**
 * The `live` channel's payload: the machine's dashboard tile, the same as GET /api/dashboard gives it (the
 * floor app stores it in place of the polled tile, so a running job must not vanish from it), with the
 * FullProduct fields blanked when the caller's company lacks FullProduct.
 */
export async function liveMachinePayload(scope: CompanyScope, machineId: string, now: number, full: boolean) {
  const machine = await getMachine(scope, machineId);
  if (!machine) return null;
  return (await dashboardTiles(scope, [machine], now, full))[0]!;
}

/** The `diagnostics` stream: raw observations newer than the cursor (at most 500 per update). */
export async function diagnosticsSince(scope: CompanyScope, machineId: string, cursor: number, now: number) {
  const rows = await observationsAfter(scope, machineId, cursor, now + 60_000, 500);
  return { observations: rows, cursor: rows.length ? rows[rows.length - 1]!.ts : cursor };
}

/** A `temp_timeline` join with a key sends at most this many of its samples (the newest). */
export const TIMELINE_SAMPLES_MAX = 5000;

/**
 * The `temp_timeline` payload: state intervals overlapping [start, end], clipped to it, and, when the join
 * names a `key` (reports-admin §2 machine conditions page: live charts of scalar fields), that key's raw
 * samples in the window, oldest first (the newest TIMELINE_SAMPLES_MAX). Without a key, `samples` is empty.
 */
export async function timelineBetween(
  scope: CompanyScope,
  machineId: string,
  start: number,
  end: number,
  key: string | null = null,
) {
  const [rows, samples] = await Promise.all([
    listStateIntervals(scope, machineId, start, end),
    key ? observationsOfKey(scope, machineId, key, { start, end }, TIMELINE_SAMPLES_MAX) : [],
  ]);
  return {
    start,
    end,
    samples,
    cycleEvents: rows.map((r) => {
      const s = Math.max(r.start, start);
      const e = Math.min(r.end ?? end, end);
      return { value: r.state, start: s, end: e, duration: e - s };
    }),
  };
}

/** A `temp_timeline` join's window: the config's start and end, or the last hour until now. */
export function timelineWindow(
  join: { config?: { start: number; end: number } | undefined },
  now: number,
): { start: number; end: number } {
  const end = join.config?.end ?? now;
  const start = join.config?.start ?? end - 3_600_000;
  return { start, end };
}

/**
 * Why a `temp_timeline` window is refused, or null. live-operations §5/§9: start before end, at most 7 days on
 * the company's wall clock; the texts and codes are those of GET /api/reports/operation (the domain's
 * timeline query schema and checkRange), so the channel and the HTTP call answer alike. A join is checked
 * once; every update reruns the same bounded query.
 */
export function timelineRangeProblem(
  timezone: string,
  range: { start: number; end: number },
): { field: string; code: string; message: string } | null {
  if (!(range.start < range.end))
    return { field: 'end', code: 'custom', message: 'Start Date must be before End Date' };
  const check = checkRange(
    { timezone },
    { start: epochMs(range.start), end: epochMs(range.end) },
    'timeline',
  );
  return check.ok ? null : { field: 'end', code: check.error, message: check.message };
}
