import { z } from 'zod';
import { REPORT_INTERVAL_UNITS } from '../calendar/intervals';
import { epochMsSchema, idSchema, noteSchema, queryBool, queryEpochMs, queryList } from './common';
import { jobMachineSchema, rejectBehaviorSchema } from './live-entities';

// live-operations §7 request bodies and queries (validated by the API, built by the apps).

const startBeforeEnd = <T extends { start: number; end: number }>(v: T) => v.start < v.end;
const START_BEFORE_END = { message: 'Start Date must be before End Date', path: ['end'] };

// ---- Job dispatch
export const jobsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(15),
  offset: z.coerce.number().int().min(0).default(0),
  filter: z.string().default(''),
  machineId: idSchema.optional(),
  includeHidden: queryBool.optional(),
});
export const jobStartRequestSchema = z.object({
  /** The machine (workcenter) id. */
  id: idSchema,
  jobId: idSchema,
  setup: z.boolean(),
  setupStageId: idSchema.nullable().optional(),
});
export const jobStopRequestSchema = z.object({
  id: idSchema,
  jobId: idSchema,
  laborActivitySetId: idSchema.nullable().optional(),
});
export const jobMachineSaveRequestSchema = z.object({
  job_id: idSchema,
  job_machine: jobMachineSchema
    .omit({ id: true, name: true, job_id: true })
    .partial()
    .extend({ machine_id: idSchema }),
});

// ---- Setup
export const setupPartsQuerySchema = z.object({ jsgId: idSchema, machineId: idSchema });
export const endSetupRequestSchema = z.object({
  jsgId: idSchema,
  machineId: idSchema,
  message: noteSchema.optional().default(''),
  /** Parts kept out of the parts made in setup (clamped by setupRemoval). */
  keptParts: z.number().int().min(0).optional(),
});
export const stageTransitionRequestSchema = z.object({
  laborActivitySetId: idSchema,
  setupStageId: idSchema,
});
export const setupStagesSaveRequestSchema = z
  .object({
    setupStages: z.array(
      z.object({
        id: idSchema.optional(),
        name: z
          .string({ error: 'Missing required field: Name' })
          .trim()
          .min(1, 'Missing required field: Name')
          .max(250, 'At most 250 characters'),
        stageOrder: z.number().int().min(0),
        setupPercentage: z.number().min(0).max(100),
      }),
    ),
  })
  .refine(
    (v) =>
      v.setupStages.length === 0 ||
      Math.abs(v.setupStages.reduce((s, x) => s + x.setupPercentage, 0) - 100) < 1e-9,
    {
      message: 'Setup stage percentages must total 100',
      path: ['setupStages'],
    },
  );

// ---- Downtime and annotations
export const workcenterDowntimeQuerySchema = z.object({
  machineId: idSchema,
  start: queryEpochMs,
  instances: queryBool.default(true),
  pinToBounds: queryBool.default(false),
});
export const annotationInputSchema = z.object({
  start: epochMsSchema,
  /** null when not explicitly set (live-operations §5). */
  end: epochMsSchema.nullable(),
  category_id: idSchema.nullable(),
  message: noteSchema.nullable().optional(),
  planned: z.boolean().nullable().optional(),
  machineId: idSchema,
  setup: z.boolean().optional(),
});
export const annotationCreateBulkRequestSchema = z.object({
  annotations: z
    .array(annotationInputSchema.extend({ category_id: idSchema }))
    .min(1, 'Select at least one downtime period.'),
});
export const annotationUpdateRequestSchema = annotationInputSchema.partial().extend({ id: idSchema });
export const annotationSetRangeRequestSchema = z.object({ annotations: z.array(annotationInputSchema) });

