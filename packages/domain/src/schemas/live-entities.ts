import { z } from 'zod';
import { MACHINE_STATES } from '../machine-state';
import { PLANNED_BEHAVIORS } from '../metrics/planned';
import { PART_BEHAVIORS, START_IN_SETUP_MODES } from '../metrics/production';
import { colorSchema, durationMsSchema, epochMsSchema, idSchema, noteSchema } from './common';

// live-operations §3 entities (the dashboard tile is dashboardMachineSchema in dashboard.ts).

export const cycleInputOptionSchema = z.enum(['timepercycle', 'timeperpart', 'partsperhour']);
export const productTierSchema = z.enum(['serviceProvider', 'utilization', 'full']);
export const rejectBehaviorSchema = z.enum(['scrap', 'nonconform']);
export const reasonRejectBehaviorSchema = z.enum(['operator', 'scrap', 'nonconform']);
export const plannedBehaviorSchema = z.enum(PLANNED_BEHAVIORS);
export const partBehaviorSchema = z.enum(PART_BEHAVIORS);
export const startInSetupSchema = z.enum(START_IN_SETUP_MODES);

export const annotationTypeSchema = z.object({
  id: idSchema,
  name: z.string().min(1, 'Missing required field: Name'),
  companyId: idSchema,
  plannedBehavior: plannedBehaviorSchema,
  /** live-operations §9: default 5 minutes, stored in ms. */
  plannedLimitMs: durationMsSchema.nullable().default(300_000),
  color: colorSchema.default('#828282'),
  hidden: z.boolean().default(false),
});
export type AnnotationType = z.infer<typeof annotationTypeSchema>;

export const downtimePeriodSchema = z.object({
  start: epochMsSchema,
  end: epochMsSchema.nullable(),
  duration: durationMsSchema,
  isEndSet: z.boolean(),
  machine: z.string(),
  machineId: idSchema,
  reason: z.string().nullable(),
  color: colorSchema.nullable(),
  message: z.string().nullable(),
  /** true Planned, false Unplanned, null Exceeded Limit (or uncategorized). */
  planned: z.boolean().nullable(),
  annotationType: annotationTypeSchema
    .pick({ id: true, name: true, color: true, plannedBehavior: true, plannedLimitMs: true })
    .nullable(),
  count: z.number().int().nonnegative(),
  setup: z.boolean(),
  selected: z.boolean().default(false),
  /**
   * METRICS.md §1 No data (decision 1060): a piece of an uncategorized period the machine sent no data in
   * (UNAVAILABLE), reason "No data"; not offered for "Categorize Multiple" nor under "Only Uncategorized".
   */
  noData: z.boolean().default(false),
});
export type DowntimePeriod = z.infer<typeof downtimePeriodSchema>;

export const annotationSchema = z.object({
  id: idSchema,
  machineId: idSchema,
  category_id: idSchema.nullable(),
  annotationTypeId: idSchema.nullable(),
  start: epochMsSchema,
  end: epochMsSchema.nullable(),
  message: noteSchema.nullable(),
  planned: z.boolean().nullable(),
  setup: z.boolean(),
  activesetup: z.boolean(),
  needstermination: z.boolean(),
});
export type Annotation = z.infer<typeof annotationSchema>;

export const partAdjustmentTypeSchema = z.object({
  id: idSchema,
  name: z.string().min(1, 'Missing required field: Name'),
  company_id: idSchema,
  color: colorSchema.default('#828282'),
  scrap: z.boolean(),
  reject_behavior: reasonRejectBehaviorSchema,
  hidden: z.boolean().default(false),
});
export type PartAdjustmentType = z.infer<typeof partAdjustmentTypeSchema>;

export const partAdjustmentSchema = z.object({
  id: idSchema,
  adjustmenttime: epochMsSchema,
  machine_id: idSchema,
  machine_name: z.string(),
  category_id: idSchema.nullable(),
  partadjustmentType: z.object({ name: z.string(), color: colorSchema }).nullable(),
  scrapcount: z.number().int().nonnegative(),
  /** Added to the machine's count: 0 when removed from good parts (live-operations §5). */
  count: z.number().int(),
  message: noteSchema.nullable(),
  scrap: z.boolean(),
  jobName: z.string().nullable(),
  deductFromGoodParts: z.boolean(),
  reject_behavior: rejectBehaviorSchema.nullable(),
});
export type PartAdjustment = z.infer<typeof partAdjustmentSchema>;

export const cycleSchema = z.object({
  timestamp: epochMsSchema,
  duration: durationMsSchema,
  expectedCycleTime: durationMsSchema,
  idealCycleTime: durationMsSchema,
  parts: z.number().int(),
  scraps: z.number().int().nonnegative(),
  nonconforms: z.number().int().nonnegative(),
  job: z.string().nullable(),
});
export type Cycle = z.infer<typeof cycleSchema>;

