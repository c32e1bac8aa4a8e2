import {
  bucketMemo,
  liveGoal,
  livePartsGoal,
  NO_DATA_REASON_NAME,
  noDataSpans,
  piecesOf,
  segmentsOf,
  SETUP_REASON_NAME,
  spansMs,
} from '@takt/domain';
import type {
  CompanyCalendar,
  LiveLimits,
  LivePartsGoal,
  PartsEntry,
  RollupSource,
  UtilizationEntry,
} from '@takt/domain';
import type { CompanyScope } from '@takt/db';
import {
  loadCalendar,
  loadDowntimeFacts,
  loadHeldRollups,
  loadMonitoredFrom,
  loadRollupSources,
} from '@takt/db/rollups';
import { companyLimits, openRunsOn } from '../repositories/dashboard';
import type { JobRunRecord } from '../repositories/dispatch';
import type { HeldSums } from './held-sums';
import { currentWindow, goalRun, runFigures } from './workcenter';

// live-operations §2, §7: GET /api/dashboard/utilization and /api/dashboard/parts, one entry per machine.
// The numbers come from the one computation the workcenter card uses too (services/workcenter.ts
// runFigures over packages/domain live/figures.ts liveFigures), for every machine of a dashboard at once: one
// calendar, one query for the open job runs and a handful for the stored facts of all machines.

// The answer shapes are shared with the floor app (packages/domain dashboard.ts).

/** One machine's tile figures. */
export interface MachineFigures {
  utilization: UtilizationEntry;
  parts: PartsEntry;
}

/** One machine's dashboard entries at `now` from its stored facts (the same figures as workcenterLive). */
function machineFigures(input: {
  calendar: CompanyCalendar;
  machineId: string;
  source: RollupSource;
  run: JobRunRecord | undefined;
  window: { start: number; end: number };
  now: number;
  limits: LiveLimits;
}): MachineFigures {
  const { machineId, run, window, now } = input;
  const figures = runFigures({ ...input, windowStart: window.start });
  const { goal, percents } = figures;
  return {
    utilization: {
      machineId,
      start: window.start,
      end: now,
      utilization: percents.utilization,
      status: figures.utilizationStatus,
      oee: percents.oee,
      oeeStatus: figures.oeeStatus,
      availability: percents.availability,
      performance: percents.performance,
      quality: percents.quality,
      missingStandards: figures.efficiency?.missingStandards ?? false,
      noDataMs: spansMs(noDataSpans(input.source, window.start, now)),
    },
    parts: partsEntry(machineId, run, goal),
  };
}

/** A machine's entry of GET /api/dashboard/parts from its parts goal (and the tile's progress and parts). */
function partsEntry(machineId: string, run: JobRunRecord | undefined, goal: LivePartsGoal): PartsEntry {
  return {
    machineId,
    scheduled: goal.scheduled,
    jobId: run?.jobId ?? null,
    jobScheduleGroupId: run?.id ?? null,
    inSetup: goal.inSetup,
    setupSince: goal.inSetup && run ? run.startAt : null,
    expectedParts: goal.expectedParts,
    actualParts: run ? goal.goodParts : null,
    percent: goal.percent,
    aheadBehind: goal.aheadBehind,
    productionRuntimeMs: goal.productionRuntimeMs,
    status: goal.status,
  };
}

/** What the figures of any number of a company's machines read once: its calendar and its percents. */
export interface FiguresContext {
  calendar: CompanyCalendar;
  limits: LiveLimits;
}

export const figuresContext = async (scope: CompanyScope): Promise<FiguresContext> => {
  const [calendar, limits] = await Promise.all([
    loadCalendar(scope.db, scope.companyId),
    companyLimits(scope),
  ]);
  return { calendar, limits };
};

/**
 * The parts goal of each of the machines at `now` (the tiles of GET /api/dashboard and GET /api/dashboard/parts,
 * decision 1146): liveGoal, the goal liveFigures gives the card, without the window's utilization and OEE the
 * tile does not show. Only machines running a job read anything. Decision 1155: a machine whose stored hourly rows
 * still hold from its production start on (loadHeldRollups) reads facts only before them (from its run's start
 * to the first of them, the head) and after them (the fresh tail); the others read the facts from their run's
 * start, in two batches as dashboardFigures, the runs begun in the current window and the older ones.
 */
