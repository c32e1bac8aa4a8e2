import { z } from 'zod';
import { annotationTypeSchema, efficiencySchema, GOAL_STATUSES, WATERFALL_STEP_KEYS } from '@takt/domain';
import type { OeeReportResponse, PartsEntry, UtilizationEntry } from '@takt/domain';
import type { CycleEntry } from '../services/dashboard';
import type { overridesReport } from '../services/overrides';
import type { cyclesReport } from '../services/report-cycles';
import type { downtimeReport } from '../services/report-downtime';
import type { partGoalsReport } from '../services/report-part-goals';
import type { subprogramsReport, timelineReport } from '../services/report-timeline';
import type { utilizationReport } from '../services/report-utilization';
import type { Answer } from './answer';
import { answer, fraction, intervalRef, intervalUnit, ms, partsMade, range, recomputing } from './answer';

// The answers of the dashboards and reports (reports-admin §7, live-operations §7; decision 1079), each
// checked against its handler's type (answer.ts). Times are epoch ms, durations ms; fractions are 0..1
// (performance above 1 allowed) and null where the apps show '-'.

/** A report interval; per-shift intervals (`interval=shift`) name their shift. */
const interval = intervalRef.extend({ shiftId: z.string().optional(), shiftName: z.string().optional() });
const reasonRef = annotationTypeSchema
  .pick({ id: true, name: true, color: true, plannedBehavior: true, plannedLimitMs: true })
  .nullable();

// ---------------------------------------------------------------------------------------------------------
// Dashboards

export const dashboardUtilizationAnswer = answer<UtilizationEntry[]>()(
  z.array(
    z.object({
      machineId: z.string(),
      start: ms,
      end: ms,
      utilization: z.number().nullable(),
      status: z.enum(['success', 'warning', 'danger', 'unavailable']),
      oee: z.number().nullable(),
      oeeStatus: z.enum(GOAL_STATUSES),
      availability: z.number().nullable(),
      performance: z.number().nullable(),
      quality: z.number().nullable(),
      missingStandards: z.boolean().optional(),
      noDataMs: ms,
    }),
  ),
);

export const dashboardPartsAnswer = answer<PartsEntry[]>()(
  z.array(
    z.object({
      machineId: z.string(),
      scheduled: z.boolean(),
      jobId: z.string().nullable(),
      jobScheduleGroupId: z.string().nullable(),
      inSetup: z.boolean(),
      setupSince: ms.nullable(),
      expectedParts: z.number().nullable(),
      actualParts: z.number().nullable(),
      percent: z.number().nullable(),
      aheadBehind: z.number().nullable(),
      productionRuntimeMs: ms,
      status: z.enum(GOAL_STATUSES),
    }),
  ),
);

export const dashboardCyclesAnswer = answer<CycleEntry[]>()(
  z.array(
    z.object({
      machineId: z.string(),
      lastCycleMs: ms.nullable(),
      lastCycleAt: ms.nullable(),
      expectedCycleMs: ms.nullable(),
      deltaMs: ms.nullable(),
    }),
  ),
);

// ---------------------------------------------------------------------------------------------------------
// /api/reports

export const partGoalsAnswer = answer<Answer<typeof partGoalsReport>>()(
  z.object({
    range,
    interval: intervalUnit,
    intervals: z.array(interval),
    machines: z.array(
      z.object({
        machineId: z.string(),
        machineName: z.string(),
        parts: z.number(),
        goal: z.number().nullable(),
        goalParts: z.number(),
        intervals: z.array(interval.extend({ parts: z.number(), goal: z.number().nullable() })),
      }),
    ),
    cacheToken: z.string(),
    recomputing,
  }),
);

const inCycle = { inCycleMs: ms, durationMs: ms, inCycle: fraction, value: z.string() };
const inCycleIntervals = z.array(interval.extend(inCycle));

export const utilizationAnswer = answer<Answer<typeof utilizationReport>>()(
  z.object({
    range,
    interval: intervalUnit,
    unit: z.enum(['hour', 'percent']),
    shiftFiltered: z.boolean(),
    intervals: z.array(interval),
    machines: z.array(
      z.object({
        machineId: z.string(),
        machineName: z.string(),
        ...inCycle,
        spindleRotating: fraction,
        inCut: fraction,
        oee: efficiencySchema,
        intervals: inCycleIntervals,
      }),
    ),
    machineAggregate: z.object({ ...inCycle, intervals: inCycleIntervals }),
    machineContextErrors: z.array(
      z.object({ machineId: z.string(), machineName: z.string(), message: z.string() }),
    ),
    cacheToken: z.string(),
    recomputing,
    InCyclePerc: z.number().nullable(),
    InCycleSeconds: z.number(),
  }),
);

export const cyclesAnswer = answer<Answer<typeof cyclesReport>>()(
  z.object({
    range,
    machineId: z.string(),
    machineName: z.string(),
    recomputing,
    parts: partsMade,
    cycles: z.array(
      z.object({
        timestamp: ms,
        start: ms,
        duration: ms,
        expectedCycleTime: ms,
        idealCycleTime: ms,
        parts: z.number(),
        scraps: z.number(),
        nonconforms: z.number(),
        setup: z.boolean(),
        job: z.object({ id: z.string(), name: z.string() }).nullable(),
      }),
    ),
  }),
);

