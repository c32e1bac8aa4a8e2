import { z } from 'zod';
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

/** POST /api/machines and PUT /api/machines/:id. */
export const machineSaveRequestSchema = z.object({
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
});
export type MachineSaveRequest = z.infer<typeof machineSaveRequestSchema>;

/** PUT /api/machines/order: every machine in service, in the new workcenter order. */
export const machineOrderRequestSchema = z.object({ machineIds: z.array(idSchema).min(1).max(5000) });

/** PUT /api/machines/:id/decommission: reports-admin §5 "Decommission prompt must match machine name". */
export const machineDecommissionRequestSchema = z.object({ name: z.string().max(250) });

export const machineSourceSchema = z.object({
  id: idSchema,
  kind: z.enum(['shdr', 'agent', 'mqtt', 'gateway']),
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
