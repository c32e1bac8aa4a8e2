import { z } from 'zod';
import { REPORT_INTERVAL_UNITS } from '../calendar/intervals';
import type { ReportIntervalUnit } from '../calendar/intervals';
import { epochMsSchema, idSchema, queryEpochMs, queryList } from './common';
import type { Efficiency } from '../metrics/oee';

// reports-admin §7: the calls behind the OEE and utilization reports. The API validates with
// these schemas; the office app builds its requests and reads the answers with these types. Fractions
// (0..1, above 1 allowed for performance) are shown as percents by the apps; null renders '-'.

const START_BEFORE_END = { message: 'Start Date must be before End Date', path: ['end'] };
const startBeforeEnd = <T extends { start: number; end: number }>(v: T) => v.start < v.end;
const INTERVAL_MESSAGE = `Interval must be one of ${REPORT_INTERVAL_UNITS.join(', ')}.`;
const interval = z.enum(REPORT_INTERVAL_UNITS, { error: INTERVAL_MESSAGE });

/** OEE metrics (fractions) and utilization metrics (times in ms; utilizationRate a fraction). */
export const OEE_METRICS = ['availability', 'oee', 'ooe', 'performance', 'quality', 'teep'] as const;
export const UTILIZATION_METRICS = [
  'timeInCut',
  'timeInCycle',
  'timeSpindleRotating',
  'allTime',
  'utilizationRate',
] as const;
export const PRODUCTION_METRICS = [...OEE_METRICS, ...UTILIZATION_METRICS] as const;
export type ProductionMetric = (typeof PRODUCTION_METRICS)[number];
export const PRODUCTION_GROUP_BY = ['machine', 'shift', 'machineGroup', 'interval'] as const;
export type ProductionGroupBy = (typeof PRODUCTION_GROUP_BY)[number];

/**
 * POST /api/reports/warehouse/production. `groupBy` takes one or two dimensions (['machine', 'interval'] gives
 * each machine's sparkline); none gives only the aggregate. `filter.shift` filters to those shifts' time (OOE
 * and TEEP are then null, METRICS.md §3). `csv: true` adds `csv.url`, a GET link (with `?token=`) to the
 * same figures as CSV.
 */
export const productionRequestSchema = z
  .object({
    start: epochMsSchema,
    end: epochMsSchema,
    interval: interval.default('day'),
    data: z.array(z.enum(PRODUCTION_METRICS)).min(1, 'Select at least one metric'),
    filter: z
      .object({
        machine: z.array(idSchema).optional(),
        machineGroup: idSchema.optional(),
        shift: z.array(idSchema).optional(),
      })
      .default({}),
    groupBy: z.array(z.enum(PRODUCTION_GROUP_BY)).max(2).default([]),
    csv: z.boolean().optional(),
  })
  .refine(startBeforeEnd, START_BEFORE_END);
export type ProductionRequest = z.input<typeof productionRequestSchema>;

export type ProductionFigures = Partial<Record<ProductionMetric, number | null>> & {
  /** 0 = a run without operation standards (the report's warning), null = no runs. */
  minExpectedPartTime: number | null;
  /** Some run time or run in the cell has no standard: the report's warning (METRICS.md §3, decision 1002). */
  missingStandards?: boolean;
};

/** One row: the keys of its groupBy dimensions, then the requested metrics. */
export type ProductionItem = ProductionFigures & {
  machine?: string;
  shift?: string;
  machineGroup?: string;
  /** The interval's start (epoch ms), a key of entities.intervals. */
  interval?: number;
};

export interface ReportIntervalRef {
  start: number;
  end: number;
  /** The company-day the interval starts on, 'YYYY-MM-DD'. */
  shopDate: string;
}

/**
 * A machine of a report whose figures in the range are still being recomputed (a pending rollup mark: late
 * data or an edit, decision 1004); they may change. Every report answer lists them (`recomputing`, empty when
 * settled).
 */
export interface RecomputingMachine {
  machineId: string;
  machineName: string;
}

export interface ProductionResponse {
  range: { start: number; end: number };
  interval: ReportIntervalUnit;
  items: ProductionItem[];
  entities: {
    machines: Array<{ id: string; name: string }>;
    shifts: Array<{ id: string; name: string; color: string | null }>;
    machineGroups: Array<{ id: string; name: string }>;
    intervals: ReportIntervalRef[];
  };
  aggregate: ProductionFigures;
  recomputing: RecomputingMachine[];
  csv?: { url: string };
}

