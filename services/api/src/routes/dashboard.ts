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

/** GET /api/dashboard: the caller's machines as live tiles (polled every 5 s by the apps). */
export const dashboardRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const { group } = queryParams(c, dashboardQuery);
  const scope = c.var.scope;
  const [machines, groups, live] = await Promise.all([
    listMachines(scope, { groupId: group }),
    listGroups(scope),
    liveByMachine(scope),
  ]);
  const now = c.var.deps.now();
  const body: DashboardResponse = {
    machines: machines.map((m) =>
      toDashboardMachine(
        m,
        live.get(m.id),
        groups.filter((g) => g.machineIds.includes(m.id)).map((g) => g.id),
        now,
      ),
    ),
    groups: groups.map((g) => ({ id: g.id, name: g.name })),
    now,
  };
  return c.json(body);
});
