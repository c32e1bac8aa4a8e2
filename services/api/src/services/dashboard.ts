import { machineConnection } from '@takt/domain';
import type {
  DashboardMachine,
  DashboardResponse,
  EdgeHealth,
  GatewayStatusEntry,
  PartsEntry,
  UnmappedEntry,
  UtilizationEntry,
} from '@takt/domain';
import { CONNECTION_KEY } from '@takt/db';
import type { CompanyScope, MachineLiveTable } from '@takt/db';
import { ApiError } from '../http/errors';
import {
  adapterFieldsOf,
  keysSeenSince,
  lastProductionCycles,
  companyOpenRuns,
  groupIdsOf,
  lastStoppedJobNames,
  openRunsOn,
} from '../repositories/dashboard';
import type { JobRunRecord } from '../repositories/dispatch';
import {
  companyLiveConnections,
  liveConnections,
  NO_CONNECTION_FACTS,
} from '../repositories/machine-connection';
import type { ConnectionFacts, LiveConnection } from '../repositories/machine-connection';
import type { Machine } from '../repositories/machines';
import { listGroups, listMachines } from '../repositories/machines';
import {
  currentDowntimeReasons,
  dashboardFigures,
  dashboardGoals,
  figuresContext,
} from './dashboard-figures';
import type { FiguresContext } from './dashboard-figures';
import type { HeldSums } from './held-sums';
import { tileWithoutFullProduct, utilizationWithoutFullProduct } from './full-product';
import { companyGatewayStatus } from './gateways';
import { machineLink } from './workcenter';
import type { CycleEntry } from '@takt/domain';

// The live dashboards (live-operations §2, §6, §7): GET /api/dashboard tiles (also the live channel's `live`
// payload), /utilization and /parts, /status (unmapped keys, gateway health) and /cycles.

// ---------------------------------------------------------------------------------------------
// Tiles

/**
 * live-operations §3 "Machine (dashboard tile)" from the machine row and the live row ingest keeps. The
 * status, its since and the connection follow the link heartbeat rule (packages/domain live/link.ts): if the
 * ingest worker itself went silent, the machine reads as UNAVAILABLE from the moment the 5 minutes ran out.
 * The connection is the machine's (machineConnection, decision 1055): the words the Machines list and
 * Diagnostics show too.
 */
function toDashboardMachine(
  m: Machine,
  live: MachineLiveTable | undefined,
  groupIds: string[],
  now: number,
  facts: ConnectionFacts,
): DashboardMachine {
  const link = machineLink(live, now);
  const connection = machineConnection(
    { ...facts, link: live?.connection ?? null, lastHeartbeat: live?.last_heartbeat ?? null },
    now,
  );
  return {
    id: m.id,
    name: m.name,
    status: link.state,
    statusSince: link.since,
    jobScheduleGroupId: null,
    jobId: null,
    pausedJobName: null,
    autostartBehavior: m.autostartBehavior,
    downtimefailuredelay: m.downtimeFailureDelay,
    progress: null,
    expectedParts: null,
    actualParts: null,
    setupSince: null,
    jobRunSetupTime: null,
    stale: !link.up,
    lastHeartbeat: connection.lastHeartbeat,
    faultSince: live?.fault_since ?? null,
    faultMessage: live?.fault_message ?? null,
    extendedStatus: live?.execution ?? (live ? 'UNAVAILABLE' : null),
    extendedStatusSince: live?.execution_since ?? null,
    setupEnd: null,
    downtime_reason: null,
    scheduled: false,
    groupIds,
    program: live?.program ?? null,
    partCount: live?.part_count ?? null,
    connection: connection.state,
    workcenterType: m.workcenterType,
  };
}

/** The job running on a scheduled machine, as its tile shows it (live-operations §3, §4). */
function scheduledTile(
  tile: DashboardMachine,
  run: JobRunRecord,
  parts: PartsEntry | undefined,
): DashboardMachine {
  return {
    ...tile,
    scheduled: true,
    jobScheduleGroupId: run.id,
    jobId: run.jobId,
    setupSince: run.setupEnd == null ? run.startAt : null,
    setupEnd: run.setupEnd,
    jobRunSetupTime: run.expectedSetupMs,
    // SETUP overrides the machine state while the job is in setup (METRICS.md §1).
    status: run.setupEnd == null ? 'SETUP' : tile.status,
    progress: parts?.percent ?? null,
    expectedParts: parts?.expectedParts ?? null,
    actualParts: parts?.actualParts ?? null,
  };
}

/** What the tiles of some machines read before they are built (tilesOf). */
interface TileReads {
  live: ReadonlyMap<string, LiveConnection>;
  runs: ReadonlyMap<string, JobRunRecord>;
  groupIds: ReadonlyMap<string, string[]>;
  context?: FiguresContext;
  /** The held rows' sums kept between answers (decision 1191). */
  sums?: HeldSums;
}