const downtimeTally = z.object({
  count: z.number(),
  duration: ms,
  /** An annotation type id, or `uncategorized` / `nodata`. */
  reasonId: z.string(),
  annotationType: reasonRef,
});

/** One row of the Downtime report (its `items`, the timeline list's rows). */
export const downtimeRow = z.object({
  start: ms,
  end: ms,
  duration: ms,
  machineId: z.string(),
  machine: z.string(),
  reasonId: z.string(),
  reason: z.string(),
  message: z.string().nullable(),
  planned: z.boolean().nullable(),
  annotationType: reasonRef,
  /** With `activities` (the company's areActivitiesEnabled, decision 1087). */
  jobName: z.string().nullable().optional(),
  activityTypeName: z.string().nullable().optional(),
});

export const downtimeReportAnswer = answer<Omit<Answer<typeof downtimeReport>, 'periods'>>()(
  z.object({
    range,
    data: z.array(downtimeTally.extend({ reason: z.string(), minutes: z.string() })),
    summary: z.object({
      count: z.number(),
      duration: ms,
      minutes: z.string(),
      plannedDuration: ms,
      unplannedDuration: ms,
      uncategorizedDuration: ms,
      noDataDuration: ms,
    }),
    byMachine: z.array(
      z.object({ machineId: z.string(), machine: z.string(), downtime: z.array(downtimeTally) }),
    ),
    /** With `detail=true`: every period. */
    items: z.array(downtimeRow).optional(),
    recomputing,
    activities: z.boolean(),
  }),
);

const pinned = {
  start: ms,
  end: ms.nullable(),
  duration: ms,
  pinnedStart: ms,
  pinnedEnd: ms,
  pinnedDuration: ms,
};

/** A fault of the timeline's lane (and GET /api/reports/faults). */
export const faultRow = z.object({
  start: ms,
  end: ms.nullable(),
  duration: ms,
  value: z.string(),
  nativecode: z.string().nullable(),
  type: z.string().nullable(),
});

export const timelineAnswer = answer<Answer<typeof timelineReport>>()(
  z.object({
    range,
    start: ms,
    end: ms,
    recomputing,
    monitoredFrom: ms.nullable(),
    noData: z.array(z.object(pinned)),
    noDataMs: ms,
    cycleEvents: z.array(z.object({ ...pinned, value: z.string() })),
    programs: z.array(z.object({ ...pinned, name: z.string() })),
    parts: z.array(
      z.object({ start: ms, duration: ms, parts: z.number(), expectedCycleTime: ms, setup: z.boolean() }),
    ),
    runs: z.array(
      z.object({ jobId: z.string(), jobName: z.string(), start: ms, end: ms.nullable(), jsgId: z.string() }),
    ),
    activities: z.array(
      z.object({
        activityRef: z.string(),
        activitySetRef: z.string(),
        activityTypeName: z.string(),
        jobName: z.string(),
        activityMode: z.string(),
        startAt: ms,
        endAt: ms.nullable(),
      }),
    ),
    resets: z.array(
      z.object({
        resetdate: ms,
        message: z.string().nullable(),
        count: z.number(),
        account: z.object({ displayName: z.string() }),
      }),
    ),
    faults: z.array(faultRow),
    hasSubprogram: z.boolean(),
  }),
);

export const subprogramsAnswer = answer<Answer<typeof subprogramsReport>>()(
  z.object({
    range,
    recomputing,
    subprograms: z.array(z.object({ name: z.string(), start: ms, end: ms.nullable(), duration: ms })),
  }),
);

export const overridesAnswer = answer<Answer<typeof overridesReport>>()(
  z.object({
    range,
    until: ms,
    series: z.array(
      z.object({
        key: z.string(),
        dataItemType: z.string(),
        dataItemSubtype: z.string().nullable(),
        label: z.string(),
        steps: z.array(z.object({ t: ms, value: z.number().nullable() })),
        summary: z.object({
          min: z.number().nullable(),
          max: z.number().nullable(),
          mean: z.number().nullable(),
          belowMs: ms,
          aboveMs: ms,
          availableMs: ms,
        }),
      }),
    ),
  }),
);

export const oeeReportAnswer = answer<OeeReportResponse>()(
  z.object({
    range,
    interval: intervalUnit,
    shiftFiltered: z.boolean(),
    efficiency: efficiencySchema,
    intervals: z.array(intervalRef.extend({ efficiency: efficiencySchema })),
    waterfall: z.array(
      z.object({
        key: z.enum(WATERFALL_STEP_KEYS),
        kind: z.enum(['total', 'loss']),
        ms,
        reasonId: z.string().optional(),
        reasonName: z.string().optional(),
        link: z
          .object({ report: z.enum(['downtime', 'cycles', 'quality']), reasonId: z.string().optional() })
          .optional(),
      }),
    ),
    recomputing,
  }),
);
