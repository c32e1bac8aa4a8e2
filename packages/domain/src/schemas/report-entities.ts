import { z } from 'zod';
import { REPORT_INTERVAL_UNITS } from '../calendar/intervals';
import { colorSchema, dayStringSchema, durationMsSchema, epochMsSchema, idSchema } from './common';
import {
  cycleInputOptionSchema,
  downtimePeriodSchema,
  laborActivitySchema,
  laborActivitySetSchema,
  productTierSchema,
} from './live-entities';

// reports-admin §3 entities. Fractions (0..1+) are shown as percent; null renders '-'.

const fraction = z.number().nullable();

export const efficiencySchema = z.object({
  oee: fraction,
  ooe: fraction,
  teep: fraction,
  availability: fraction,
  performance: fraction,
  quality: fraction,
  minExpectedPartTime: z.number().nullable(),
  /** Some run time or run in range has no standard: the warning shows (METRICS.md §3, decision 1002). */
  missingStandards: z.boolean(),
  inCycle: fraction,
  spindleRotating: fraction,
  inCut: fraction,
  totalDuration: durationMsSchema,
  utilization: fraction,
});

export const reportIntervalSchema = z.object({
  start: epochMsSchema,
  end: epochMsSchema,
  shopDate: dayStringSchema,
  labelTime: epochMsSchema,
  duration: durationMsSchema,
  unitDuration: durationMsSchema,
  shiftId: idSchema.optional(),
  shiftName: z.string().optional(),
});
export const reportIntervalUnitSchema = z.enum(REPORT_INTERVAL_UNITS);

export const abstractShiftSchema = z.object({
  id: idSchema,
  name: z.string(),
  terminated: z.boolean(),
  selected: z.boolean(),
});

export const shiftVersionSchema = z
  .object({
    startoffsetminutes: z.number().int().min(0).max(2880),
    endoffsetminutes: z.number().int().min(0).max(2880),
    byweekday: z.array(z.number().int().min(0).max(6)).min(1, 'Select at least one day'),
    is_termination_set: z.boolean(),
    terminationdate: dayStringSchema.nullable(),
  })
  .refine((v) => v.startoffsetminutes !== v.endoffsetminutes, {
    message: 'A shift cannot be empty',
    path: ['endoffsetminutes'],
  });
export const shiftSchema = z.object({
  id: idSchema,
  name: z.string().min(1, 'Missing required field: Name'),
  terminated: z.boolean(),
  current: shiftVersionSchema.nullable(),
  latest: shiftVersionSchema.nullable(),
  effectivedate: dayStringSchema,
});
export type Shift = z.infer<typeof shiftSchema>;
/** A shift version as GET /api/shifts answers it: §3's fields and the date it takes effect. */
export type ShiftVersionView = z.infer<typeof shiftVersionSchema> & { effectivedate: string };
/** reports-admin §3 Shift as GET /api/shifts answers it: the version in force today and the latest one. */
export type ShiftView = Omit<Shift, 'current' | 'latest'> & {
  current: ShiftVersionView | null;
  latest: ShiftVersionView | null;
};

export const reportItemSchema = z.object({ id: idSchema, name: z.string(), efficiency: efficiencySchema });
export const entityByShiftSchema = z.object({
  shifts: z.array(z.object({ id: idSchema, name: z.string() })),
  entities: z.array(z.object({ name: z.string(), metric: z.record(z.string(), z.number().nullable()) })),
});

export const machineGroupSchema = z.object({
  id: idSchema,
  name: z.string().min(1, 'Missing required field: Name'),
  erpGroupId: z.string().nullable(),
  machines: z.array(idSchema),
  annotationTypes: z.array(idSchema),
});

export const activeRunSchema = z.object({
  expectedParts: z.number().nullable(),
  expectedPartsNow: z.number().nullable(),
  partsRuntimeGoal: z.number().nullable(),
  productionRuntime: durationMsSchema,
  activeStart: epochMsSchema.nullable(),
  activeEnd: epochMsSchema.nullable(),
  resetdate: epochMsSchema.nullable(),
  idealMetricDurationMs: durationMsSchema.nullable(),
});

export const reportMachineSchema = z.object({
  id: idSchema,
  name: z.string(),
  scheduled: z.boolean(),
  statusSince: epochMsSchema.nullable(),
  job_id: idSchema.nullable(),
  jobname: z.string().nullable(),
  jobschedulegroup_id: idSchema.nullable(),
  cycletime: durationMsSchema.nullable(),
  actualParts: z.number(),
  activeRun: activeRunSchema.nullable(),
  warningpercent: z.number(),
  failurepercent: z.number(),
  oee: efficiencySchema.nullable(),
  hourlys: z.array(z.number().nullable()),
  utilization: z.number().nullable(),
  firstActive: epochMsSchema.nullable(),
  activeStart: epochMsSchema.nullable(),
  activeEnd: epochMsSchema.nullable(),
  utilizationwarningpercent: z.number(),
  utilizationfailurepercent: z.number(),
});

