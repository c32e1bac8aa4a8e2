import type { CycleInputOption, Me } from '@takt/domain';
import type { DowntimeEntry, JobState, OperatorState, WorkcenterView } from '../offline/optimistic';
import { UNDERLAY_AUTO_EXPAND_MS, UNDERLAY_DELAY_MS } from './machines/underlayTiming';

// The workcenter as last pulled from the server (before the overlays of queued actions are folded over it).
// Inputs are the loose JSON stored in Dexie: every field is read defensively, since the API grows under us.

type Loose = Record<string, unknown> | null | undefined;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

export type ProductTier = 'serviceProvider' | 'utilization' | 'full';

/**
 * The company flags of live-operations §3 (GET /api/company/flags, companyFlagsSchema in @takt/domain), read
 * from the copy cached in Dexie. `loaded` is false before the first successful pull on this device: then the
 * defaults below apply (read loosely, no zod, to keep the workcenter route's first chunk small).
 */
export interface CompanyFlags {
  loaded: boolean;
  /** null before the first load: stage buttons show when the company has stages. */
  enableSetupStages: boolean | null;
  hideRemoveRejectedPartsCheckbox: boolean;
  areActivitiesEnabled: boolean;
  cycleInputOption: CycleInputOption;
  /** null before the first load: a bound tablet stays on its machine, other devices may switch. */
  enableTabletMachineSwitching: boolean | null;
  /** null before the first load: the periods the server marked short are hidden. */
  downtimeListFilterMs: number | null;
  /** Start of the company day after local midnight (currentTimeContext.offset_millis). */
  timeContextOffsetMs: number;
  /** null before the first load: the session's permissions alone decide FullProduct. */
  productTier: ProductTier | null;
  // Company settings (decision 1087); before the first load, the defaults of decision 0708.
  /** The operator name button and the card's operator (live-operations §2 "when operator tracking is on"). */
  operatorTracking: boolean;
  underlayDelayMs: number;
  underlayAutoExpandMs: number;
  /** "Only Long Downtimes" hides periods at or below it; null before the first load: the filter duration. */
  longDowntimeMs: number | null;
}

const CYCLE_INPUT: readonly CycleInputOption[] = ['timepercycle', 'timeperpart', 'partsperhour'];
const TIERS: readonly ProductTier[] = ['serviceProvider', 'utilization', 'full'];
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
const oneOf = <T extends string>(v: unknown, all: readonly T[]): T | null =>
  all.includes(v as T) ? (v as T) : null;

export function companyFlagsOf(raw: unknown): CompanyFlags {
  const f = obj(raw);
  return {
    loaded: f !== null,
    enableSetupStages: bool(f?.enable_setup_stages),
    hideRemoveRejectedPartsCheckbox: f?.hide_remove_rejected_parts_checkbox === true,
    areActivitiesEnabled: f?.areActivitiesEnabled === true,
    cycleInputOption: oneOf(f?.cycleinputoption, CYCLE_INPUT) ?? 'timepercycle',
    enableTabletMachineSwitching: bool(f?.enable_tablet_machine_switching),
    downtimeListFilterMs: num(f?.downtime_list_filter_duration),
    timeContextOffsetMs: num(obj(f?.currentTimeContext)?.offset_millis) ?? 0,
    productTier: oneOf(f?.product_tier, TIERS),
    operatorTracking: f?.operator_tracking !== false,
    underlayDelayMs: num(f?.underlay_delay) ?? UNDERLAY_DELAY_MS,
    underlayAutoExpandMs: num(f?.underlay_auto_expand) ?? UNDERLAY_AUTO_EXPAND_MS,
    longDowntimeMs: num(f?.long_downtime_threshold),
  };
}

/** The open stage of a labor activity set: its last activity without an end. */
function openStage(las: Loose): string | null {
  const acts = Array.isArray(las?.laborActivities) ? (las.laborActivities as Loose[]) : [];
  const open = [...acts].reverse().find((a) => a && a.endAt == null);
  return str(open?.setupStageId);
}

/** Two dashboard polls (live-operations §2: machines every 5 s). */
export const TILE_OVERRIDES_RUN_AFTER_MS = 10_000;

/** The job of a run (JobRunView of GET /api/dispatch/current or of this tablet's own start), or null. */
function jobOfRun(run: Record<string, unknown>): JobState {
  const las = obj(run.laborActivitySet);
  const setup = run.setupend == null && run.setuptime != null;
  return {
    jobId: str(run.job_id) ?? str(run.jobId) ?? '',
    jobName: str(run.jobName),
    runId: str(run.id),
    runRef: null,
    setup,
    setupSince: setup ? num(run.startdate) : null,
    stageId: setup ? openStage(las) : null,
    expectedSetupMs: num(las?.expectedSetupDuration) ?? (num(run.setuptime) ?? 0) * 1000,
    startedAt: num(run.startdate),
  };
}