/**
 * The tiles of `machines`, in their order, as the live channel's `live` payload shows them (one machine at a
 * time): the live row, the groups, and for a scheduled machine its job run against its goal. Without
 * FullProduct (`full` false) the fields live-operations §6 gates are blanked (services/full-product.ts).
 */
export async function dashboardTiles(
  scope: CompanyScope,
  machines: readonly Machine[],
  now: number,
  full: boolean,
): Promise<DashboardMachine[]> {
  const ids = machines.map((m) => m.id);
  // The live rows and the connection facts in one query (decision 1077); only these machines' groups.
  const [groupIds, live, runs] = await Promise.all([
    groupIdsOf(scope, ids),
    liveConnections(scope, ids),
    openRunsOn(scope, ids),
  ]);
  return tilesOf(scope, machines, { live, runs, groupIds }, now, full);
}

async function tilesOf(
  scope: CompanyScope,
  machines: readonly Machine[],
  reads: TileReads,
  now: number,
  full: boolean,
): Promise<DashboardMachine[]> {
  const { live, runs, groupIds } = reads;
  const tiles = machines.map((m) =>
    toDashboardMachine(
      m,
      live.get(m.id)?.live,
      groupIds.get(m.id) ?? [],
      now,
      live.get(m.id)?.facts ?? NO_CONNECTION_FACTS,
    ),
  );
  // Batched for all tiles: only scheduled machines have a goal (dashboardGoals, decision 1146), only machines
  // in downtime a downtime reason, only unscheduled ones a paused job (decision 0709).
  const ids = machines.map((m) => m.id);
  const [goals, reasons, paused] = await Promise.all([
    dashboardGoals(
      scope,
      ids.filter((id) => runs.has(id)),
      runs,
      now,
      reads.context,
      reads.sums,
    ),
    currentDowntimeReasons(
      scope,
      tiles.filter((t) => t.status !== 'ACTIVE').map((t) => t.id),
      now,
    ),
    lastStoppedJobNames(
      scope,
      ids.filter((id) => !runs.has(id)),
    ),
  ]);
  return tiles.map((base) => {
    const tile = {
      ...base,
      pausedJobName: paused.get(base.id) ?? null,
      downtime_reason: reasons.get(base.id) ?? null,
    };
    const run = runs.get(tile.id);
    const shown = run ? scheduledTile(tile, run, goals.get(tile.id)) : tile;
    return full ? shown : tileWithoutFullProduct(shown);
  });
}

// ---------------------------------------------------------------------------------------------
// Unmapped and gateway status (live-operations §2 polling: unmapped 10 s, gateway 15 s)

/** Keys seen this recently count for the dashboard's unmapped indicator. */
export const UNMAPPED_WINDOW_MS = 3_600_000;

export interface DashboardStatus {
  /** Only machines that do send unmapped keys. */
  unmapped: UnmappedEntry[];
  gateways: GatewayStatusEntry<EdgeHealth>[];
  /** The Cycles dashboard is on for the caller's company (decision 0600). */
  cyclesDashboard: boolean;
}

/**
 * The unmapped keys of many machines in two queries: the same rule as GET /api/machines/:id/diagnostics
 * (seen keys the adapter's fields do not name; the connection log key is not a field), over the last hour.
 * The observation scan is bounded by time and machine, on the (machine_id, ts) index.
 */
export async function unmappedKeys(
  scope: CompanyScope,
  machineIds: readonly string[],
  since: number,
): Promise<UnmappedEntry[]> {
  if (machineIds.length === 0) return [];
  const [fields, seen] = await Promise.all([
    adapterFieldsOf(scope, machineIds),
    keysSeenSince(scope, machineIds, since, CONNECTION_KEY),
  ]);
  const mapped = new Set(fields.map((f) => `${f.machine_id}\n${f.name}`));
  const byMachine = new Map<string, string[]>();
  for (const o of seen) {
    if (mapped.has(`${o.machine_id}\n${o.key}`)) continue;
    const keys = byMachine.get(o.machine_id) ?? [];
    keys.push(o.key);
    byMachine.set(o.machine_id, keys);
  }
  return machineIds
    .filter((id) => byMachine.has(id))
    .map((id) => ({ machineId: id, keys: byMachine.get(id)!.sort() }));
}

/** The company's gateways with their edge health only: no token, serial or configuration. */
export async function gatewayStatus(
  scope: CompanyScope,
  now: number,
): Promise<GatewayStatusEntry<EdgeHealth>[]> {
  const gateways = await companyGatewayStatus(scope, now);
  return gateways.map((g) => ({ id: g.id, name: g.name, health: g.health }));
}

// ---------------------------------------------------------------------------------------------
// The Cycles dashboard, limited to one company (live-operations §6, reports-admin §6; decision 0600)

