import type { DashboardMachine } from '@takt/domain';

// Builders with defaults for test data (STYLE.md "Tests"), for the tests of both apps (`@takt/ui/testing`).
// Not exported from the package index, so no app bundles them.

/** A GET /api/dashboard machine with every field of the domain's dashboardMachineSchema. */
export const machine = (over: Record<string, unknown> = {}): DashboardMachine & Record<string, unknown> => ({
  id: 'm1',
  name: 'Mazak 1',
  status: 'ACTIVE',
  statusSince: 1_000,
  jobScheduleGroupId: null,
  jobId: null,
  pausedJobName: null,
  autostartBehavior: 'disabled',
  downtimefailuredelay: 5,
  progress: null,
  expectedParts: null,
  actualParts: null,
  setupSince: null,
  jobRunSetupTime: null,
  stale: false,
  lastHeartbeat: 9_000,
  faultSince: null,
  faultMessage: null,
  extendedStatus: 'ACTIVE',
  extendedStatusSince: 1_000,
  setupEnd: null,
  downtime_reason: null,
  scheduled: false,
  groupIds: ['g1'],
  program: 'O1000',
  partCount: 12,
  connection: 'CONNECTED',
  ...(over as Partial<DashboardMachine>),
});