export const timeContextSchema = z.object({
  offset_millis: z.number().int(),
  effectivedate: dayStringSchema.nullable().optional(),
});

export const companySchema = z.object({
  id: idSchema,
  name: z.string().min(1, 'Missing required field: Name'),
  locale: z.string(),
  timezone: z.string().min(1),
  trial_expiration_date: dayStringSchema.nullable(),
  product_tier: productTierSchema,
  erp: z.string().nullable(),
  exclude_from_benchmarking: z.union([z.literal(0), z.literal(1)]).nullable(),
  enable_setup_stages: z.boolean(),
  enable_auto_job_dispatch: z.boolean(),
  enable_tablet_machine_switching: z.boolean(),
  areActivitiesEnabled: z.boolean(),
  cycleinputoption: cycleInputOptionSchema,
  currentTimeContext: timeContextSchema,
  futureTimeContext: timeContextSchema.nullable(),
  tablet_registration_key: z.string().nullable(),
  isServiceProvider: z.boolean(),
  onboarded_at: epochMsSchema.nullable(),
  machineCount: z.number().int().nonnegative(),
  lastSeen: epochMsSchema.nullable(),
  warningpercent_oee: z.number(),
  failurepercent_oee: z.number(),
  downtime_list_filter_duration: durationMsSchema,
  hide_remove_rejected_parts_checkbox: z.boolean(),
  address: z.string().nullable(),
});
export type Company = z.infer<typeof companySchema>;

/** A row of the downtime report's grid: a downtime period without its edit state. */
export const downtimeReportItemSchema = downtimePeriodSchema.pick({
  start: true,
  duration: true,
  machine: true,
  machineId: true,
  reason: true,
  message: true,
  planned: true,
  annotationType: true,
  count: true,
  setup: true,
});
export const warehouseDowntimeItemSchema = z.object({
  downtimeMs: durationMsSchema,
  recordCount: z.number().int().nonnegative(),
  reason: z.object({ name: z.string(), color: colorSchema }),
});
export const qualityItemSchema = z.object({ rejectCount: z.number().int().nonnegative() });

const jobReportBase = {
  job_id: idSchema,
  job_name: z.string(),
  start_at: epochMsSchema.nullable(),
  end_at: epochMsSchema.nullable(),
  percentage_of_parts_goal: z.number().nullable(),
  expected_parts: z.number().nullable(),
  good_parts: z.number(),
  rejected_parts: z.number(),
  oee: fraction,
  availability: fraction,
  performance: fraction,
  quality: fraction,
  /** Some run time has no standard: P and OEE leave it out or are null, with the warning (decision 1031). */
  missing_standards: z.boolean().optional(),
  setup_ms: durationMsSchema,
  production_in_cycle_ms: durationMsSchema,
  production_downtime_ms: durationMsSchema,
};
export const jobReportSchema = z.object(jobReportBase);
export const jobReportRunSchema = z.object({
  ...jobReportBase,
  machine_id: idSchema,
  machine_name: z.string(),
  expected_cycle_time_ms: durationMsSchema.nullable(),
  ideal_cycle_time_ms: durationMsSchema.nullable(),
  average_cycle_ms: durationMsSchema.nullable(),
  jobschedulegroup_id: idSchema,
});

export const adapterFieldSchema = z.object({
  name: z.string().min(1, 'Missing required field: Name'),
  dataItemType: z.string(),
  dataItemSubtype: z.string().nullable(),
  componentName: z.string().min(1, 'Missing required field: componentName'),
  componentType: z.string().min(1, 'Missing required field: componentType'),
});
export const adapterSchema = z.object({
  id: idSchema,
  name: z.string().min(1, 'Missing required field: Name'),
  notes: z.string().nullable(),
  class: z.string().default('MTConnect'),
  config: z.unknown(),
  family: z.object({ id: idSchema }).nullable(),
  autogenerated: z.boolean(),
  incomplete: z.boolean(),
  fields: z.array(adapterFieldSchema),
});
export const adapterTypeSchema = z.object({
  id: idSchema,
  name: z.string(),
  displayName: z.string(),
  defaultConfig: z.unknown(),
  supervised: z.boolean(),
});