// ---- Rejects and part adjustments
export const partAdjustmentCreateRequestSchema = z.object({
  machine_id: idSchema,
  adjustmenttime: epochMsSchema,
  category_id: idSchema.nullable(),
  /** live-operations §5: required, number, min 1 for rejects. */
  scrapcount: z.number({ error: 'Count is required' }).int().min(0),
  /** 0 when removed from good parts; the scrap count otherwise; ± for corrections. */
  count: z.number().int(),
  message: noteSchema.nullable().optional(),
  scrap: z.boolean(),
  deductFromGoodParts: z.boolean().default(true),
  reject_behavior: rejectBehaviorSchema.nullable().optional(),
});
export const rejectRequestSchema = partAdjustmentCreateRequestSchema
  .extend({
    scrapcount: z.number({ error: 'Count is required' }).int().min(1, 'Count must be at least 1'),
    category_id: idSchema,
  })
  .refine((r) => r.count === (r.deductFromGoodParts ? 0 : r.scrapcount), {
    message: 'count must be 0 when removed from good parts, else the scrap count',
    path: ['count'],
  });
export const partAdjustmentUpdateRequestSchema = partAdjustmentCreateRequestSchema
  .partial()
  .extend({ id: idSchema });
export const partAdjustmentQuerySchema = z.object({
  machine_id: idSchema,
  start: queryEpochMs,
  end: queryEpochMs,
  includeHidden: queryBool.optional(),
  scrap: queryBool.optional(),
});

// ---- Operators
export const operatorRunsQuerySchema = z.object({
  machineId: idSchema,
  startAt: queryEpochMs,
  endAt: queryEpochMs,
});
export const operatorRunStartRequestSchema = z.object({
  machineId: idSchema,
  operatorId: idSchema,
  pinToPreviousEvent: z.boolean().default(false),
});
export const operatorRunStopRequestSchema = z.object({ machineId: idSchema });

// ---- Event export (live-operations §5: start before end; at most two years back; at most now)
export const eventExportRequestSchema = z
  .object({
    machineId: idSchema,
    start: epochMsSchema,
    end: epochMsSchema,
    filterKeys: z.array(z.string()).default([]),
  })
  .refine(startBeforeEnd, START_BEFORE_END);

// ---- E-mail preferences
export const emailPreferencesUpdateSchema = z.object({
  receiveDowntimeEmail: z.boolean(),
  receiveUtilizationEmail: z.boolean(),
  receiveBenchmarkingEmail: z.boolean(),
});

// ---- Live channel
export const channelJoinSchema = z.discriminatedUnion('name', [
  z.object({
    name: z.literal('temp_timeline'),
    machine_id: idSchema,
    config: z.object({ start: epochMsSchema, end: epochMsSchema, key: z.string() }),
  }),
  z.object({
    name: z.literal('diagnostics'),
    machine_id: idSchema,
    config: z.object({ stream: z.literal('raw') }).optional(),
  }),
]);

// ---- Report queries (live-operations §7, reports-admin §7)
const range = { start: queryEpochMs, end: queryEpochMs };
/**
 * A reason filter: a reason id, or 'uncategorized' (the rollups' UNCATEGORIZED_REASON / _REJECT key) for the
 * periods or rejects without one (decision 0812).
 */
const categoryFilter = (name: string, what: string) =>
  z.string().min(1, `${name} must be ${what} or 'uncategorized'`);
/** `shifts`: shift ids, comma-separated; an empty value means no shift filter. */
const shiftIdList = queryList
  .refine((ids) => ids.every((id) => id.trim() !== ''), 'shifts must be a comma-separated list of shift ids')
  .optional();
const reportInterval = z.enum(REPORT_INTERVAL_UNITS).catch('day');
export const partGoalsQuerySchema = z
  .object({
    ...range,
    interval: reportInterval.default('day'),
    group: idSchema.optional(),
    machineId: idSchema.optional(),
    format: z.literal('csv').optional(),
    cache: z.string().optional(),
  })
  .refine(startBeforeEnd, START_BEFORE_END);
export const utilizationQuerySchema = z
  .object({
    ...range,
    interval: reportInterval.default('day'),
    group: idSchema.optional(),
    machineId: idSchema.optional(),
    unit: z.enum(['hour', 'percent']).default('percent'),
  })
  .refine(startBeforeEnd, START_BEFORE_END);
export const cyclesQuerySchema = z
  .object({ ...range, machineId: idSchema, format: z.literal('csv').optional() })
  .refine(startBeforeEnd, START_BEFORE_END);
