import type { ScheduleRunSave } from '@takt/domain';
import { arrayOf, boolean, nullable, number, object, parseWith, string, tr } from '@takt/ui';
import { parseWallInput, wallInput } from '../quality/scrap-form';
import { PATHS } from '../routes';
import { checkDraft, draftOf, RUN_FIELDS } from './runs';
import type { RunDraft, RunField } from './runs';

// The schedule (job runs) timeline (reports-admin §2 "Schedule (job runs) timeline with zoom, create, edit,
// duplicate, delete"; §3 Job schedule group; §5 "Schedule form: at least one shift unless labor activities";
// §9 "schedule timeline zoom 1 to 31 days"; decision 0910) over GET/POST /api/productionruns and
// PUT/DELETE /api/productionruns/{id}. Pure: SchedulePage renders what these return.

/** reports-admin §9 "schedule timeline zoom 1 to 31 days". */
export const SCHEDULE_ZOOM = { min: 1, max: 31 } as const;
/** The window opened without a zoom in the URL: one week, a planner's usual horizon (decision 0910). */
export const DEFAULT_ZOOM_DAYS = 7;
/** The zoom choices offered: every step from a day to a month would crowd the list. */
export const ZOOM_CHOICES = [1, 2, 3, 7, 14, 31] as const;

const DAY_MS = 24 * 3600 * 1000;

const scheduleRunCheck = object({
  ...RUN_FIELDS,
  partchangeovertime: number,
  shifts: arrayOf(string),
  // reports-admin §3 Labor activity: the stages and production the second form plans (decision 0940).
  laborActivities: arrayOf(
    object({ startAt: number, endAt: nullable(number), setupStageId: nullable(string), setup: boolean }),
  ),
});
export type ScheduleRun = ReturnType<typeof scheduleRunCheck>;
export const parseScheduleRun = parseWith(scheduleRunCheck);
export const parseScheduleRuns = parseWith(arrayOf(scheduleRunCheck));

/** A zoom from the URL: whole days from 1 to 31; anything else opens the default. */
export function zoomOf(text: string | null): number {
  const n = text === null || !/^\d+$/.test(text) ? NaN : Number(text);
  return n >= SCHEDULE_ZOOM.min && n <= SCHEDULE_ZOOM.max ? n : DEFAULT_ZOOM_DAYS;
}

/** The company day a `start=YYYY-MM-DD` names, else today's; the window starts at its midnight. */
export function windowOf(
  timezone: string,
  startDay: string | null,
  days: number,
  now: number,
): { day: string; start: number; end: number } {
  const today = wallInput(timezone, now).slice(0, 10);
  const day = startDay && /^\d{4}-\d{2}-\d{2}$/.test(startDay) ? startDay : today;
  const start = parseWallInput(timezone, `${day}T00:00`) ?? parseWallInput(timezone, `${today}T00:00`)!;
  // The end is `days` company midnights later, so a daylight-saving change keeps whole days.
  const end = parseWallInput(
    timezone,
    `${wallInput(timezone, start + days * DAY_MS + 12 * 3600 * 1000).slice(0, 10)}T00:00`,
  )!;
  return { day: wallInput(timezone, start).slice(0, 10), start, end };
}

/** The day `days` days after (or before, negative) a YYYY-MM-DD, for the previous and next links. */
export function shiftDay(day: string, days: number): string {
  const t = Date.parse(`${day}T12:00:00Z`) + days * DAY_MS;
  return new Date(t).toISOString().slice(0, 10);
}

export const scheduleHref = (day: string, days: number): string =>
  `${PATHS.schedule}?${new URLSearchParams({ start: day, days: String(days) }).toString()}`;

/** Where a run's bar sits in the window, in percent; null when it is outside. An open end runs to `now`'s right. */
export function barOf(
  run: { startdate: number; enddate: number | null },
  w: { start: number; end: number },
): { left: number; width: number; clippedStart: boolean; clippedEnd: boolean } | null {
  const end = run.enddate ?? Number.POSITIVE_INFINITY;
  if (end <= w.start || run.startdate >= w.end) return null;
  const from = Math.max(run.startdate, w.start);
  const to = Math.min(end, w.end);
  const span = w.end - w.start;
  return {
    left: ((from - w.start) / span) * 100,
    width: Math.max(((to - from) / span) * 100, 0.25),
    clippedStart: run.startdate < w.start,
    clippedEnd: end > w.end,
  };
}

