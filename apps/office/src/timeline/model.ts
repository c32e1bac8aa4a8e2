import {
  annotationToSave,
  canSplitInHalf,
  epochMs,
  formatDowntimeMinutes,
  isSlowCycle,
  plannedLabel,
  showFastParts,
  showSlowParts,
  SUBPROGRAM_WINDOW_MS,
  subtractSpans,
} from '@takt/domain';
import type { CompanyClock, EpochMs } from '@takt/domain';
import { ApiError, tr } from '@takt/ui';
import type { Lane, TimelineItem, TimeWindow } from './draw';
import { laneOf } from './draw';

// reports-admin §2 "Machine timeline" (/machine/{id}/timeline?start&end&interval) over GET
// /api/reports/operation, /api/reports/subprograms and GET /api/downtime, with the rules of §4 (categorize
// form), §5 (saving annotations, 7-day range, 1-year links, next period) and §9 (zoom, slow and fast parts,
// programs, sub-programs). Pure: the page renders what these functions return.

// ---- Answers (answers.ts)

export * from './answers';
import type { DowntimeRow, OperationAnswer, Reason, SubprogramsAnswer } from './answers';

// ---- The range in the URL (range.ts)

export * from './range';
import { msParam, readTimelineRange, withinLinkHorizon, timelineAround } from './range';

// ---- Lanes

export interface LaneColors {
  active: string;
  inactive: string;
  setup: string;
  unavailable: string;
  uncategorized: string;
  fault: string;
  part: string;
  /** The nine chart colours (reports-admin §9), for jobs and programs by name. */
  chart: readonly string[];
}

export type LaneId = 'states' | 'downtime' | 'jobs' | 'parts' | 'programs' | 'subprograms' | 'faults';

/** reports-admin §3: ACTIVE, INACTIVE, SETUP; any other value is shown as unavailable. */
export type StateKind = 'active' | 'inactive' | 'setup' | 'unavailable';
export const stateKind = (value: string): StateKind =>
  value === 'ACTIVE'
    ? 'active'
    : value === 'INACTIVE'
      ? 'inactive'
      : value === 'SETUP'
        ? 'setup'
        : 'unavailable';

/** The same name always gets the same chart colour. */
export function colorForName(name: string, chart: readonly string[]): string {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) | 0;
  return chart[Math.abs(h) % chart.length] ?? '#5d6b78';
}

/** A part's cycle: from the part's time back by its duration (or the time since the previous part). */
export interface PartCycle {
  start: number;
  end: number;
  duration: number;
  expected: number;
  slow: boolean;
  fast: boolean;
}

/** reports-admin §9: slow is more than 20 % over expected; fast is under the expected cycle. */
export function partCycles(parts: OperationAnswer['parts']): PartCycle[] {
  const out: PartCycle[] = [];
  let previous: number | null = null;
  for (const p of [...parts].sort((a, b) => a.start - b.start)) {
    const duration = p.duration ?? (previous === null ? 0 : p.start - previous);
    previous = p.start;
    const expected = p.expectedCycleTime;
    out.push({
      start: p.start - duration,
      end: p.start,
      duration,
      expected,
      slow: isSlowCycle(duration, expected),
      fast: expected > 0 && duration > 0 && duration < expected,
    });
  }
  return out;
}

export const averageCycleMs = (cycles: readonly PartCycle[]): number => {
  const timed = cycles.filter((c) => c.duration > 0);
  return timed.length ? timed.reduce((t, c) => t + c.duration, 0) / timed.length : 0;
};

/**
 * reports-admin §9 and §6: slow parts show when the window is at most 75 × the average cycle, fast parts at
 * most 10 ×; both only for FullProduct.
 */
export function partMarks(windowMs: number, averageMs: number, fullProduct: boolean) {
  return {
    showSlow: fullProduct && showSlowParts(windowMs, averageMs),
    showFast: fullProduct && showFastParts(windowMs, averageMs),
  };
}

/** reports-admin §9: sub-programs load when the window is at most 2 hours. */
export const loadsSubprograms = (w: TimeWindow): boolean => w.end - w.start <= SUBPROGRAM_WINDOW_MS;

const until = (end: number | null, now: number) => end ?? now;

