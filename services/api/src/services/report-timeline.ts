import { noDataSpans, showProgram, spansMs, subprogramWindow } from '@takt/domain';
import {
  activitiesOf,
  correctionsIn,
  faultsOverlapping,
  hasSubprogramIn,
  programsOverlapping,
  reportMachines,
  runsOverlapping,
  reportCalendar,
} from '../repositories/reports';
import { listStateIntervals } from '../repositories/state-intervals';
import { loadRollupSource } from '@takt/db/rollups';
import type { ServiceCtx } from './context';
import { rangeError, checkReportRange, loadRecomputing } from './reports';
import type { Range } from './reports';

// ---------------------------------------------------------------------------------------------------------
// GET /api/reports/operation (the machine timeline) and /api/reports/subprograms

export interface TimelineQuery extends Range {
  machineId: string;
  includeSetup?: boolean | undefined;
  instances?: boolean | undefined;
}

const pinned = (range: Range, start: number, end: number) => {
  const pinnedStart = Math.max(start, range.start);
  const pinnedEnd = Math.min(end, range.end);
  return { pinnedStart, pinnedEnd, pinnedDuration: Math.max(0, pinnedEnd - pinnedStart) };
};

export async function timelineReport(ctx: ServiceCtx, q: TimelineQuery) {
  const calendar = await reportCalendar(ctx.scope);
  const range = { start: q.start, end: q.end };
  checkReportRange(calendar, range, 'timeline');
  const [machine] = await reportMachines(ctx.scope, { machineId: q.machineId });
  const id = machine!.id;
  const includeSetup = q.includeSetup !== false;
  const windowMs = q.end - q.start;
  const [states, source, programs, runs, resets, faults, hasSubprogram, recomputing] = await Promise.all([
    listStateIntervals(ctx.scope, id, q.start, q.end),
    loadRollupSource(ctx.scope, id, range),
    programsOverlapping(ctx.scope, id, range, 0),
    runsOverlapping(ctx.scope, [id], range),
    correctionsIn(ctx.scope, id, range),
    faultsOverlapping(ctx.scope, id, range),
    hasSubprogramIn(ctx.scope, id, range),
    loadRecomputing(ctx, [machine!], range),
  ]);
  const activities = await activitiesOf(
    ctx.scope,
    runs.map((r) => r.id),
    range,
  );
  const runById = new Map(runs.map((r) => [r.id, r]));
  /** A lane item: its own times (an open one lasts until now) and the times pinned to the window. */
  const lane = (start: number, end: number | null) => {
    const until = end ?? ctx.now;
    return { start, end, duration: until - start, ...pinned(range, start, until) };
  };
  // METRICS.md §1 (decision 1012): before monitoredFrom the timeline is blank (not monitored); No data is
  // the UNAVAILABLE time in life no operator reason covers, the spans the rollups count as No data.
  const noData = noDataSpans(source, q.start, Math.min(q.end, ctx.now));
  return {
    range,
    start: q.start,
    end: q.end,
    /** The machine, when its figures in the range are still being recomputed (decision 1004). */
    recomputing,
    /** Where the machine's monitored life starts (null: not monitored yet); nothing before it is downtime. */
    monitoredFrom: source.monitoredFrom ?? null,
    noData: noData.map((s) => lane(s.start, s.end)),
    noDataMs: spansMs(noData),
    cycleEvents: states.map((s) => ({ value: s.state, ...lane(s.start, s.end) })),
    // live-operations §9: a program shows individually only when it lasts 1/150 of the window (instances
    // lists every one).
    programs: programs
      .map((p) => ({ name: p.name, ...lane(p.start_at, p.end_at) }))
      .filter((p) => q.instances === true || showProgram(p.pinnedDuration, windowMs)),
    parts: (source.cycles ?? [])
      .filter((c) => c.end >= q.start && c.end < q.end && (includeSetup || !c.setup))
      // The cycle's duration lets the timeline judge slow and fast parts (live-operations §9).
      .map((c) => ({
        start: c.end,
        duration: c.duration,
        parts: c.parts,
        expectedCycleTime: c.expectedCycleTime,
        setup: c.setup,
      })),
    runs: runs.map((r) => ({
      jobId: r.jobId,
      jobName: r.jobName,
      start: r.startAt,
      end: r.endAt,
      jsgId: r.id,
    })),
    activities: activities
      .filter((a) => includeSetup || a.setup !== 1)
      .map((a) => ({
        activityRef: a.id,
        activitySetRef: a.job_run_id,
        activityTypeName: a.stage_name ?? (a.setup === 1 ? 'Setup' : 'Production'),
        jobName: runById.get(a.job_run_id)?.jobName ?? '',
        activityMode: a.setup === 1 ? 'setup' : 'production',
        startAt: a.start_at,
        endAt: a.end_at,
      })),
    resets: resets.map((r) => ({
      resetdate: r.adjustment_time,
      message: r.message,
      count: r.count,
      account: { displayName: r.display_name ?? r.created_by ?? '' },
    })),
    faults: faults.map((f) => ({
      start: f.start_at,
      end: f.end_at,
      duration: (f.end_at ?? ctx.now) - f.start_at,
      value: f.value,
      nativecode: f.nativecode,
      type: f.type,
    })),
    hasSubprogram,
  };
}

export const SUBPROGRAM_WINDOW_TOO_LONG = 'Sub-programs load for windows of at most 2 hours.';

/** live-operations §9: sub-programs load when the window is at most 2 hours, padded to a 2-hour span. */
export async function subprogramsReport(ctx: ServiceCtx, q: Range & { machineId: string }) {
  const window = subprogramWindow(q.start, q.end);
  if (!window) throw rangeError('end', 'RANGE_TOO_LONG', SUBPROGRAM_WINDOW_TOO_LONG);
  const [machine] = await reportMachines(ctx.scope, { machineId: q.machineId });
  const [rows, recomputing] = await Promise.all([
    programsOverlapping(ctx.scope, machine!.id, window, 1),
    loadRecomputing(ctx, [machine!], window),
  ]);
  return {
    range: window,
    recomputing,
    subprograms: rows.map((p) => ({
      name: p.name,
      start: p.start_at,
      end: p.end_at,
      duration: (p.end_at ?? ctx.now) - p.start_at,
    })),
  };
}