export const timelineCycleEventSchema = z.object({
  /** ACTIVE, INACTIVE, SETUP; anything else is shown as unavailable. */
  value: z.string(),
  start: epochMsSchema,
  end: epochMsSchema,
  duration: durationMsSchema,
  pinnedStart: epochMsSchema,
  pinnedEnd: epochMsSchema,
  pinnedDuration: durationMsSchema,
});
export const partEventSchema = z.object({
  start: epochMsSchema,
  parts: z.number().int(),
  expectedCycleTime: durationMsSchema,
});
export const faultSchema = z.object({
  start: epochMsSchema,
  duration: durationMsSchema,
  value: z.string(),
  nativecode: z.string().nullable(),
  type: z.string().nullable(),
});
export const resetSchema = z.object({
  resetdate: epochMsSchema,
  message: z.string().nullable(),
  account: z.object({ displayName: z.string() }),
});
export const activitySchema = z.object({
  activityRef: idSchema,
  activitySetRef: idSchema,
  activityTypeName: z.string(),
  jobName: z.string().nullable(),
  activityMode: z.enum(['setup', 'other']),
  startAt: epochMsSchema,
  endAt: epochMsSchema.nullable(),
});
export const runSchema = z.object({
  jobId: idSchema,
  jobName: z.string(),
  start: epochMsSchema,
  end: epochMsSchema.nullable(),
  jsgId: idSchema,
});
export const programIntervalSchema = z.object({ start: epochMsSchema, end: epochMsSchema, name: z.string() });

export const jobMachineSchema = z.object({
  id: idSchema,
  name: z.string(),
  machine_id: idSchema,
  job_id: idSchema,
  expectedCycleTime: durationMsSchema.default(60_000),
  idealCycleTime: durationMsSchema.default(60_000),
  partCountMultiplier: z.number().positive().default(1),
  actualParts: z.number().int().min(1).default(1),
  reportedParts: z.number().int().min(1).nullable().default(null),
  requiredCycles: z.number().int().min(1).nullable().default(null),
  /** Seconds; null when started with setup mode none. */
  setuptime: z.number().nonnegative().nullable(),
  partBehavior: partBehaviorSchema.default('one'),
  startInSetup: startInSetupSchema.default('none'),
  schedule: z
    .object({ ends: z.union([z.literal('never'), epochMsSchema]).default('never') })
    .default({ ends: 'never' }),
});
export type JobMachine = z.infer<typeof jobMachineSchema>;

export const jobSchema = z.object({
  id: idSchema,
  displayName: z.string(),
  job_name: z.string(),
  job_id: z.string(),
  expectedCycleTime: durationMsSchema,
  idealCycleTime: durationMsSchema,
  setuptime: z.number().nonnegative().nullable(),
  partCountMultiplier: z.number().positive(),
  actualParts: z.number().int().min(1),
  job_machines: z.array(jobMachineSchema),
});
export type Job = z.infer<typeof jobSchema>;

export const setupStageSchema = z.object({
  id: idSchema,
  name: z.string().min(1),
  stageOrder: z.number().int().nonnegative(),
  setupPercentage: z.number().min(0).max(100),
  archivedAt: epochMsSchema.nullable(),
});
export type SetupStage = z.infer<typeof setupStageSchema>;

export const laborActivitySchema = z.object({
  startAt: epochMsSchema,
  endAt: epochMsSchema.nullable(),
  setupStageId: idSchema.nullable(),
  setupStage: setupStageSchema.nullable().optional(),
  setup: z.boolean(),
});
export const laborActivitySetSchema = z.object({
  id: idSchema,
  startAt: epochMsSchema,
  endAt: epochMsSchema.nullable(),
  jobId: idSchema,
  machineId: idSchema,
  expectedUnitDuration: durationMsSchema.nullable(),
  expectedSetupDuration: durationMsSchema.nullable(),
  laborActivities: z.array(laborActivitySchema),
});
export type LaborActivitySet = z.infer<typeof laborActivitySetSchema>;
export const setupPartsSchema = z.object({ netCount: z.number().int() });

export const operatorSchema = z.object({
  id: idSchema,
  name: z.string().min(1, 'Missing required field: Name'),
  erpId: z.string().nullable(),
  archivedAt: epochMsSchema.nullable(),
  runCount: z.number().int().nonnegative(),
});
export type Operator = z.infer<typeof operatorSchema>;
export const operatorRunSchema = z.object({
  id: idSchema,
  machineId: idSchema,
  operatorId: idSchema,
  startAt: epochMsSchema,
  endAt: epochMsSchema.nullable(),
  operator: z.object({ name: z.string() }),
});
export type OperatorRun = z.infer<typeof operatorRunSchema>;

