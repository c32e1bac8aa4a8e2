import type { ScheduleRunSave, ScheduleStageActivity } from '@takt/domain';
import { tr } from '@takt/ui';
import { parseWallInput, wallInput } from '../quality/scrap-form';
import { checkDraft } from './runs';
import type { ScheduleDraft, ScheduleField, ScheduleRun } from './schedule';

// The second schedule form (reports-admin §2 "two forms: with shifts, and with setup-stage labor activities";
// §3 Labor activity; §5 "with setup stages, non-none setup needs at least one saved labor activity with a
// stage"; decision 0940): a run planned as the company's setup stages, in stage order, each its percentage of
// the setup time, then production. Pure: SchedulePage renders what these return.

/** A company setup stage as GET /api/setup/stages answers it (active ones, in stage order). */
export interface StageChoice {
  id: string;
  name: string;
  stageOrder: number;
  setupPercentage: number;
}

/** Which of the two forms plans the run. */
export type ScheduleFormKind = 'shifts' | 'stages';

/** One stage of the plan: its share of the setup time and where it falls. */
export interface PlannedStage {
  stage: StageChoice;
  ms: number;
  start: number;
  end: number;
}

/**
 * The stages of a setup of `totalMs` from `start`: in stage order, each `setupPercentage` of the total
 * (the last takes the rounding remainder, so they add up to the total exactly); stages of 0 % have no time
 * and are left out, as the floor app never spends time in them.
 */
export function planStages(stages: readonly StageChoice[], start: number, totalMs: number): PlannedStage[] {
  const ordered = [...stages]
    .filter((s) => s.setupPercentage > 0)
    .sort((a, b) => a.stageOrder - b.stageOrder || a.name.localeCompare(b.name));
  const out: PlannedStage[] = [];
  let at = start;
  ordered.forEach((stage, k) => {
    const end =
      k === ordered.length - 1 ? start + totalMs : at + Math.round((totalMs * stage.setupPercentage) / 100);
    if (end > at) out.push({ stage, ms: end - at, start: at, end });
    at = Math.max(at, end);
  });
  return out;
}

/**
 * Whether a saved run opens in the form with setup stages: its setup is planned as stages that have ended
 * (a run still in a stage is the floor's to move on, so it opens with shifts, its saved stage standing in).
 */
export const opensWithStages = (run: Pick<ScheduleRun, 'laborActivities' | 'setupend'>): boolean =>
  run.setupend !== null && run.laborActivities.some((a) => a.setup && a.setupStageId !== null);

/** A saved run's setup time as the stages form edits it: the length of its setup, in minutes. */
export const setupMinutesOf = (run: Pick<ScheduleRun, 'startdate' | 'setupend' | 'startInSetup'>): string =>
  run.startInSetup === 'none' || run.setupend === null ? '0' : String((run.setupend - run.startdate) / 60000);

const decimal = (text: string): number | null => {
  const t = text.trim();
  return /^\d+(\.\d+)?$|^\.\d+$/.test(t) ? Number(t) : null;
};

/**
 * The form with setup stages checked as the user types: the editor's checks (runs.ts checkDraft) without the
 * setup end, which the stages give; a setup needs time and at least one stage (§5); the setup must end by the
 * run's end. The body plans the stages from the start and production after them, with no shifts (the labor
 * activities stand in for them, §5); a planned setup's time is the stages' total (§4: unplanned 0).
 */
export function checkStagesDraft(
  d: ScheduleDraft,
  timezone: string,
  stages: readonly StageChoice[],
): { errors: Partial<Record<ScheduleField, string>>; body: ScheduleRunSave | null; plan: PlannedStage[] } {
  const base = checkDraft({ ...d, setupEnds: 'still', setupEnd: '' }, timezone);
  const errors: Partial<Record<ScheduleField, string>> = { ...base.errors };
  const inSetup = d.startInSetup !== 'none';
  const start = parseWallInput(timezone, d.start);
  const minutes = inSetup ? decimal(d.setupMinutes) : 0;
  const totalMs = minutes === null ? 0 : Math.round(minutes * 60000);
  const plan = inSetup && start !== null ? planStages(stages, start, totalMs) : [];
  if (inSetup && (minutes === null || totalMs <= 0))
    errors.setupTime = tr('scheduleMore.rule.setupTimePositive');
  else if (inSetup && plan.length === 0) errors.stages = tr('scheduleMore.rule.stageRequired');
  const end = d.ends === 'date' ? parseWallInput(timezone, d.end) : null;
  const setupEnd = start === null ? null : start + totalMs;
  if (!errors.setupTime && !errors.end && inSetup && end !== null && setupEnd !== null && setupEnd > end)
    errors.setupTime = tr('scheduleMore.rule.setupPastEnd');
  const changeover = decimal(d.changeoverSeconds);
  if (changeover === null) errors.changeover = tr('schedule.rule.changeoverNotNegative');
  if (!base.body || Object.keys(errors).length > 0 || changeover === null || setupEnd === null)
    return { errors, body: null, plan };
  const laborActivities: ScheduleStageActivity[] = plan.map((p) => ({
    setupStageId: p.stage.id,
    startAt: p.start,
    endAt: p.end,
  }));
  return {
    errors,
    plan,
    body: {
      ...base.body,
      setupend: inSetup ? setupEnd : null,
      setuptime: d.startInSetup === 'none' ? null : d.startInSetup === 'planned' ? totalMs : 0,
      partchangeovertime: Math.round(changeover * 1000),
      shifts: [],
      laborActivities,
    },
  };
}

/** A stage's time as the plan shows it: from–to in the company's zone (time only) and minutes. */
export const stageTimes = (p: PlannedStage, timezone: string) => ({
  from: wallInput(timezone, p.start).slice(11, 16),
  to: wallInput(timezone, p.end).slice(11, 16),
  minutes: String(Math.round(p.ms / 600) / 100),
});