/** The metrics one per-shift matrix or per-metric table shows (reports-admin §2 OEE report dropdowns). */
export const EFFICIENCY_METRICS = [...OEE_METRICS, 'inCycle'] as const;
export type EfficiencyMetric = (typeof EFFICIENCY_METRICS)[number];

/** POST /api/oee/bymachine and /api/oee/byabstractshift. */
export const oeeByRequestSchema = z
  .object({
    intervalType: interval.default('day'),
    start: epochMsSchema,
    end: epochMsSchema,
    shifts: z.array(idSchema).optional(),
    efficiencyMetric: z.enum(EFFICIENCY_METRICS).default('oee'),
    jobId: idSchema.optional(),
    machines: z.array(idSchema).optional(),
    group: idSchema.optional(),
  })
  .refine(startBeforeEnd, START_BEFORE_END);
export type OeeByRequest = z.input<typeof oeeByRequestSchema>;

export interface MetricPoint {
  /** interval start (epoch ms) */
  start: number;
  value: number | null;
}
export interface ShiftValue {
  shift: string;
  value: number | null;
}

/** POST /api/oee/bymachine: the metric per interval for all machines together and for each machine. */
export interface OeeByMachineResponse {
  intervals: ReportIntervalRef[];
  allMachines: { intervalData: MetricPoint[]; value: number | null };
  machines: Array<{ machineId: string; name: string; intervalData: MetricPoint[]; value: number | null }>;
  recomputing: RecomputingMachine[];
}

/**
 * POST /api/oee/byabstractshift: the metric per shift (columns of the per-shift matrix) for all machines, per
 * interval (the per-metric summary table), for each machine and for each machine group.
 */
export interface OeeByShiftResponse {
  intervals: ReportIntervalRef[];
  shifts: Array<{ id: string; name: string; color: string | null }>;
  allMachines: {
    intervalData: Array<MetricPoint & { shift: string }>;
    byShift: ShiftValue[];
  };
  machines: Array<{ machineId: string; name: string; byShift: ShiftValue[] }>;
  machineGroups: Array<{ id: string; name: string; byShift: ShiftValue[] }>;
  recomputing: RecomputingMachine[];
}

/** GET /api/reports/oee: the summary of the OEE report (tiles, chart over intervals, loss waterfall). */
export const oeeReportQuerySchema = z
  .object({
    start: queryEpochMs,
    end: queryEpochMs,
    interval: interval.default('day'),
    group: idSchema.optional(),
    machineId: idSchema.optional(),
    shifts: queryList.optional(),
  })
  .refine(startBeforeEnd, START_BEFORE_END);

/** The steps of the OEE waterfall below, top to bottom. */
export const WATERFALL_STEP_KEYS = [
  'allTime',
  'outsideShift',
  'shiftTime',
  'plannedDowntime',
  'plannedProductionTime',
  'availabilityLoss',
  'runTime',
  'performanceLoss',
  'qualityLoss',
  'fullyProductiveTime',
] as const;

/**
 * Explainable OEE (decision 0803): where the range's time went, in ms, top to bottom. 'total' steps are
 * levels (all time, shift time, planned production time, run time, fully productive time); 'loss' steps are
 * what separates one level from the next. Every loss step names the records behind it (`link`). The steps
 * add up exactly: shiftTime = allTime − outsideShift; plannedProductionTime = shiftTime − plannedDowntime;
 * runTime = plannedProductionTime − Σ availability losses; fullyProductive = runTime − performanceLoss −
 * qualityLoss; fullyProductive / plannedProductionTime = the OEE shown.
 */
export interface WaterfallStep {
  key: (typeof WATERFALL_STEP_KEYS)[number];
  kind: 'total' | 'loss';
  ms: number;
  /** availabilityLoss / plannedDowntime: one step per downtime reason ('setup', 'uncategorized' or a reason id). */
  reasonId?: string;
  /** The reason's display name, when reasonId is set. */
  reasonName?: string;
  /** What a bar opens: the records behind it, for the range and the one machine when drilled in. */
  link?: { report: 'downtime' | 'cycles' | 'quality'; reasonId?: string };
}

export interface OeeReportResponse {
  range: { start: number; end: number };
  interval: ReportIntervalUnit;
  shiftFiltered: boolean;
  efficiency: Efficiency;
  intervals: Array<ReportIntervalRef & { efficiency: Efficiency }>;
  waterfall: WaterfallStep[];
  recomputing: RecomputingMachine[];
}
