import { z } from 'zod';
import type { GoalStatus } from './live/status';
import { MACHINE_STATES } from './machine-state';

export const machineStateSchema = z.enum(MACHINE_STATES);
/**
 * live-operations §1: work centers are machines or manual stations (workcenter type machine, manual, other).
 * Declared here, not with the other entities in schemas/live-entities.ts, so the floor app's first chunk,
 * which needs the tile, does not pull every entity schema in with it.
 */
export const workcenterTypeSchema = z.enum(['machine', 'manual', 'other']);
export type WorkcenterType = z.infer<typeof workcenterTypeSchema>;
export const autostartBehaviorSchema = z.enum(['disabled', 'mes', 'key']);
/** A tile's machine connection (machineConnection, decision 1055); CONNECTING only from older servers. */
export const liveConnectionSchema = z.enum([
  'CONNECTING',
  'CONNECTED',
  'DISCONNECTED',
  'NOT CONFIGURED',
  'NEVER REPORTED',
]);

/**
 * live-operations §3 "Machine (dashboard tile)": one element of GET /api/dashboard.
 * Times are epoch ms (null when unknown). `status` is the METRICS.md §1 machine state.
 */
export const dashboardMachineSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: machineStateSchema,
  statusSince: z.number().nullable(),
  jobScheduleGroupId: z.string().nullable(),
  jobId: z.string().nullable(),
  pausedJobName: z.string().nullable(),
  autostartBehavior: autostartBehaviorSchema,
  /** Minutes a scheduled machine may be down before its tile turns from warning to danger. */
  downtimefailuredelay: z.number(),
  progress: z.number().nullable(),
  expectedParts: z.number().nullable(),
  actualParts: z.number().nullable(),
  setupSince: z.number().nullable(),
  jobRunSetupTime: z.number().nullable(),
  /** No heartbeat for 5 minutes, or the adapter link is down. */
  stale: z.boolean(),
  lastHeartbeat: z.number().nullable(),
  faultSince: z.number().nullable(),
  faultMessage: z.string().nullable(),
  /** Finer status text from the machine (the MTConnect Execution value, or UNAVAILABLE). */
  extendedStatus: z.string().nullable(),
  extendedStatusSince: z.number().nullable(),
  setupEnd: z.number().nullable(),
  downtime_reason: z.string().nullable(),
  // Not in the spec's list but needed by every client of it:
  scheduled: z.boolean(),
  groupIds: z.array(z.string()),
  program: z.string().nullable(),
  partCount: z.number().nullable(),
  connection: liveConnectionSchema,
  /**
   * Manual work centers show Add Part and Undo instead of machine data (live-operations §2). The API sends it
   * on every machine; optional here only so clients built before it existed still type-check. Written
   * z.optional(x), not x.optional(): a method call on a schema is not known to be pure, so the bundler would
   * keep zod in the floor app's first chunk.
   */
  workcenterType: z.optional(workcenterTypeSchema),
});
export type DashboardMachine = z.infer<typeof dashboardMachineSchema>;

export const dashboardResponseSchema = z.object({
  machines: z.array(dashboardMachineSchema),
  groups: z.array(z.object({ id: z.string(), name: z.string() })),
  /** Server time when the response was built, so clients can compute time-in-state without clock skew. */
  now: z.number(),
});
export type DashboardResponse = z.infer<typeof dashboardResponseSchema>;

export const DASHBOARD_TYPES = ['utilization', 'downtime', 'oee', 'partsgoal'] as const;
export type DashboardType = (typeof DASHBOARD_TYPES)[number];