export async function dashboardGoals(
  scope: CompanyScope,
  machineIds: readonly string[],
  runs: ReadonlyMap<string, JobRunRecord>,
  now: number,
  known?: FiguresContext,
  /** The held rows' sums kept between answers (decision 1191); absent: summed at every call. */
  sums?: HeldSums,
): Promise<Map<string, PartsEntry>> {
  const out = new Map<string, PartsEntry>();
  if (machineIds.length === 0) return out;
  const scheduled = machineIds.filter((id) => runs.has(id));
  const [{ calendar, limits }, life, held] = await Promise.all([
    known ?? figuresContext(scope),
    // Read once for the batches below (each would read it again).
    loadMonitoredFrom(scope.db, scheduled),
    loadHeldRollups(
      scope.db,
      scope.companyId,
      scheduled.map((id) => {
        const run = runs.get(id)!;
        return { machineId: id, from: run.setupEnd ?? run.startAt };
      }),
      now,
    ),
  ]);
  const windowStart = currentWindow(calendar, now).start;
  const batches: FactBatch[] = [
    { ids: [], start: now, end: now },
    { ids: [], start: now, end: now },
  ];
  // The heads, each machine's cycles and adjustments read inside its own head only (they start at different times).
  const head: FactBatch = { ids: [], start: now, end: now };
  const within = new Map<string, { start: number; end: number }>();
  const tails: FactBatch[] = [
    { ids: [], start: now, end: now },
    { ids: [], start: now, end: now },
  ];
  for (const id of scheduled) {
    const start = runs.get(id)!.startAt;
    const h = held.get(id);
    if (!h) {
      addTo(batches[start < windowStart ? 1 : 0]!, id, start, now);
      continue;
    }
    // Tails a quarter of an hour old or more (a mark the worker has not reached) read apart from the fresh ones.
    addTo(tails[h.to < now - TAIL_APART_MS ? 1 : 0]!, id, h.to, now);
    if (start < h.from) {
      addTo(head, id, start, h.from);
      within.set(id, { start, end: h.from });
    }
  }
  // A goal reads no spindle or in-cut spans.
  const load = (b: FactBatch, heads?: typeof within) =>
    loadRollupSources(
      scope,
      b.ids,
      { start: b.start, end: b.end },
      { now, spans: false, within: heads, life },
    );
  const [sources, headSources, tailSources] = await Promise.all([
    Promise.all(batches.map((b) => load(b))),
    Promise.all([load(head, within)]),
    Promise.all(tails.map((b) => load(b))),
  ]);
  // The tails mostly share one range (from the hour the worker has not reached): its buckets are cut once.
  const memo = bucketMemo(calendar);
  const find = (maps: ReadonlyArray<Map<string, RollupSource>>, id: string) =>
    maps.map((m) => m.get(id)).find((x) => x !== undefined);
  for (const id of machineIds) {
    const run = runs.get(id);
    const h = held.get(id);
    const tail = h && find(tailSources, id);
    const source = find(sources, id) ?? (h ? (find(headSources, id) ?? tail) : undefined);
    const goal =
      run && source
        ? liveGoal({
            calendar,
            source,
            run: goalRun(run),
            now,
            limits,
            held:
              h && tail ? { ...h, tail, ...(sums ? { sum: sums.sumOf(scope.companyId, id, h) } : {}) } : null,
            memo,
          })
        : livePartsGoal(null, null, now, limits);
    out.set(id, partsEntry(id, run, goal));
  }
  return out;
}

/** Machines whose facts are read at once over [start, end). */
interface FactBatch {
  ids: string[];
  start: number;
  end: number;
}

const addTo = (b: FactBatch, id: string, start: number, end: number) => {
  b.ids.push(id);
  if (b.ids.length === 1) {
    b.start = start;
    b.end = end;
  } else {
    b.start = Math.min(b.start, start);
    b.end = Math.max(b.end, end);
  }
};