/** The dashboard tile's job fields, with the run's details when both name the same run. */
function jobOfTile(tile: Loose, running: Record<string, unknown> | null): JobState | null {
  const tileRunId = str(tile?.jobScheduleGroupId);
  const tileJobId = str(tile?.jobId);
  if (!tileJobId || !tileRunId) return null;
  const same = running != null && str(running.id) === tileRunId;
  const las = same ? obj(running.laborActivitySet) : null;
  const setupSince = num(tile?.setupSince);
  return {
    jobId: tileJobId,
    jobName: str(tile?.jobName) ?? (same ? str(running.jobName) : null),
    runId: tileRunId,
    runRef: null,
    setup: setupSince != null && num(tile?.setupEnd) == null,
    setupSince,
    stageId: same ? openStage(las) : null,
    // The run's expected setup (its own, else the job's standard, decision 1083) before the tile's setup time,
    // which a start leaves at 0.
    expectedSetupMs: (same ? num(las?.expectedSetupDuration) : null) ?? num(tile?.jobRunSetupTime),
    startedAt: same ? num(running.startdate) : null,
  };
}

/**
 * The running job. The machine's open run as GET /api/dispatch/current last answered (or this tablet's own
 * start/stop answer, whichever came later) is the source: it carries the stage and the setup times. The
 * dashboard tile, polled every 5 s, only wins when it names another run and is clearly newer (a job started or
 * stopped elsewhere since the last pull, which comes every minute): two polls newer, so a tile answered in the
 * same pull, or computed a moment behind the run, never hides it. It stands in before the first pull.
 * `runAt` and `tileAt` are server times; `runAt` null means the run was never pulled on this device.
 */
export function jobOf(
  tile: Loose,
  run: Loose,
  times: { runAt: number | null; tileAt: number | null } = { runAt: null, tileAt: null },
): JobState | null {
  const running = run && run.enddate == null ? run : null;
  const fromTile = jobOfTile(tile, running);
  if (times.runAt == null) return fromTile ?? (running ? jobOfRun(running) : null);
  const tileRunId = str(tile?.jobScheduleGroupId);
  const agree = (running ? str(running.id) : null) === (tileRunId && str(tile?.jobId) ? tileRunId : null);
  const tileNewer = times.tileAt != null && times.tileAt > times.runAt + TILE_OVERRIDES_RUN_AFTER_MS;
  if (!agree && tileNewer) return fromTile;
  return running ? jobOfRun(running) : null;
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
        noData: i.noData === true,
      },
    ];
  });
}

export function baseView(input: {
  tile: Loose;
  run: Loose;
  runAt?: number | null;
  tileAt?: number | null;
  operatorRun: Loose;
  downtime: unknown;
}): WorkcenterView {
  return {
    job: jobOf(input.tile, input.run, { runAt: input.runAt ?? null, tileAt: input.tileAt ?? null }),
    operator: operatorOf(input.operatorRun),
    downtime: downtimeOf(input.downtime),
    rejectedParts: 0,
    partsAdded: 0,
    manualAdds: [],
    pending: new Set(),
  };
}

/**
 * live-operations §6: FullProduct gates job name, parts goal, cycle and OEE, Start/Stop Job, Reject Part, the
 * operator picker, manual add/undo. The session's permissions decide; the company's product_tier, pulled with
 * the flags, withdraws it at once when the company left the full tier since the session was cached (the
 * server refuses those commands anyway, decision 0501).
 */
export const hasFullProduct = (
  me: Pick<Me, 'permissions'>,
  flags: Pick<CompanyFlags, 'productTier'> | null = null,
): boolean =>
  me.permissions.includes('FullProduct') && (flags?.productTier == null || flags.productTier === 'full');

/**
 * live-operations §2: the machine switcher is hidden when switching is disabled. Off a tablet it follows the
 * URL (switcher=false). A tablet bound to one machine never switches (§2 "switcher=false when the tablet is
 * bound to one machine"; the server refuses it every other machine, decision 0500); on an unbound tablet
 * enable_tablet_machine_switching decides (decision 0706).
 */
export function switcherAllowed(
  mode: { tablet: boolean; switcher: boolean; bound: boolean },
  flags: Pick<CompanyFlags, 'enableTabletMachineSwitching'>,
): boolean {
  if (!mode.switcher) return false;
  if (!mode.tablet) return true;
  if (mode.bound) return false;
  return flags.enableTabletMachineSwitching ?? true;
}

/**
 * Manual work centers (workcenter type manual) add parts by hand. The server's workcenterType decides: the
 * dashboard tile's, else the card's live data (GET /api/workcenter/:id); a machine when neither was loaded.
 */
export function workcenterTypeOf(...sources: Loose[]): 'machine' | 'manual' | 'other' {
  for (const src of sources) {
    const v = str(src?.workcenterType);
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