/** One lane per machine in the order given, with its runs by start; runs of unknown machines get their own. */
export function lanesOf<R extends { machine_id: string; machine_name: string; startdate: number }>(
  machines: ReadonlyArray<{ id: string; name: string }>,
  runs: readonly R[],
): Array<{ id: string; name: string; runs: R[] }> {
  const lanes = machines.map((m) => ({ id: m.id, name: m.name, runs: [] as R[] }));
  for (const r of runs) {
    let lane = lanes.find((l) => l.id === r.machine_id);
    if (!lane) {
      lane = { id: r.machine_id, name: r.machine_name, runs: [] };
      lanes.push(lane);
    }
    lane.runs.push(r);
  }
  for (const l of lanes) l.runs.sort((a, b) => a.startdate - b.startdate);
  return lanes;
}

// ---- The schedule form (with shifts): the editor's draft and checks plus the schedule's fields.

export interface ScheduleDraft extends RunDraft {
  /** reports-admin §3 shifts: the ids of the shifts the run runs in. */
  shifts: string[];
  /** Part changeover time in seconds (stored in ms). */
  changeoverSeconds: string;
  /** A planned setup's expected time in minutes (§4: none null, unplanned 0). */
  setupMinutes: string;
}

export type ScheduleField = RunField | 'shifts' | 'changeover' | 'setupTime' | 'stages';

export function scheduleDraftOf(run: ScheduleRun, timezone: string): ScheduleDraft {
  return {
    ...draftOf(run, timezone),
    shifts: [...run.shifts],
    changeoverSeconds: String(run.partchangeovertime / 1000),
    setupMinutes: run.startInSetup === 'planned' && run.setuptime ? String(run.setuptime / 60000) : '0',
  };
}

/** A new run: the machine and start clicked, no end, no setup, the spec's defaults (§9 "Defaults: cycle times 60000 ms, part multiplier 1, actual parts 1"). */
export function newDraft(
  machineId: string,
  jobId: string,
  start: number,
  timezone: string,
  shifts: string[],
): ScheduleDraft {
  return {
    jobId,
    machineId,
    start: wallInput(timezone, start),
    ends: 'never',
    end: '',
    startInSetup: 'none',
    setupEnds: 'still',
    setupEnd: '',
    cycleSeconds: '60',
    idealSeconds: '60',
    multiplier: '1',
    actualParts: '1',
    shifts,
    changeoverSeconds: '0',
    setupMinutes: '0',
  };
}

/**
 * A copy of a run (§2 "duplicate"): the same job, machine, standards and shifts, starting where the run ends
 * and lasting as long (a run that never ends copies to start now's next hour, never ending), so the copy does
 * not overlap it.
 */
export function duplicateDraft(run: ScheduleRun, timezone: string, now: number): ScheduleDraft {
  const d = scheduleDraftOf(run, timezone);
  const HOUR = 3600 * 1000;
  const start = run.enddate ?? Math.ceil(Math.max(now, run.startdate + 1) / HOUR) * HOUR;
  const move = start - run.startdate;
  return {
    ...d,
    start: wallInput(timezone, start),
    end: run.enddate === null ? '' : wallInput(timezone, run.enddate + move),
    setupEnd: d.setupEnds === 'date' && run.setupend !== null ? wallInput(timezone, run.setupend + move) : '',
  };
}

const decimal = (text: string): number | null => {
  const t = text.trim();
  return /^\d+(\.\d+)?$|^\.\d+$/.test(t) ? Number(t) : null;
};

/**
 * The schedule form checked as the user types: the editor's checks (runs.ts checkDraft) and §5 "at least one
 * shift unless labor activities" (a run with labor activities may have none) and "with setup stages, non-none
 * setup needs at least one saved labor activity with a stage" (`needsStage`: the company uses stages and the
 * run has none saved), with the body to send.
 */
