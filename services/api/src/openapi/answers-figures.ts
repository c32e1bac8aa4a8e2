import { z } from 'zod';
import { jobReportSchema, OEE_METRICS, partAdjustmentSchema, UTILIZATION_METRICS } from '@takt/domain';
import type { OeeByMachineResponse, OeeByShiftResponse, ProductionResponse } from '@takt/domain';
import type { jobByMachine, jobsWithoutRunsReport, warehouseJobs } from '../services/jobs-report';
import type { PartAdjustmentView, rejectList, RejectsByCategoryRow } from '../services/part-adjustments';
import type { Answer } from './answer';
import { answer, fraction, intervalRef, intervalUnit, ms, range, recomputing } from './answer';

// The answers of the OEE and utilization figures, the job report and the part adjustments (reports-admin §7;
// decision 1079), each checked against its handler's type (answer.ts).

const shiftRef = z.object({ id: z.string(), name: z.string(), color: z.string().nullable() });

// The figures a production row carries: the requested metrics only, so each is optional.
const metric = z.number().nullable().optional();
const figures = {
  ...Object.fromEntries([...OEE_METRICS, ...UTILIZATION_METRICS].map((m) => [m, metric])),
  minExpectedPartTime: z.number().nullable(),
  missingStandards: z.boolean().optional(),
} as Record<(typeof OEE_METRICS)[number] | (typeof UTILIZATION_METRICS)[number], typeof metric> & {
  minExpectedPartTime: z.ZodNullable<z.ZodNumber>;
  missingStandards: z.ZodOptional<z.ZodBoolean>;
};

export const productionAnswer = answer<ProductionResponse>()(
  z.object({
    range,
    interval: intervalUnit,
    /** One row per group: the keys of its `groupBy` dimensions, then the requested metrics. */
    items: z.array(
      z.object({
        ...figures,
        machine: z.string().optional(),
        shift: z.string().optional(),
        machineGroup: z.string().optional(),
        interval: ms.optional(),
      }),
    ),
    entities: z.object({
      machines: z.array(z.object({ id: z.string(), name: z.string() })),
      shifts: z.array(shiftRef),
      machineGroups: z.array(z.object({ id: z.string(), name: z.string() })),
      intervals: z.array(intervalRef),
    }),
    aggregate: z.object(figures),
    recomputing,
    /** With `csv: true`: the link to the same figures as CSV. */
    csv: z.object({ url: z.string() }).optional(),
  }),
);

const point = z.object({ start: ms, value: z.number().nullable() });
const byShift = z.array(z.object({ shift: z.string(), value: z.number().nullable() }));

export const oeeByMachineAnswer = answer<OeeByMachineResponse>()(
  z.object({
    intervals: z.array(intervalRef),
    allMachines: z.object({ intervalData: z.array(point), value: z.number().nullable() }),
    machines: z.array(
      z.object({
        machineId: z.string(),
        name: z.string(),
        intervalData: z.array(point),
        value: z.number().nullable(),
      }),
    ),
    recomputing,
  }),
);

export const oeeByShiftAnswer = answer<OeeByShiftResponse>()(
  z.object({
    intervals: z.array(intervalRef),
    shifts: z.array(shiftRef),
    allMachines: z.object({ intervalData: z.array(point.extend({ shift: z.string() })), byShift }),
    machines: z.array(z.object({ machineId: z.string(), name: z.string(), byShift })),
    machineGroups: z.array(z.object({ id: z.string(), name: z.string(), byShift })),
    recomputing,
  }),
);

// ---------------------------------------------------------------------------------------------------------
// The job report (decisions 0813, 0820, 1031)

/** The domain's Job report figures (reports-admin §3); `missing_standards` is always sent (decision 1031). */
const jobFigures = jobReportSchema
  .omit({ job_id: true, job_name: true, start_at: true, end_at: true })
  .required({ missing_standards: true }).shape;

export const warehouseJobsAnswer = answer<Answer<typeof warehouseJobs>>()(
  z.object({
    range,
    total: z.number(),
    recomputing,
    jobs: z.array(
      z.object({
        ...jobFigures,
        job_id: z.string(),
        job_name: z.string(),
        /** Aggregated by machine: the job on this machine. */
        machine_id: z.string().optional(),
        machine_name: z.string().optional(),
        start_at: ms.nullable(),
        end_at: ms.nullable(),
        runs: z.array(
          z.object({
            ...jobFigures,
            jobschedulegroup_id: z.string(),
            job_id: z.string(),
            job_name: z.string(),
            machine_id: z.string(),
            machine_name: z.string(),
            start_at: ms,
            end_at: ms.nullable(),
            expected_cycle_time_ms: ms,
            ideal_cycle_time_ms: ms,
            average_cycle_ms: ms.nullable(),
          }),
        ),
      }),
    ),
    limits: z.object({ warningPercent: z.number(), failurePercent: z.number() }),
  }),
);

const jobTotals = { ...jobFigures, job_id: z.string(), job_name: z.string() };
const reasonName = {
  reason_id: z.string(),
  reason_name: z.string().nullable(),
  color: z.string().nullable(),
};

export const jobByMachineAnswer = answer<Answer<typeof jobByMachine>>()(
  z.object({
    range,
    recomputing,
    /** Without runs in the range: no start and no end. */
    job: z.union([
      z.object({ ...jobTotals, start_at: ms, end_at: ms.nullable() }),
      z.object({ ...jobTotals, start_at: z.null(), end_at: z.null() }),
    ]),
    machines: z.array(
      z.object({
        ...jobFigures,
        machine_id: z.string(),
        machine_name: z.string(),
        start_at: ms.nullable(),
        end_at: ms.nullable(),
        average_cycle_ms: ms.nullable(),
      }),
    ),
    shifts: z.array(
      z.object({
        shift_id: z.string(),
        shift_name: z.string(),
        oee: fraction,
        availability: fraction,
        performance: fraction,
        quality: fraction,
        missing_standards: z.boolean(),
      }),
    ),
    downtime: z.array(z.object({ ...reasonName, planned_ms: ms, unplanned_ms: ms, downtime_ms: ms })),
    rejects: z.array(z.object({ ...reasonName, rejected_parts: z.number() })),
  }),
);

export const jobsWithoutRunsAnswer = answer<Answer<typeof jobsWithoutRunsReport>>()(
  z.object({ range, jobs: z.array(z.object({ job_id: z.string(), job_name: z.string() })) }),
);

// ---------------------------------------------------------------------------------------------------------
// Part adjustments (rejects, corrections, setup parts, parts added by hand)

export const partAdjustmentAnswer = answer<PartAdjustmentView>()(
  partAdjustmentSchema.extend({ kind: z.enum(['setup', 'correction', 'reject', 'manual']) }),
);

export const partAdjustmentsAnswer = z.array(partAdjustmentAnswer);

export const rejectsByCategoryAnswer = answer<{ rejects: RejectsByCategoryRow[] }>()(
  z.object({
    rejects: z.array(
      z.object({
        scrapCount: z.number(),
        partadjustmentType: z.object({ id: z.string().nullable(), name: z.string(), color: z.string() }),
        category_id: z.string().nullable(),
        /** With `groupByMachine`. */
        machine: z.object({ id: z.string(), name: z.string() }).nullable(),
      }),
    ),
  }),
);

export const rejectListAnswer = answer<Answer<typeof rejectList>>()(
  z.object({ rows: z.array(partAdjustmentAnswer), count: z.number(), limit: z.number(), offset: z.number() }),
);