export interface LaneInput {
  operation: OperationAnswer;
  downtime: readonly DowntimeRow[];
  /** null when the window is over 2 hours (not loaded). */
  subprograms: SubprogramsAnswer | null;
  now: number;
  colors: LaneColors;
  /**
   * reports-admin §6 feature flag areActivitiesEnabled: "activities replace runs on the timeline" (the
   * job lane shows each labor activity, setup stages in the setup colour).
   */
  activities?: boolean;
}

/** The seven lanes, top to bottom, built once per answer (zooming only moves the window). */
export function buildLanes(input: LaneInput): Lane[] {
  const { operation: op, colors: c, now } = input;
  const stateColor: Record<StateKind, string> = {
    active: c.active,
    inactive: c.inactive,
    setup: c.setup,
    unavailable: c.unavailable,
  };
  const states: TimelineItem[] = op.cycleEvents.map((e) => ({
    start: e.start,
    end: until(e.end, now),
    color: stateColor[stateKind(e.value)],
  }));
  // METRICS.md §1 (decision 1012): No data (UNAVAILABLE time no operator reason covers) is its own item, taken
  // out of the uncategorized periods, in the unavailable colour; the downtime report and OEE count the same.
  const noData = op.noData.map((d) => ({ start: d.start, end: until(d.end, now) }));
  const downtime: TimelineItem[] = input.downtime.flatMap((d) => {
    // The list's own No data pieces (decision 1060) are the spans drawn below.
    if (d.noData === true) return [];
    const item = {
      start: d.start,
      end: until(d.end, now),
      color: d.annotationType ? (d.color ?? d.annotationType.color) : c.uncategorized,
      label: d.reason ?? tr('timeline.uncategorized'),
    };
    return d.reason || d.annotationType
      ? [item]
      : subtractSpans([item], noData).map((span) => ({ ...item, ...span }));
  });
  downtime.push(...noData.map((d) => ({ ...d, color: c.unavailable, label: tr('downtime.noData') })));
  downtime.sort((a, b) => a.start - b.start);
  const jobs: TimelineItem[] = input.activities
    ? (op.activities ?? []).map((a) => ({
        start: a.startAt,
        end: until(a.endAt, now),
        color: a.activityMode === 'setup' ? c.setup : colorForName(a.jobName, c.chart),
        label: a.jobName ? `${a.activityTypeName}: ${a.jobName}` : a.activityTypeName,
      }))
    : op.runs.map((r) => ({
        start: r.start,
        end: until(r.end, now),
        color: colorForName(r.jobId, c.chart),
        label: r.jobName,
      }));
  const parts: TimelineItem[] = partCycles(op.parts).map((p) => ({
    start: p.start,
    end: p.end,
    color: c.part,
    tone: p.slow ? 'slow' : p.fast ? 'fast' : null,
  }));
  const programs: TimelineItem[] = op.programs.map((p) => ({
    start: p.start,
    end: until(p.end, now),
    color: colorForName(p.name, c.chart),
    label: p.name,
  }));
  const subprograms: TimelineItem[] = (input.subprograms?.subprograms ?? []).map((p) => ({
    start: p.start,
    end: until(p.end, now),
    color: colorForName(p.name, c.chart),
    label: p.name,
  }));
  const faults: TimelineItem[] = op.faults.map((f) => ({
    start: f.start,
    end: until(f.end, now),
    color: c.fault,
    label: f.nativecode ? `${f.nativecode} ${f.value}` : f.value,
  }));
  const subNote = !op.hasSubprogram
    ? tr('timeline.noSubprograms')
    : input.subprograms
      ? tr('timeline.noSubprogramsHere')
      : tr('timeline.zoomForSubprograms');
  return [
    laneOf('states', tr('timeline.lane.states'), states),
    laneOf('downtime', tr('timeline.lane.downtime'), downtime, {
      clickable: true,
      note: tr('timeline.noDowntime'),
    }),
    laneOf('jobs', tr(input.activities ? 'timeline.lane.activities' : 'timeline.lane.jobs'), jobs, {
      note: tr(input.activities ? 'timeline.noActivities' : 'timeline.noJobs'),
    }),
    laneOf('parts', tr('timeline.lane.parts'), parts, { note: tr('timeline.noParts'), separate: true }),
    laneOf('programs', tr('timeline.lane.programs'), programs),
    laneOf('subprograms', tr('timeline.lane.subprograms'), subprograms, { note: subNote }),
    laneOf('faults', tr('timeline.lane.faults'), faults, { note: tr('timeline.noFaults') }),
  ];
}