export const tabletSchema = z.object({
  id: idSchema,
  serial_number: z.string(),
  remote_identifier: z.string().nullable(),
  machine_id: idSchema.nullable(),
  dashboardView: z.string().default('opdash'),
});

export const companyFlagsSchema = z.object({
  enable_setup_stages: z.boolean(),
  hide_remove_rejected_parts_checkbox: z.boolean(),
  areActivitiesEnabled: z.boolean(),
  cycleinputoption: cycleInputOptionSchema,
  enable_tablet_machine_switching: z.boolean(),
  /** ms */
  downtime_list_filter_duration: durationMsSchema,
  currentTimeContext: z.object({ offset_millis: z.number().int() }),
  product_tier: productTierSchema,
  // Company settings the specs name without a flag name (decision 1087): §2 "operator name button (when
  // operator tracking is on)", the underlay's "configured delay" and "auto-expand duration", and reports-admin
  // §9 "Long-downtime threshold is a company setting" ("Only Long Downtimes"). Durations in ms.
  operator_tracking: z.boolean(),
  underlay_delay: durationMsSchema,
  underlay_auto_expand: durationMsSchema,
  long_downtime_threshold: durationMsSchema,
});
/** GET /api/company/flags: the caller's company settings the floor app follows. */
export type CompanyFlags = z.infer<typeof companyFlagsSchema>;

/** A new company's settings as GET /api/company/settings shows them (the column defaults of migrations 0002 and
 *  0040; decision 1087): durations in ms, percents 0–100. */
export const NEW_COMPANY_SETTINGS = {
  locale: 'en-US',
  enable_setup_stages: false,
  hide_remove_rejected_parts_checkbox: false,
  areActivitiesEnabled: false,
  cycleinputoption: 'timepercycle' as z.infer<typeof cycleInputOptionSchema>,
  enable_tablet_machine_switching: true,
  operator_tracking: true,
  downtime_list_filter_duration: 120_000,
  underlay_delay: 30_000,
  underlay_auto_expand: 300_000,
  long_downtime_threshold: 120_000,
  warningpercent: 90,
  failurepercent: 75,
  utilizationwarningpercent: 60,
  utilizationfailurepercent: 40,
  warningpercent_oee: 90,
  failurepercent_oee: 75,
  enable_auto_job_dispatch: false,
  exclude_from_benchmarking: null as 0 | 1 | null,
  tablet_registration_key: null as string | null,
  address: null as string | null,
};

export const machineGroupRefSchema = z.object({
  id: idSchema,
  name: z.string(),
  machines: z.array(idSchema),
});
export const shiftRefSchema = z.object({
  id: idSchema,
  name: z.string(),
  start: epochMsSchema,
  end: epochMsSchema,
});
export const emailPreferencesSchema = z.object({
  receiveDowntimeEmail: z.boolean(),
  receiveUtilizationEmail: z.boolean(),
  receiveBenchmarkingEmail: z.boolean(),
});
export type EmailPreferences = z.infer<typeof emailPreferencesSchema>;

export const workcenterLiveSchema = z.object({
  actualParts: z.number(),
  scrapParts: z.number(),
  quantity: z.number().nullable(),
  jobGoodParts: z.number(),
  expectedPartsNow: z.number().nullable(),
  partPercent: z.number().nullable(),
  utilization: z.number().nullable(),
  utilizationBar: z.number().nullable(),
  partsBar: z.number().nullable(),
  cycletime: durationMsSchema.nullable(),
  currentCycle: durationMsSchema.nullable(),
  lastCycle: durationMsSchema.nullable(),
  lastFew: z.array(durationMsSchema),
  averageCycle: durationMsSchema.nullable(),
  oee: z.number().nullable(),
  availability: z.number().nullable(),
  performance: z.number().nullable(),
  quality: z.number().nullable(),
  /**
   * Some run time in the window has no standard: P leaves it out (OEE '-' when none has one) and the card shows
   * the spec's warning (METRICS.md §3, decision 1031). Optional: an older server does not send it.
   */
  missingStandards: z.boolean().optional(),
  totalDowntime: durationMsSchema,
  scheduled: z.boolean(),
  jobName: z.string().nullable(),
  program: z.string().nullable(),
  subprogram: z.string().nullable(),
  setupSince: epochMsSchema.nullable(),
  currentLaborActivitySet: z.object({ expectedSetupDuration: durationMsSchema.nullable() }).nullable(),
  operatorRun: z.object({ operator: z.object({ name: z.string() }), startAt: epochMsSchema }).nullable(),
  multiplier: z.number().positive(),
  cardStatus: z.string().nullable(),
  stale: z.boolean(),
  state: z.enum(MACHINE_STATES).optional(),
});
export type WorkcenterLive = z.infer<typeof workcenterLiveSchema>;