export function checkScheduleDraft(
  d: ScheduleDraft,
  timezone: string,
  hasLaborActivities = false,
  needsStage = false,
): { errors: Partial<Record<ScheduleField, string>>; body: ScheduleRunSave | null } {
  const base = checkDraft(d, timezone);
  const errors: Partial<Record<ScheduleField, string>> = { ...base.errors };
  if (d.shifts.length === 0 && !hasLaborActivities) errors.shifts = tr('schedule.rule.shiftRequired');
  if (needsStage && d.startInSetup !== 'none') errors.stages = tr('scheduleMore.rule.stageRequired');
  const changeover = decimal(d.changeoverSeconds);
  if (changeover === null) errors.changeover = tr('schedule.rule.changeoverNotNegative');
  const setupMinutes = d.startInSetup === 'planned' ? decimal(d.setupMinutes) : 0;
  if (setupMinutes === null) errors.setupTime = tr('schedule.rule.setupTimeNotNegative');
  if (!base.body || Object.keys(errors).length > 0 || changeover === null || setupMinutes === null)
    return { errors, body: null };
  return {
    errors,
    body: {
      ...base.body,
      shifts: d.shifts,
      partchangeovertime: Math.round(changeover * 1000),
      setuptime: d.startInSetup === 'none' ? null : Math.round(setupMinutes * 60000),
    },
  };
}

/** Instants to a company wall time rounded down to the hour: where a click on a lane starts a new run. */
export function hourAt(w: { start: number; end: number }, fraction: number): number {
  const HOUR = 3600 * 1000;
  const t = w.start + Math.min(Math.max(fraction, 0), 1) * (w.end - w.start);
  return w.start + Math.floor((t - w.start) / HOUR) * HOUR;
}

/** Where a run's label sits under the bars: its row and the room it has before the next label in that row. */
export interface BarLabel {
  /** 0 or 1: a crowded lane staggers its labels over two rows so each gets twice the room. */
  row: 0 | 1;
  /** Left edge, in percent of the window. */
  left: number;
  /** The room in percent of the window up to the next label in its row (or the window's end). */
  maxWidth: number;
}

/** Below this room (percent of the window) a label gets too few characters: the lane staggers its labels. */
export const CROWDED_LABEL_PERCENT = 12;

/**
 * The labels of a lane's bars (in the lane's order, null for a run outside the window). At wide zooms a bar is
 * a few pixels: its job name goes under it with the room up to the next bar's label, staggered over two rows
 * when the lane is crowded, truncated with an ellipsis (the full text stays in the bar's title and name).
 */
export function barLabelsOf(bars: ReadonlyArray<{ left: number } | null>): {
  labels: Array<BarLabel | null>;
  rows: 1 | 2;
} {
  const shown = bars.flatMap((b, k) => (b ? [{ k, left: b.left }] : []));
  const crowded = shown.some(
    (b, i) => i + 1 < shown.length && shown[i + 1]!.left - b.left < CROWDED_LABEL_PERCENT,
  );
  const step = crowded ? 2 : 1;
  const labels: Array<BarLabel | null> = bars.map(() => null);
  shown.forEach((b, i) => {
    const next = shown[i + step];
    labels[b.k] = {
      row: crowded ? ((i % 2) as 0 | 1) : 0,
      left: b.left,
      maxWidth: Math.max((next ? next.left : 100) - b.left, 0),
    };
  });
  return { labels, rows: crowded ? 2 : 1 };
}

/**
 * How much of a run's visible bar is setup, in percent (reports-admin §4 start in setup; decision 0940): the
 * stripe covers the setup only, from the start to the setup end (all of it while still in setup), so a run
 * planned as setup stages reads as setup then production. 0 without setup.
 */
export function setupShareOf(
  run: { startdate: number; enddate: number | null; startInSetup: string; setupend: number | null },
  w: { start: number; end: number },
): number {
  if (run.startInSetup === 'none') return 0;
  const from = Math.max(run.startdate, w.start);
  const to = Math.min(run.enddate ?? Number.POSITIVE_INFINITY, w.end);
  if (to <= from) return 0;
  const setupEnd = Math.min(Math.max(run.setupend ?? to, from), to);
  return ((setupEnd - from) / (to - from)) * 100;
}