// ---- The annotation grid (Start, Duration, Reason, Message, Planned)

export interface GridRow {
  key: string;
  start: number;
  end: number | null;
  /** Minutes, 2 decimals (reports-admin §9). */
  minutes: string;
  reason: string;
  uncategorized: boolean;
  message: string;
  planned: string;
  /** Older than a year: no click-through (reports-admin §5). */
  linkable: boolean;
  item: DowntimeRow;
}

export function gridRows(items: readonly DowntimeRow[], now: number): GridRow[] {
  return items.map((d) => ({
    key: `${d.start}`,
    start: d.start,
    end: d.end,
    minutes: formatDowntimeMinutes(d.duration),
    reason: d.noData === true ? tr('downtime.noData') : (d.reason ?? tr('timeline.uncategorized')),
    uncategorized: d.reason == null,
    message: d.message ?? '',
    planned: d.annotationType ? plannedLabel(d.planned) : '',
    linkable: withinLinkHorizon(d.start, now),
    item: d,
  }));
}

// ---- The categorize form (reports-admin §4, §5)

export interface CategorizeDraft {
  reasonId: string;
  message: string;
  /** Only for reasons whose planned behaviour is the operator's choice. */
  planned: boolean;
}

export const draftFor = (d: DowntimeRow): CategorizeDraft => ({
  reasonId: d.annotation?.category_id ?? d.annotationType?.id ?? '',
  message: d.annotation?.message ?? d.message ?? '',
  planned: d.annotation?.planned ?? d.planned ?? false,
});

export const MESSAGE_MAX = 250;

/** What is wrong with the draft, as the user types (reports-admin §5, UI.md "forms validate as you type"). */
export function draftProblems(d: DowntimeRow, draft: CategorizeDraft): { reason?: string; message?: string } {
  const out: { reason?: string; message?: string } = {};
  if (!d.setup && !draft.reasonId) out.reason = tr('downtime.needReason');
  if (draft.message.length > MESSAGE_MAX) out.message = tr('timeline.messageTooLong', { max: MESSAGE_MAX });
  return out;
}

/**
 * POST /api/annotations body, or null when it must not be saved (reports-admin §5: only with a category or
 * as setup, never active setup; setup drops its category; end null unless explicitly set). An existing
 * annotation is updated by id.
 */
export function annotationBody(
  machineId: string,
  d: DowntimeRow,
  draft: CategorizeDraft,
  reasons: readonly Reason[],
): Record<string, unknown> | null {
  const a = d.annotation;
  const toSave = annotationToSave({
    start: a?.start ?? d.start,
    end: a?.end ?? d.end,
    // The annotation's own end when it has one set; a new one follows its downtime period.
    endExplicit: a != null && a.end != null,
    category_id: draft.reasonId || null,
    setup: a?.setup ?? d.setup,
    activesetup: a?.activesetup ?? false,
    message: draft.message.trim() || null,
  });
  if (!toSave) return null;
  const reason = reasons.find((r) => r.id === toSave.category_id);
  const body: Record<string, unknown> = {
    machineId,
    start: toSave.start,
    end: toSave.end,
    category_id: toSave.category_id,
    message: toSave.message,
    setup: toSave.setup,
  };
  if (reason?.plannedBehavior === 'operator') body.planned = draft.planned;
  if (a) body.id = a.id;
  return body;
}

/** Split in half: only an annotated period whose half lasts more than 10 s (reports-admin §4, §9). */
export const canSplit = (d: DowntimeRow, now: number): boolean =>
  d.annotation != null && canSplitInHalf(until(d.end, now) - d.start);

/** The text of a failed save: the server's list of problems, or its message (reports-admin §8). */
export function saveErrorLines(err: unknown): string[] {
  if (err instanceof ApiError) {
    const issues = Array.isArray(err.issues) ? (err.issues as { message?: unknown }[]) : [];
    const lines = issues.flatMap((i) => (typeof i.message === 'string' ? [i.message] : []));
    return lines.length ? lines : [err.message || tr('downtime.saveFailed')];
  }
  return [tr('downtime.saveFailed')];
}

// ---- The standard timeline (reports-admin §2: /app/machines/{id}/standard-timeline?start&end&startTime
// &endTime&include=Downtime-Operational|Parts-Operational|Production-Operational; decision 0811)

