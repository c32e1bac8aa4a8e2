import { z } from 'zod';
import { civilFromDay, dayFromCivil, dayNumber, formatDay, parseDay } from '../time/civil';
import { idSchema } from './common';
import type { machineGroupSchema } from './report-entities';

// Machines admin (reports-admin §2 "Machines admin", §3 Machine, §5, §7 "Machines: save, update, decommission,
// setOrder"): the machine as the administration screen edits it, and the bodies of its calls.

export const WORKCENTER_TYPES = ['machine', 'manual', 'other'] as const;
export const AUTOSTART_BEHAVIORS = ['disabled', 'mes', 'key'] as const;
/** The sources an admin may give a machine; gateway bindings are made from the gateway (root users). */
export const ADMIN_SOURCE_KINDS = ['shdr', 'agent', 'mqtt'] as const;

const missing = (label: string) => `Missing required field: ${label}`;

/** How the machine's data arrives (ARCHITECTURE.md ingest sources). */
export const machineSourceInputSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('shdr'),
    host: z.string().trim().min(1, missing('Address')).max(253),
    port: z.number().int().min(1, 'Port must be from 1 to 65535').max(65535, 'Port must be from 1 to 65535'),
  }),
  z.object({
    kind: z.literal('agent'),
    baseUrl: z
      .string()
      .trim()
      .min(1, missing('Address'))
      .max(2000)
      .refine((v) => /^https?:\/\/[^\s]+$/.test(v), 'The agent URL must start with http:// or https://'),
    agentDevice: z.string().trim().max(250).nullable().optional(),
  }),
  z.object({
    kind: z.literal('mqtt'),
    machineRef: z.string().trim().min(1, missing('Machine reference')).max(250),
  }),
]);
export type MachineSourceInput = z.infer<typeof machineSourceInputSchema>;

const percent = (label: string) =>
  z
    .number()
    .int(`${label} must be a whole number from 0 to 100`)
    .min(0, `${label} must be from 0 to 100`)
    .max(100, `${label} must be from 0 to 100`)
    .nullable()
    .optional();

/** reports-admin §9 "Benchmarking: Undecided (null), Opt In (0), Opt Out (1)"; §3 Machine "ping monitor (null, 1, 0)". */
const zeroOrOne = z
  .union([z.literal(0), z.literal(1)])
  .nullable()
  .optional();

/**
 * The Software and Utilization panels (reports-admin §2, §3 Machine; decision 0892). Each left out of a save
 * keeps what the machine has; null clears it (the utilization cut-offs then follow the company's).
 */
export const machinePanelsSchema = z.object({
  dispatchKey: z
    .string()
    .trim()
    .max(250, 'At most 250 characters')
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  excludeFromBenchmarking: zeroOrOne,
  pingMonitor: zeroOrOne,
  utilizationWarningPercent: percent('Utilization warning percent'),
  utilizationFailurePercent: percent('Utilization failure percent'),
});

/** reports-admin §4: danger below the failure percent, warning below the warning percent; so failure ≤ warning. */
export const UTILIZATION_ORDER_MESSAGE = 'Utilization failure percent must not be above the warning percent';

function utilizationOrder(
  v: { utilizationWarningPercent?: number | null; utilizationFailurePercent?: number | null },
  ctx: z.RefinementCtx,
) {
  const w = v.utilizationWarningPercent;
  const f = v.utilizationFailurePercent;
  if (w != null && f != null && f > w)
    ctx.addIssue({ code: 'custom', path: ['utilizationFailurePercent'], message: UTILIZATION_ORDER_MESSAGE });
}

/** reports-admin §5 "Machine billing date from 2014-06-01 to 1 year ahead". */
export const EARLIEST_BILLING_DATE = '2014-06-01';

/**
 * The Machine fields only root users see and set (reports-admin §3 Machine, §6 "root sees extra machine options";
 * decision 1112). A caller who is not root gets 403 for any of them in a body, and answers leave them out.
 */
export const ROOT_MACHINE_FIELDS = ['billingDate', 'integratedAt', 'pingMonitor'] as const;

export const machineRootFieldsSchema = z.object({
  /** 'YYYY-MM-DD'; its range (2014-06-01 to a year ahead) depends on the day, so the service checks it. */
  billingDate: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Machine billing date must be a date (YYYY-MM-DD)')
    .nullable()
    .optional(),
  /** Epoch ms; null: the machine's first data (decision 1111). Bounded by the service (decision 0980). */
  integratedAt: z.number().int('Integrated at must be a whole number of milliseconds').nullable().optional(),
});

/** The latest billing date at `now`: the same day a year ahead (UTC calendar). */
export function latestBillingDate(now: number): string {
  const today = civilFromDay(dayNumber(Math.floor(now / 86_400_000)));
  return formatDay(dayFromCivil(today.year + 1, today.month, today.day));
}

/** Why a billing date is refused at `now` (reports-admin §5), or null. Pure: `now` is a parameter. */
export function billingDateProblem(date: string, now: number): string | null {
  const latest = latestBillingDate(now);
  const message = `Machine billing date must be from ${EARLIEST_BILLING_DATE} to 1 year ahead (${latest})`;
  let day: number;
  try {
    day = parseDay(date);
  } catch {
    return 'Machine billing date must be a date (YYYY-MM-DD)';
  }
  return day < parseDay(EARLIEST_BILLING_DATE) || day > parseDay(latest) ? message : null;
}