export const gatewaySchema = z.object({
  id: idSchema,
  name: z.string(),
  assetSerial: z.string().nullable(),
  edgeRef: z.string().nullable(),
  company: z.object({ id: idSchema, name: z.string() }).nullable(),
  nonRootMachineCount: z.number().int().nonnegative(),
  rootMachineCount: z.number().int().nonnegative(),
  resinUUID: z.string().nullable(),
  /** The current push token's activation; null once deregistered (docs/decisions/0401). */
  activation: z
    .object({
      id: idSchema,
      status: z.string(),
      /** The token masked (`tgw_...` + last 6 characters), never the token. */
      token: z.string().nullable(),
      issuedAt: epochMsSchema.nullable(),
      activatedAt: epochMsSchema.nullable(),
    })
    .nullable(),
  /** reports-admin §5: 0.1 to 100, step 0.1. */
  ingestMultiplier: z.number().min(0.1).max(100),
  state: z.string(),
  activationStatus: z.string().nullable(),
  activationId: z.string().nullable(),
  activationToken: z.string().nullable(),
  activationTimestamp: epochMsSchema.nullable(),
  pusher: z.object({
    drainCount: z.number().int().nonnegative(),
    drainInterval: durationMsSchema,
    packedRecordCount: z.number().int().nonnegative(),
    pushInterval: durationMsSchema,
    version: z.string().nullable(),
  }),
  supervisor: z.object({ mode: z.enum(['Active', 'Dry Run', 'Standby']), version: z.string().nullable() }),
  lastResponse: epochMsSchema.nullable(),
  /** null until the gateway's first push reports it. */
  bufferedRecords: z.number().int().nonnegative().nullable(),
  lastShdr: epochMsSchema.nullable(),
});

export const machineNotificationSchema = z.object({
  accountId: idSchema,
  type: z.enum(['downtime', 'utilization']),
  /** 2 = Failure, otherwise Warning. */
  level: z.number().int(),
  delayMinutes: z.number().int().nonnegative().default(10),
});

export const machineSchema = z.object({
  id: idSchema,
  name: z.string().min(1, 'Missing required field: Name'),
  adapter: idSchema.nullable(),
  adapterType: idSchema.nullable(),
  adapterBinding: z.unknown().nullable(),
  gateway: idSchema.nullable(),
  sources: z.array(
    z.object({
      gateway: idSchema.nullable(),
      adapterBinding: z.unknown().nullable(),
      newIntegrationType: z.string().nullable(),
      disabled: z.boolean(),
    }),
  ),
  notifications: z.array(machineNotificationSchema),
  billingDate: dayStringSchema.nullable(),
  integratedAt: epochMsSchema.nullable(),
  excludeFromBenchmarking: z.union([z.literal(0), z.literal(1)]).nullable(),
  dispatchKey: z.string().nullable(),
  autostartBehavior: z.enum(['disabled', 'mes', 'key']),
  decommissioned_at: epochMsSchema.nullable(),
  partCount: z.number().nullable(),
  jobScheduleGroupId: idSchema.nullable(),
  version: z.literal(2),
  pingMonitor: z.union([z.literal(0), z.literal(1)]).nullable(),
  workcentertype: z.enum(['machine', 'manual', 'other']),
});
export type Machine = z.infer<typeof machineSchema>;

export const currentUserSchema = z.object({
  id: idSchema,
  email: z.object({ email: z.string() }),
  displayName: z.string(),
  role: z.string(),
  isRoot: z.boolean(),
  isAdmin: z.boolean(),
  isOperator: z.boolean(),
  company: z.object({ id: idSchema, name: z.string() }),
  shifts: z.array(idSchema),
  notify: z.boolean(),
  hasPassword: z.boolean(),
  hasGoogleOAuth: z.boolean(),
  createdAt: epochMsSchema,
});

export const inviteeSchema = z.object({
  /** One per line, trimmed (reports-admin §5). */
  invitees: z.array(z.string().trim().min(1)).min(1),
  role: z.string().default('kiosk'),
  brand_override: z.string().nullable().optional(),
});
// API key: schemas/api-keys.ts.

export const jobScheduleGroupSchema = z.object({
  id: idSchema,
  job_id: idSchema,
  machine_id: idSchema,
  startdate: epochMsSchema,
  enddate: epochMsSchema.nullable(),
  setuptime: z.number().nonnegative().nullable(),
  setupend: epochMsSchema.nullable(),
  cycletime: durationMsSchema,
  idealcycletime: durationMsSchema,
  partcount_multiplier: z.number().positive(),
  actualParts: z.number().int().min(1),
  partchangeovertime: durationMsSchema.nullable(),
  shifts: z.array(idSchema),
  // The run's labor activity set (same id as the run, decision 0300), its activities without stage objects.
  laborActivitySet: laborActivitySetSchema
    .omit({ id: true })
    .extend({ laborActivities: z.array(laborActivitySchema.omit({ setupStage: true })) })
    .nullable(),
});