const TAIL_APART_MS = 15 * 60_000;

/**
 * Dashboard figures of the given machines at `now`. Facts are loaded in at most two batches: machines whose
 * run began inside the window share the window's range; the others share one range from their earliest run
 * start, so a week-long job on one machine does not make every machine load a week.
 */
export async function dashboardFigures(
  scope: CompanyScope,
  machineIds: readonly string[],
  now: number,
  /** The machines' open runs when the caller has read them already (openRunsOn). */
  knownRuns?: ReadonlyMap<string, JobRunRecord>,
): Promise<Map<string, MachineFigures>> {
  const out = new Map<string, MachineFigures>();
  if (machineIds.length === 0) return out;
  const [calendar, limits, runs] = await Promise.all([
    loadCalendar(scope.db, scope.companyId),
    companyLimits(scope),
    knownRuns ?? openRunsOn(scope, machineIds),
  ]);
  const window = currentWindow(calendar, now);
  const inWindow: string[] = [];
  const older: string[] = [];
  let olderStart = window.start;
  for (const id of machineIds) {
    const run = runs.get(id);
    if (run && run.startAt < window.start) {
      older.push(id);
      olderStart = Math.min(olderStart, run.startAt);
    } else inWindow.push(id);
  }
  const [a, b] = await Promise.all([
    loadRollupSources(scope, inWindow, { start: window.start, end: now }, { now }),
    loadRollupSources(scope, older, { start: olderStart, end: now }, { now }),
  ]);
  for (const id of machineIds) {
    const source = a.get(id) ?? b.get(id)!;
    out.set(id, machineFigures({ calendar, machineId: id, source, run: runs.get(id), window, now, limits }));
  }
  return out;
}

/**
 * The reason of the downtime each machine is in at `now` (the tile's `downtime_reason`, live-operations §3,
 * §4 "Idle … with an idle reason"): the name of the reason of the annotation covering that instant, split
 * exactly as GET /api/downtime splits it (packages/domain derive/downtime-pieces.ts), so the tile and the
 * downtime list never name different reasons. "Setup" for a setup annotation; "No data" for a machine
 * UNAVAILABLE now (or without a state since its last one) that no reason covers (METRICS.md §1, decision 1010).
 * Machines in uncategorized downtime, not in downtime or never monitored are left out. A fixed number of
 * queries for all machines.
 */
export async function currentDowntimeReasons(
  scope: CompanyScope,
  machineIds: readonly string[],
  now: number,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (machineIds.length === 0) return out;
  const facts = await loadDowntimeFacts(scope, machineIds, { start: now, end: now });
  const groupBy = <T>(rows: readonly T[], key: (r: T) => string) => {
    const m = new Map<string, T[]>();
    for (const r of rows) {
      const of = m.get(key(r));
      if (of) of.push(r);
      else m.set(key(r), [r]);
    }
    return m;
  };
  const annotationsOf = groupBy(facts.annotations, (a) => a.machineId);
  const intervalsOf = groupBy(facts.intervals, (r) => r.machine_id);
  for (const id of machineIds) {
    const intervals = intervalsOf.get(id) ?? [];
    const piece = piecesOf(
      segmentsOf(intervals.map((r) => ({ start: r.start_at, end: r.end_at, state: r.state }))),
      annotationsOf.get(id) ?? [],
    ).find((p) => p.start <= now && (p.end === null || p.end > now));
    const a = piece?.annotation;
    const reason = !a
      ? null
      : a.setup
        ? SETUP_REASON_NAME
        : a.category_id
          ? facts.types.get(a.category_id)?.name
          : null;
    if (reason) out.set(id, reason);
    else if (piece && !piece.setup) {
      const state = intervals.find((r) => r.start_at <= now && (r.end_at === null || r.end_at > now))?.state;
      if (state === undefined || state === 'UNAVAILABLE') out.set(id, NO_DATA_REASON_NAME);
    }
  }
  return out;
}