export const downtimeReportQuerySchema = z
  .object({
    ...range,
    shifts: queryList.optional(),
    group: idSchema.optional(),
    onlyScheduled: queryBool.optional(),
    showPlanned: queryBool.default(true),
    showUnplanned: queryBool.default(true),
    showUncategorized: queryBool.default(true),
    /** METRICS.md §1 No data rows and bars (decision 1011): hidden as planned downtime can be. */
    showNoData: queryBool.default(true),
    includeHidden: queryBool.optional(),
    categoryId: categoryFilter('categoryId', 'a downtime reason id').optional(),
    machineId: idSchema.optional(),
    detail: queryBool.optional(),
    format: z.literal('csv').optional(),
  })
  .refine(startBeforeEnd, START_BEFORE_END);
/**
 * The reject calls' filters (reports-admin §7; decision 0812): one machine, the selected shifts' time and a
 * reason or 'uncategorized' (rejects without a reason), with the texts a 400 answer lists.
 */
const rejectFilters = {
  ...range,
  group: idSchema.optional(),
  machine_id: z.string().min(1, 'machine_id must be a machine id').optional(),
  shifts: shiftIdList,
  category_id: categoryFilter('category_id', 'a reject reason id').optional(),
  format: z.literal('csv', { error: "format must be 'csv'" }).optional(),
};
export const rejectsByCategoryQuerySchema = z
  .object({ ...rejectFilters, groupByMachine: queryBool.optional() })
  .refine(startBeforeEnd, START_BEFORE_END);
export const rejectListQuerySchema = z.object({
  ...rejectFilters,
  limit: z.coerce.number().int().min(1).max(100).default(25),
  offset: z.coerce.number().int().min(0).default(0),
});
export const timelineQuerySchema = z
  .object({
    ...range,
    machineId: idSchema,
    includeSetup: queryBool.optional(),
    instances: queryBool.optional(),
  })
  .refine(startBeforeEnd, START_BEFORE_END);
/** reports-admin §2 Overrides report (decision 0807): one machine, at most 7 days. */
export const overridesQuerySchema = z
  .object({ ...range, machineId: idSchema })
  .refine(startBeforeEnd, START_BEFORE_END);
export const oeeQuerySchema = z
  .object({
    ...range,
    intervalType: reportInterval.default('day'),
    shifts: queryList.optional(),
    efficiencyMetric: z.enum(['oee', 'ooe', 'teep', 'availability', 'performance', 'quality']).optional(),
    jobId: idSchema.optional(),
    machines: queryList.optional(),
  })
  .refine(startBeforeEnd, START_BEFORE_END);

// ---- Warehouse job calls (reports-admin §7; decision 0813)
const csvFormat = z.literal('csv', { error: "format must be 'csv'" }).optional();
/** GET /api/reports/warehouse/jobs: the jobs run in the range, optionally one job and/or one machine. */
export const warehouseJobsQuerySchema = z
  .object({
    ...range,
    job_id: z.string().min(1, 'job_id must be a job id').optional(),
    machine_id: z.string().min(1, 'machine_id must be a machine id').optional(),
    /** reports-admin §2 "Jobs report reads group": only runs on the group's machines. */
    group: z.string().min(1, 'group must be a machine group id').optional(),
    format: csvFormat,
  })
  .refine(startBeforeEnd, START_BEFORE_END);
/** GET /api/reports/warehouse/jobs/aggregatedbymachine: one job's figures per machine. */
export const warehouseJobByMachineQuerySchema = z
  .object({
    ...range,
    job_id: z.string({ error: 'job_id is required' }).min(1, 'job_id must be a job id'),
    format: csvFormat,
  })
  .refine(startBeforeEnd, START_BEFORE_END);
/** GET /api/reports/warehouse/jobs/withoutruns: the jobs with no run in the range on the machines. */
export const warehouseJobsWithoutRunsQuerySchema = z
  .object({
    ...range,
    group: z.string().min(1, 'group must be a machine group id').optional(),
    machine_id: z.string().min(1, 'machine_id must be a machine id').optional(),
  })
  .refine(startBeforeEnd, START_BEFORE_END);
