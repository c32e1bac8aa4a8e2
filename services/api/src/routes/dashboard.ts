import { Hono } from 'hono';
import { z } from 'zod';
import { HEARTBEAT_TIMEOUT_MS } from '@takt/domain';
import type { DashboardMachine, DashboardResponse, MachineState } from '@takt/domain';
import type { MachineLiveTable } from '../db/schema';
import type { AppEnv } from '../http/context';
import { queryParams } from '../http/validate';
import type { Machine } from '../repositories/machines';
import { listGroups, listMachines } from '../repositories/machines';
import { liveByMachine } from '../repositories/live';
import type { CompanyScope } from '../db/scope';
import { requirePermission } from '../http/permissions';
import { dashboardFigures } from '../services/dashboard-live';
import type { PartsEntry, UtilizationEntry } from '../services/dashboard-live';

const dashboardQuery = z.object({ group: z.string().min(1).optional() });

/**
 * live-operations §3 "Machine (dashboard tile)" from the machine row and the live row ingest keeps.
 * If the ingest worker itself went silent, the heartbeat rule still holds here: no heartbeat for 5 minutes
 * reads as UNAVAILABLE from the moment the 5 minutes ran out.
 */
export function toDashboardMachine(
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
  };
}

/** The job running on a scheduled machine, as its tile shows it (live-operations §3, §4). */
function scheduledTile(
  tile: DashboardMachine,
  run: OpenRun,
  parts: PartsEntry | undefined,
): DashboardMachine {
  return {
    ...tile,
    scheduled: true,
    jobScheduleGroupId: run.id,
    jobId: run.job_id,
    setupSince: run.setup_end == null ? run.start_at : null,
    setupEnd: run.setup_end,
    jobRunSetupTime: run.expected_setup_ms,
    // SETUP overrides the machine state while the job is in setup (METRICS.md §1).
    status: run.setup_end == null ? 'SETUP' : tile.status,
    progress: parts?.percent ?? null,
    expectedParts: parts?.expectedParts ?? null,
    actualParts: parts?.actualParts ?? null,
  };
}

type OpenRun = {
  id: string;
  machine_id: string;
  job_id: string;
  start_at: number;
  setup_end: number | null;
  expected_setup_ms: number | null;
};

/** The caller's machines, optionally of one group (an unknown group gives none). */
const machineIdsOf = async (scope: CompanyScope, group: string | undefined) =>
  (await listMachines(scope, { groupId: group })).map((m) => m.id);

/**
 * GET /api/dashboard: the caller's machines as live tiles (polled every 5 s by the apps).
 * GET /api/dashboard/utilization and /api/dashboard/parts (live-operations §7, polled every 15 s): arrays, one
 * entry per machine, in the machines' order. Each takes the optional `group` query.
 */
export const dashboardRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const { group } = queryParams(c, dashboardQuery);
    const scope = c.var.scope;
    const [machines, groups, live, runs] = await Promise.all([
      listMachines(scope, { groupId: group }),
      listGroups(scope),
      liveByMachine(scope),
      scope
        .selectFrom('job_runs')
        .select(['id', 'machine_id', 'job_id', 'start_at', 'setup_end', 'expected_setup_ms'])
        .where('end_at', 'is', null)
        .execute(),
    ]);
    const now = c.var.deps.now();
    const runByMachine = new Map(runs.map((r) => [r.machine_id, r]));
    // Only scheduled machines have a goal: their figures come in one batch (services/dashboard-live.ts).
    const scheduled = machines.filter((m) => runByMachine.has(m.id)).map((m) => m.id);
    const figures = await dashboardFigures(scope, scheduled, now);
    const body: DashboardResponse = {
      machines: machines.map((m) => {
        const tile = toDashboardMachine(
          m,
          live.get(m.id),
          groups.filter((g) => g.machineIds.includes(m.id)).map((g) => g.id),
          now,
        );
        const run = runByMachine.get(m.id);
        return run ? scheduledTile(tile, run, figures.get(m.id)?.parts) : tile;
      }),
      groups: groups.map((g) => ({ id: g.id, name: g.name })),
      now,
    };
    return c.json(body);
  })
  .get('/utilization', async (c) => {
    const { group } = queryParams(c, dashboardQuery);
    const ids = await machineIdsOf(c.var.scope, group);
    const figures = await dashboardFigures(c.var.scope, ids, c.var.deps.now());
    const body: UtilizationEntry[] = ids.map((id) => figures.get(id)!.utilization);
    return c.json(body);
  })
  // live-operations §6: parts goal is FullProduct.
  .get('/parts', requirePermission('FullProduct'), async (c) => {
    const { group } = queryParams(c, dashboardQuery);
    const ids = await machineIdsOf(c.var.scope, group);
    const figures = await dashboardFigures(c.var.scope, ids, c.var.deps.now());
    const body: PartsEntry[] = ids.map((id) => figures.get(id)!.parts);
    return c.json(body);
  });