/** Without TAKT_CYCLES_DASHBOARD_COMPANY (Deps.cyclesDashboardCompany) no company has the Cycles dashboard. */
export const cyclesDashboardOn = (configured: string | null | undefined, companyId: string): boolean =>
  configured != null && configured !== '' && configured === companyId;

/** Cycles older than this do not count as "the last cycle" of a tile. */
export const LAST_CYCLE_WINDOW_MS = 24 * 3_600_000;

export type { CycleEntry };

export async function lastCycles(
  scope: CompanyScope,
  machineIds: readonly string[],
  now: number,
): Promise<Map<string, CycleEntry>> {
  if (machineIds.length === 0) return new Map();
  const [cycleOf, runs] = await Promise.all([
    lastProductionCycles(scope, machineIds, now - LAST_CYCLE_WINDOW_MS, now),
    openRunsOn(scope, machineIds),
  ]);
  return new Map(
    machineIds.map((id) => {
      const c = cycleOf.get(id);
      const last = c ? c.duration : null;
      const expected = runs.get(id)?.expectedCycleTime ?? null;
      const entry: CycleEntry = {
        machineId: id,
        lastCycleMs: last,
        lastCycleAt: c ? c.endAt : null,
        expectedCycleMs: expected,
        deltaMs: last != null && expected != null && expected > 0 ? last - expected : null,
      };
      return [id, entry];
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// The answers of GET /api/dashboard/*, one per route; `full`: the caller has FullProduct (live-operations §6).

/** The caller's machines, optionally of one group (an unknown group gives none). */
const machineIdsOf = async (scope: CompanyScope, group: string | undefined) =>
  (await listMachines(scope, { groupId: group })).map((m) => m.id);

export async function dashboard(
  scope: CompanyScope,
  group: string | undefined,
  now: number,
  full: boolean,
  /** The held rows' sums this process keeps between answers (decision 1191). */
  sums?: HeldSums,
): Promise<DashboardResponse> {
  // Every read that needs no other at once, by company rather than by lists of ids (decision 1146).
  const [machines, groups, live, runs, context] = await Promise.all([
    listMachines(scope, { groupId: group }),
    listGroups(scope),
    companyLiveConnections(scope, group),
    companyOpenRuns(scope),
    figuresContext(scope),
  ]);
  const groupIds = new Map<string, string[]>();
  for (const g of groups)
    for (const id of g.machineIds) {
      const of = groupIds.get(id);
      if (of) of.push(g.id);
      else groupIds.set(id, [g.id]);
    }
  return {
    machines: await tilesOf(scope, machines, { live, runs, groupIds, context, sums }, now, full),
    groups: groups.map((g) => ({ id: g.id, name: g.name })),
    now,
  };
}

export async function dashboardUtilization(
  scope: CompanyScope,
  group: string | undefined,
  now: number,
  full: boolean,
): Promise<UtilizationEntry[]> {
  const ids = await machineIdsOf(scope, group);
  const figures = await dashboardFigures(scope, ids, now);
  return ids.map((id) => {
    const entry = figures.get(id)!.utilization;
    return full ? entry : utilizationWithoutFullProduct(entry);
  });
}

export async function dashboardParts(
  scope: CompanyScope,
  group: string | undefined,
  now: number,
  sums?: HeldSums,
): Promise<PartsEntry[]> {
  const ids = await machineIdsOf(scope, group);
  const goals = await dashboardGoals(scope, ids, await openRunsOn(scope, ids), now, undefined, sums);
  return ids.map((id) => goals.get(id)!);
}

/** `include`: one part only, so each can be polled at its own rate; both by default. */
export async function dashboardStatus(
  scope: CompanyScope,
  include: 'unmapped' | 'gateways' | undefined,
  now: number,
  cyclesCompany: string | null | undefined,
): Promise<DashboardStatus> {
  const [unmapped, gateways] = await Promise.all([
    include === 'gateways'
      ? []
      : machineIdsOf(scope, undefined).then((ids) => unmappedKeys(scope, ids, now - UNMAPPED_WINDOW_MS)),
    include === 'unmapped' ? [] : gatewayStatus(scope, now),
  ]);
  return { unmapped, gateways, cyclesDashboard: cyclesDashboardOn(cyclesCompany, scope.companyId) };
}

const cyclesUnavailable = () =>
  new ApiError(403, 'DASHBOARD_NOT_AVAILABLE', 'The Cycles dashboard is not available for your company.');

export async function dashboardCycles(
  scope: CompanyScope,
  group: string | undefined,
  now: number,
  cyclesCompany: string | null | undefined,
): Promise<CycleEntry[]> {
  if (!cyclesDashboardOn(cyclesCompany, scope.companyId)) throw cyclesUnavailable();
  const ids = await machineIdsOf(scope, group);
  const cycles = await lastCycles(scope, ids, now);
  return ids.map((id) => cycles.get(id)!);
}
