import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import { HEARTBEAT_TIMEOUT_MS } from '@takt/domain';
import type {
  DashboardMachine,
  DashboardResponse,
  GatewayStatusEntry,
  MachineState,
  UnmappedEntry,
} from '@takt/domain';
import { CONNECTION_KEY, EDGE_HEALTH_LABEL, EDGE_HEALTH_TONE, edgeHealth } from '@takt/ingest';
import type { EdgeHealth } from '@takt/ingest';
import type { MachineLiveTable } from '../db/schema';
import type { AppEnv, Deps } from '../http/context';
import { ApiError } from '../http/errors';
import { gatewayMachines, listCompanyGateways } from '../repositories/gateways';
import type { GatewayMachine } from '../repositories/gateways';
import { queryParams } from '../http/validate';
import type { Machine, MachineGroup } from '../repositories/machines';
import { listGroups, listMachines } from '../repositories/machines';
import { liveByMachine } from '../repositories/live';
import {
  adapterFieldsOf,
  keysSeenSince,
  lastProductionCycles,
  lastStoppedJobNames,
  openRunsOn,
} from '../repositories/dashboard-live';
import type { JobRunRecord } from '../repositories/job-runs';
import type { CompanyScope } from '../db/scope';
import { callerPermissions, requirePermission } from '../http/permissions';
import { tileWithoutFullProduct, utilizationWithoutFullProduct } from '../services/full-product';
import { currentDowntimeReasons, dashboardFigures } from '../services/dashboard-live';
import type { PartsEntry, UtilizationEntry } from '@takt/domain';

const dashboardQuery = z.object({ group: z.string().min(1).optional() });

/**
 * live-operations §3 "Machine (dashboard tile)" from the machine row and the live row ingest keeps.
 * If the ingest worker itself went silent, the heartbeat rule still holds here: no heartbeat for 5 minutes
 * reads as UNAVAILABLE from the moment the 5 minutes ran out.
 */