export const loginRequestSchema = z.object({
  email: z.string().trim().min(1, 'Missing required field: Email').email('Enter a valid e-mail address'),
  password: z.string().min(1, 'Missing required field: Password'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const ROLES = ['admin', 'manager', 'operator', 'kiosk'] as const;
export type Role = (typeof ROLES)[number];

export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  role: z.enum(ROLES),
  isRoot: z.boolean(),
  isAdmin: z.boolean(),
  isOperator: z.boolean(),
  permissions: z.array(z.string()),
  company: z.object({
    id: z.string(),
    name: z.string(),
    timezone: z.string(),
    locale: z.string(),
    product_tier: z.enum(['serviceProvider', 'utilization', 'full']),
  }),
  /** A board device (a TV, decision 1041): the path of the board it shows; absent for everyone else. */
  board: z.string().optional(),
});
export type Me = z.infer<typeof meSchema>;

/**
 * GET /api/me: the caller with the rest of reports-admin §3 "Current user" (decision 1105): the shift
 * notifications (`shifts`, `notify`), `hasPassword`, `hasGoogleOAuth` and `createdAt` (epoch ms). A tablet, a
 * TV or an API key is no account: no shifts, notify and hasPassword false, createdAt null.
 */
export const meAnswerSchema = meSchema.extend({
  shifts: z.array(z.string()),
  notify: z.boolean(),
  hasPassword: z.boolean(),
  hasGoogleOAuth: z.boolean(),
  createdAt: z.number().int().nullable(),
});
export type MeAnswer = z.infer<typeof meAnswerSchema>;

// GET /api/dashboard/utilization and /api/dashboard/parts: one element per machine.

/** Utilization over the current shift (else the company day) of one machine. Percents are 0..100. */
export interface UtilizationEntry {
  machineId: string;
  /** The window the figures cover: the current shift, else the company day, up to now. */
  start: number;
  end: number;
  utilization: number | null;
  /** live-operations §4 utilization status with the company's utilization percents; unavailable without data. */
  status: 'success' | 'warning' | 'danger' | 'unavailable';
  oee: number | null;
  /** The OEE dashboard's goal status: noJobStandards when the running job has no ideal cycle time (decision 1003). */
  oeeStatus: GoalStatus;
  availability: number | null;
  performance: number | null;
  quality: number | null;
  /**
   * Some run time in the window has no standard (METRICS.md §3): P leaves it out, or is null ('-'); the OEE
   * board shows the spec's warning (decision 1031). Optional: an older server does not send it.
   */
  missingStandards?: boolean;
  /**
   * METRICS.md §1 No data in the window (ms): UNAVAILABLE time in the machine's monitored life no operator
   * reason covers, the same spans the downtime report and the timeline list (decision 1012).
   */
  noDataMs: number;
}

/** Parts of the job running on one machine against its goal (METRICS.md §4). */
export interface PartsEntry {
  machineId: string;
  scheduled: boolean;
  jobId: string | null;
  jobScheduleGroupId: string | null;
  inSetup: boolean;
  setupSince: number | null;
  /** Whole parts expected by now; null without a cycle-time standard or while in setup. */
  expectedParts: number | null;
  /** Good parts since production began. */
  actualParts: number | null;
  /** Percent of goal (actual / expected × 100); null while nothing is expected. */
  percent: number | null;
  /** Parts ahead (> 0) or behind (< 0) of the expected parts now; null without an expectation. */
  aheadBehind: number | null;
  productionRuntimeMs: number;
  /** live-operations §4 goal status with the company's warning and failure percents. */
  status: GoalStatus;
}

// GET /api/dashboard/status (live-operations §2 polling: unmapped status every 10 s, gateway status every 15 s).

/** A machine that sent keys its adapter does not map. */
export interface UnmappedEntry {
  machineId: string;
  /** Keys the machine sent in the last hour that its adapter does not map, sorted. */
  keys: string[];
}

/**
 * A gateway with its edge health only (reports-admin §4): no token, serial or configuration. `S` is the health
 * value (NeverReported, NotReporting, MixedStatus, Normal, Unknown where ingest's `EdgeHealth` is known).
 */
export interface GatewayStatusEntry<S extends string = string> {
  id: string;
  name: string;
  health: { status: S; label: string; tone: 'success' | 'warning' | 'danger' };
}

/** One element of GET /api/dashboard/cycles (live-operations §6 Cycles dashboard), in the machines' order. */
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
