import type { Me } from '@takt/domain';
import type { DowntimeEntry, JobState, OperatorState, WorkcenterView } from '../offline/optimistic';

// The workcenter as last pulled from the server (before the overlays of queued actions are folded over it).
// Inputs are the loose JSON stored in Dexie: every field is read defensively, since the API grows under us.

type Loose = Record<string, unknown> | null | undefined;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

export interface CompanyFlags {
  enableSetupStages: boolean | null;
  hideRemoveRejectedPartsCheckbox: boolean;
  downtimeListFilterMs: number | null;
  enableTabletMachineSwitching: boolean;
}

export function companyFlagsOf(raw: unknown): CompanyFlags {
  const f = obj(raw) ?? {};
  return {
    enableSetupStages: typeof f.enable_setup_stages === 'boolean' ? f.enable_setup_stages : null,
    hideRemoveRejectedPartsCheckbox: f.hide_remove_rejected_parts_checkbox === true,
    downtimeListFilterMs: num(f.downtime_list_filter_duration),
    enableTabletMachineSwitching: f.enable_tablet_machine_switching !== false,
  };
}

/** The open stage of a labor activity set: its last activity without an end. */
function openStage(las: Loose): string | null {
  const acts = Array.isArray(las?.laborActivities) ? (las.laborActivities as Loose[]) : [];
  const open = [...acts].reverse().find((a) => a && a.endAt == null);
  return str(open?.setupStageId);
}

/**
 * The running job: the tile's job fields when the server fills them, else the run this device last heard of
 * (the answer to its own start, or GET currentRun once the API has it).
 */
export function jobOf(tile: Loose, run: Loose): JobState | null {
  const running = run && run.enddate == null ? run : null;
  const las = obj(running?.laborActivitySet);
  const tileRunId = str(tile?.jobScheduleGroupId);
  const tileJobId = str(tile?.jobId);
  if (tileJobId && tileRunId) {
    const same = running && str(running.id) === tileRunId;
    const setupSince = num(tile?.setupSince);
    return {
      jobId: tileJobId,
      jobName: str(tile?.jobName) ?? (same ? str(running.jobName) : null),
      runId: tileRunId,
      runRef: null,
      setup: setupSince != null && num(tile?.setupEnd) == null,
      setupSince,
      stageId: same ? openStage(las) : null,
      expectedSetupMs: num(tile?.jobRunSetupTime) ?? (same ? num(las?.expectedSetupDuration) : null),
      startedAt: same ? num(running.startdate) : null,
    };
  }
  if (!running) return null;
  const setup = running.setupend == null && running.setuptime != null;
  return {
    jobId: str(running.job_id) ?? str(running.jobId) ?? '',
    jobName: str(running.jobName),
    runId: str(running.id),
    runRef: null,
    setup,
    setupSince: setup ? num(running.startdate) : null,
    stageId: setup ? openStage(las) : null,
    expectedSetupMs: num(las?.expectedSetupDuration) ?? (num(running.setuptime) ?? 0) * 1000,
    startedAt: num(running.startdate),
  };
}

export function operatorOf(run: Loose): OperatorState | null {
  if (!run || run.endAt != null) return null;
  const name = str(obj(run.operator)?.name) ?? str(run.operatorName);
  const startAt = num(run.startAt);
  if (!name || startAt == null) return null;
  return { operatorId: str(run.operatorId), name, startAt };
}

export function downtimeOf(raw: unknown): DowntimeEntry[] {
  const items = Array.isArray(obj(raw)?.items) ? (obj(raw)!.items as Loose[]) : [];
  return items.flatMap((i) => {
    const start = num(i?.start);
    if (!i || start == null) return [];
    return [
      {
        start,
        end: num(i.end),
        reason: str(i.reason),
        color: str(i.color),
        message: str(i.message),
        planned: typeof i.planned === 'boolean' ? i.planned : null,
        short: i.short === true,
        setup: i.setup === true,
        annotationTypeId: str(obj(i.annotationType)?.id),
      },
    ];
  });
}

export function baseView(input: {
  tile: Loose;
  run: Loose;
  operatorRun: Loose;
  downtime: unknown;
}): WorkcenterView {
  return {
    job: jobOf(input.tile, input.run),
    operator: operatorOf(input.operatorRun),
    downtime: downtimeOf(input.downtime),
    rejectedParts: 0,
    partsAdded: 0,
    pending: new Set(),
  };
}

/** live-operations §6: FullProduct gates Start/Stop Job, Reject Part, the operator picker, manual add/undo. */
export const hasFullProduct = (me: Pick<Me, 'permissions'>): boolean =>
  me.permissions.includes('FullProduct');

/**
 * Manual work centers (workcenter type manual) add parts by hand. The first source that names a type wins: the
 * tile, then the card's live data (GET /api/workcenter/:id); a machine when none does.
 */
export function workcenterTypeOf(...sources: Loose[]): 'machine' | 'manual' | 'other' {
  for (const src of sources) {
    const v = str(src?.workcenterType) ?? str(src?.workcenter_type);
    if (v === 'manual' || v === 'other' || v === 'machine') return v;
  }
  return 'machine';
}

/**
 * The job's part multiplier (live-operations §9 default 1): the tile's, the run's, else the card's live data
 * (whose multiplier is the running job's).
 */
export function multiplierOf(tile: Loose, run: Loose, live: Loose = null): number {
  const m = num(tile?.multiplier) ?? num(run?.partcount_multiplier) ?? num(live?.multiplier);
  return m != null && m > 0 ? m : 1;
}