/** POST /api/machines and PUT /api/machines/:id. */
export const machineSaveRequestSchema = z
  .object({
    name: z.string().trim().min(1, missing('Name')).max(250, 'At most 250 characters'),
    workcenterType: z.enum(WORKCENTER_TYPES),
    /** Minutes a scheduled machine may be down before its tile turns danger (reports-admin §4). */
    downtimeFailureDelay: z
      .number()
      .int()
      .min(0, 'Downtime delay must be from 0 to 1440 minutes')
      .max(1440, 'Downtime delay must be from 0 to 1440 minutes'),
    autostartBehavior: z.enum(AUTOSTART_BEHAVIORS),
    adapterId: idSchema.nullable(),
    /** null: no source (a manual workcenter, or one whose source is set later); left out: sources kept. */
    source: machineSourceInputSchema.nullable().optional(),
    ...machinePanelsSchema.shape,
    ...machineRootFieldsSchema.shape,
  })
  .superRefine(utilizationOrder);
export type MachineSaveRequest = z.infer<typeof machineSaveRequestSchema>;

/** PUT /api/machines/order: every machine in service, in the new workcenter order. */
export const machineOrderRequestSchema = z.object({ machineIds: z.array(idSchema).min(1).max(5000) });

/** PUT /api/machines/:id/decommission: reports-admin §5 "Decommission prompt must match machine name". */
export const machineDecommissionRequestSchema = z.object({ name: z.string().max(250) });

export const machineSourceSchema = z.object({
  id: idSchema,
  // simulator: the office test screen's simulated execution (decision 1100).
  kind: z.enum(['shdr', 'agent', 'mqtt', 'gateway', 'simulator']),
  host: z.string(),
  port: z.number().int(),
  baseUrl: z.string().nullable(),
  agentDevice: z.string().nullable(),
  machineRef: z.string().nullable(),
  gatewayId: z.string().nullable(),
});

export const adminMachineSchema = z.object({
  id: idSchema,
  name: z.string(),
  workcenterType: z.enum(WORKCENTER_TYPES),
  sortOrder: z.number().int(),
  downtimeFailureDelay: z.number().int(),
  autostartBehavior: z.enum(AUTOSTART_BEHAVIORS),
  adapterId: idSchema.nullable(),
  decommissionedAt: z.number().int().nullable(),
  /** The machine's first source; a machine has at most one in this screen. */
  source: machineSourceSchema.nullable(),
  // Software and Utilization panels (decision 0892).
  dispatchKey: z.string().nullable(),
  excludeFromBenchmarking: z.union([z.literal(0), z.literal(1)]).nullable(),
  utilizationWarningPercent: z.number().int().nullable(),
  utilizationFailurePercent: z.number().int().nullable(),
  // Root users only (reports-admin §6 "root sees extra machine options"; decision 1112): left out for others.
  pingMonitor: z
    .union([z.literal(0), z.literal(1)])
    .nullable()
    .optional(),
  billingDate: z.string().nullable().optional(),
  /** When the machine was integrated: what a root user set, else its first data (decision 1111). */
  integratedAt: z.number().int().nullable().optional(),
  /** Whether `integratedAt` was set by a root user (false: it is the first data, or null before any). */
  integratedAtSet: z.boolean().optional(),
  /** reports-admin §3 Machine "version=2". */
  version: z.literal(2).optional(),
});
export type AdminMachine = z.infer<typeof adminMachineSchema>;

/**
 * POST /api/machinegroups and PUT /api/machinegroups/:id (reports-admin §2 "Machine groups: name, ERP group id,
 * machines, downtime reasons (FullProduct)"). `annotationTypes` left out keeps the group's downtime reasons.
 */
export const machineGroupSaveRequestSchema = z.object({
  name: z.string().trim().min(1, missing('Name')).max(250, 'At most 250 characters'),
  erpGroupId: z
    .string()
    .trim()
    .max(250, 'At most 250 characters')
    .nullable()
    .transform((v) => (v === '' ? null : v)),
  machines: z.array(idSchema).max(5000),
  annotationTypes: z.array(idSchema).max(5000).optional(),
});
export type MachineGroupSaveRequest = z.infer<typeof machineGroupSaveRequestSchema>;

/** reports-admin §3 Machine group, as GET /api/machinegroups answers it. */
export type MachineGroup = z.infer<typeof machineGroupSchema>;

/**
 * GET /api/machines/:id/adapter-status (reports-admin §4 "Adapter reset sets adapter to none then polls mapping.
 * Status text: Checking status, Waiting for workcenter, Gathering info, Problem configuring machine"; decision
 * 0891). `mapped`: the machine has an adapter (`adapterId`, `adapterName`); `problem` carries the server's
 * message (§8 "Machine adapter status shows the server problem message").
 */
export const ADAPTER_STATUSES = ['mapped', 'waiting', 'gathering', 'problem'] as const;
export const adapterStatusSchema = z.object({
  status: z.enum(ADAPTER_STATUSES),
  adapterId: idSchema.nullable(),
  adapterName: z.string().nullable(),
  message: z.string().nullable(),
  resetAt: z.number().int().nullable(),
});
export type AdapterStatus = z.infer<typeof adapterStatusSchema>;