/** The lanes the include parameter can pick; the machine's state lane always shows. */
export type StandardLane = 'downtime' | 'parts' | 'production';
export const STANDARD_LANES: readonly StandardLane[] = ['downtime', 'parts', 'production'];

const INCLUDE_VALUE: Record<StandardLane, string> = {
  downtime: 'Downtime-Operational',
  parts: 'Parts-Operational',
  production: 'Production-Operational',
};

/** Which lane of buildLanes each include value shows (Production is the jobs lane: production runs). */
const STANDARD_LANE_ID: Record<StandardLane, LaneId> = {
  downtime: 'downtime',
  parts: 'parts',
  production: 'jobs',
};

export interface StandardTimeline {
  range: { start: EpochMs; end: EpochMs };
  /** The range asked for was longer than 7 days and was cut (reports-admin §5). */
  cut: boolean;
  /** The highlighted event (startTime, endTime); null when absent, invalid or past the 1-year horizon. */
  event: { start: number; end: number } | null;
  /** In the order of STANDARD_LANES. */
  include: readonly StandardLane[];
}

/**
 * The query of a standard timeline. include is one value of the spec's list, or several (repeated, or joined
 * with | or ,); unknown values are ignored and none known shows all three lanes. startTime and endTime are
 * epoch ms; a missing or earlier endTime means the event is still going on (it ends now). Without a valid
 * start and end the window is the timeline around the event, else today; at most 7 days either way.
 */
export function readStandardTimeline(
  q: URLSearchParams,
  clock: CompanyClock,
  now: EpochMs,
): StandardTimeline {
  const asked = new Set(q.getAll('include').flatMap((v) => v.split(/[|,]/).map((s) => s.trim())));
  const picked = STANDARD_LANES.filter((l) => asked.has(INCLUDE_VALUE[l]));
  const include = picked.length ? picked : STANDARD_LANES;

  const startTime = msParam(q.get('startTime'));
  const endTime = msParam(q.get('endTime'));
  // reports-admin §5: selections older than 1 year are cleared.
  const event =
    startTime != null && withinLinkHorizon(startTime, now)
      ? {
          start: startTime,
          end: endTime != null && endTime >= startTime ? endTime : Math.max(startTime, now),
        }
      : null;

  const start = msParam(q.get('start'));
  const end = msParam(q.get('end'));
  if (start != null && end != null && start < end) {
    const r = readTimelineRange(q, clock, now);
    return { range: { start: r.start, end: r.end }, cut: r.end < end, event, include };
  }
  const around = event ? timelineAround(event, now) : null;
  if (around)
    return { range: { start: epochMs(around.start), end: epochMs(around.end) }, cut: false, event, include };
  const today = readTimelineRange(new URLSearchParams(), clock, now);
  return { range: { start: today.start, end: today.end }, cut: false, event, include };
}

/** The query of a standard timeline (include as repeated parameters, one per lane, when not all three). */
export function writeStandardTimeline(t: {
  range: { start: number; end: number };
  event: { start: number; end: number | null } | null;
  include?: readonly StandardLane[];
}): URLSearchParams {
  const q = new URLSearchParams({ start: String(t.range.start), end: String(t.range.end) });
  if (t.event) {
    q.set('startTime', String(t.event.start));
    if (t.event.end != null) q.set('endTime', String(t.event.end));
  }
  const include = t.include ?? STANDARD_LANES;
  if (include.length < STANDARD_LANES.length)
    for (const l of STANDARD_LANES) if (include.includes(l)) q.append('include', INCLUDE_VALUE[l]);
  return q;
}

/**
 * reports-admin §2 Downtime report: "Selecting a row opens the standard timeline around the event": the
 * standard timeline of the stop's machine, an hour either side, the stop marked; null past the 1-year link
 * horizon (§5).
 */
export function standardTimelineAround(
  machineId: string,
  stop: { start: number; end: number | null },
  now: number,
): string | null {
  const range = timelineAround(stop, now);
  if (!range) return null;
  const q = writeStandardTimeline({ range, event: stop });
  return `/app/machines/${encodeURIComponent(machineId)}/standard-timeline?${q.toString()}`;
}

/** The lanes of buildLanes a standard timeline shows: the states, then the included ones in their order. */
export const standardLanes = (lanes: readonly Lane[], include: readonly StandardLane[]): Lane[] => {
  const ids = new Set<string>(['states', ...include.map((l) => STANDARD_LANE_ID[l])]);
  return lanes.filter((l) => ids.has(l.id));
};