function toDashboardMachine(
  m: Machine,
  live: MachineLiveTable | undefined,
  groupIds: string[],
  now: number,
): DashboardMachine {
  const heartbeatLost = live?.last_heartbeat != null && now - live.last_heartbeat > HEARTBEAT_TIMEOUT_MS;
  let status = (live?.state ?? 'UNAVAILABLE') as MachineState;
  let statusSince = live?.state_since ?? null;
  if (heartbeatLost && live?.last_heartbeat != null && status !== 'UNAVAILABLE' && status !== 'SETUP') {
    status = 'UNAVAILABLE';
    statusSince = live.last_heartbeat + HEARTBEAT_TIMEOUT_MS;
  }
  const connection = live ? (heartbeatLost ? 'DISCONNECTED' : live.connection) : 'NOT CONFIGURED';
  return {
    id: m.id,
    name: m.name,
    status,
    statusSince,
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
    stale: connection !== 'CONNECTED',
    lastHeartbeat: live?.last_heartbeat ?? null,
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
    connection: connection as DashboardMachine['connection'],
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

/**
 * The tiles of `machines`, in their order, as GET /api/dashboard and the live channel's `live` payload show
 * them: the live row, the groups, and for a scheduled machine its job run against its goal. Without
 * FullProduct (`full` false) the fields live-operations §6 gates are blanked (services/full-product.ts).
 */
export async function dashboardTiles(
  scope: CompanyScope,
  machines: readonly Machine[],
  now: number,
  full: boolean,
  knownGroups?: readonly MachineGroup[],
): Promise<DashboardMachine[]> {
  const ids = machines.map((m) => m.id);
  const [groups, live, runByMachine] = await Promise.all([
    knownGroups ?? listGroups(scope),
    liveByMachine(scope, ids),
    openRunsOn(scope, ids),
  ]);
  const tiles = machines.map((m) =>
    toDashboardMachine(
      m,
      live.get(m.id),
      groups.filter((g) => g.machineIds.includes(m.id)).map((g) => g.id),
      now,
    ),
  );
  // Batched for all tiles: only scheduled machines have a goal (services/dashboard-live.ts), only machines
  // in downtime a downtime reason, only unscheduled ones a paused job (decision 0709).
  const [figures, reasons, paused] = await Promise.all([
    dashboardFigures(
      scope,
      ids.filter((id) => runByMachine.has(id)),
      now,
      runByMachine,
    ),
    currentDowntimeReasons(
      scope,
      tiles.filter((t) => t.status !== 'ACTIVE').map((t) => t.id),
      now,
    ),
    lastStoppedJobNames(
      scope,
      ids.filter((id) => !runByMachine.has(id)),
    ),
  ]);
  return tiles.map((base) => {
    const tile = {
      ...base,
      pausedJobName: paused.get(base.id) ?? null,
      downtime_reason: reasons.get(base.id) ?? null,
    };
    const run = runByMachine.get(tile.id);
    const shown = run ? scheduledTile(tile, run, figures.get(tile.id)?.parts) : tile;
    return full ? shown : tileWithoutFullProduct(shown);
  });
}

/** live-operations §6: fields gated by FullProduct are blanked for a caller without it. */
const hasFullProduct = (c: Context<AppEnv>) =>
  callerPermissions(c.var.caller, c.var.deps.demoMode).includes('FullProduct');

/** The caller's machines, optionally of one group (an unknown group gives none). */
const machineIdsOf = async (scope: CompanyScope, group: string | undefined) =>
  (await listMachines(scope, { groupId: group })).map((m) => m.id);

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

/** A machine behind a gateway, as GET /api/gateways/status counts it for edge health (reports-admin §4). */
function machineLink(m: GatewayMachine, now: number): 'CONNECTED' | 'DISCONNECTED' | 'UNKNOWN' {
  if (m.connection === null) return 'UNKNOWN';
  const fresh = m.lastHeartbeat !== null && now - m.lastHeartbeat <= HEARTBEAT_TIMEOUT_MS;
  return m.connection === 'CONNECTED' && fresh ? 'CONNECTED' : 'DISCONNECTED';
}

/** The company's gateways with their edge health only: no token, serial or configuration. */
export async function gatewayStatus(
  scope: CompanyScope,
  now: number,
): Promise<GatewayStatusEntry<EdgeHealth>[]> {
  const gateways = await listCompanyGateways(scope);
  const machines = await gatewayMachines(
    scope.db,
    gateways.map((g) => g.id),
  );
  return gateways.map((g) => {
    const links = machines.filter((m) => m.gatewayId === g.id).map((m) => machineLink(m, now));
    const status = edgeHealth({ lastResponse: g.lastResponse, machines: links }, now);
    return {
      id: g.id,
      name: g.name,
      health: { status, label: EDGE_HEALTH_LABEL[status], tone: EDGE_HEALTH_TONE[status] },
    };
  });
}

const statusQuery = z.object({
  /** One part only, so each can be polled at its own rate; both by default. */
  include: z.enum(['unmapped', 'gateways']).optional(),
});

// ---------------------------------------------------------------------------------------------
// The Cycles dashboard, limited to one company (live-operations §6, reports-admin §6; decision 0600)

/** Without TAKT_CYCLES_DASHBOARD_COMPANY (Deps.cyclesDashboardCompany) no company has the Cycles dashboard. */
export const cyclesDashboardOn = (deps: Deps, companyId: string): boolean => {
  const configured = deps.cyclesDashboardCompany;
  return configured != null && configured !== '' && configured === companyId;
};

/** Cycles older than this do not count as "the last cycle" of a tile. */
export const LAST_CYCLE_WINDOW_MS = 24 * 3_600_000;

/** One element of GET /api/dashboard/cycles, in the machines' order. */
export interface CycleEntry {
  machineId: string;
  /** Duration of the machine's last production (non-setup) cycle in the last 24 h, ms. */
  lastCycleMs: number | null;
  lastCycleAt: number | null;
  /** The open job run's expected cycle time (ms), as the workcenter card shows it; null when unscheduled. */
  expectedCycleMs: number | null;
  /** lastCycleMs − expectedCycleMs: negative is faster than expected. */
  deltaMs: number | null;
}

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

const cyclesUnavailable = () =>
  new ApiError(403, 'DASHBOARD_NOT_AVAILABLE', 'The Cycles dashboard is not available for your company.');

/**
 * GET /api/dashboard: the caller's machines as live tiles (polled every 5 s by the apps).
 * GET /api/dashboard/utilization and /api/dashboard/parts (live-operations §7, polled every 15 s): arrays, one
 * entry per machine, in the machines' order. Each takes the optional `group` query.
 * GET /api/dashboard/status: unmapped keys (polled every 10 s) and gateway health (every 15 s), company wide.
 * GET /api/dashboard/cycles: last cycle against expected per machine, for the one configured company only.
 */
export const dashboardRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const { group } = queryParams(c, dashboardQuery);
    const scope = c.var.scope;
    const now = c.var.deps.now();
    const [machines, groups] = await Promise.all([
      listMachines(scope, { groupId: group }),
      listGroups(scope),
    ]);
    const body: DashboardResponse = {
      machines: await dashboardTiles(scope, machines, now, hasFullProduct(c), groups),
      groups: groups.map((g) => ({ id: g.id, name: g.name })),
      now,
    };
    return c.json(body);
  })
  .get('/utilization', async (c) => {
    const { group } = queryParams(c, dashboardQuery);
    const ids = await machineIdsOf(c.var.scope, group);
    const figures = await dashboardFigures(c.var.scope, ids, c.var.deps.now());
    const full = hasFullProduct(c);
    const body: UtilizationEntry[] = ids.map((id) => {
      const entry = figures.get(id)!.utilization;
      return full ? entry : utilizationWithoutFullProduct(entry);
    });
    return c.json(body);
  })
  // live-operations §6: parts goal is FullProduct.
  .get('/parts', requirePermission('FullProduct'), async (c) => {
    const { group } = queryParams(c, dashboardQuery);
    const ids = await machineIdsOf(c.var.scope, group);
    const figures = await dashboardFigures(c.var.scope, ids, c.var.deps.now());
    const body: PartsEntry[] = ids.map((id) => figures.get(id)!.parts);
    return c.json(body);
  })
  .get('/status', async (c) => {
    const { include } = queryParams(c, statusQuery);
    const scope = c.var.scope;
    const now = c.var.deps.now();
    const [unmapped, gateways] = await Promise.all([
      include === 'gateways'
        ? []
        : machineIdsOf(scope, undefined).then((ids) => unmappedKeys(scope, ids, now - UNMAPPED_WINDOW_MS)),
      include === 'unmapped' ? [] : gatewayStatus(scope, now),
    ]);
    const body: DashboardStatus = {
      unmapped,
      gateways,
      cyclesDashboard: cyclesDashboardOn(c.var.deps, scope.companyId),
    };
    return c.json(body);
  })
  .get('/cycles', async (c) => {
    if (!cyclesDashboardOn(c.var.deps, c.var.scope.companyId)) throw cyclesUnavailable();
    const { group } = queryParams(c, dashboardQuery);
    const ids = await machineIdsOf(c.var.scope, group);
    const cycles = await lastCycles(c.var.scope, ids, c.var.deps.now());
    const body: CycleEntry[] = ids.map((id) => cycles.get(id)!);
    return c.json(body);
  });
