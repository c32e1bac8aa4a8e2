import { z } from 'zod';
import {
  annotationSchema,
  annotationTypeSchema,
  downtimePeriodSchema,
  jobMachineSchema,
  jobSchema,
  laborActivitySetSchema,
  machineGroupSchema,
  operatorRunSchema,
  operatorSchema,
  partAdjustmentTypeSchema,
  PART_BEHAVIORS,
  setupPartsSchema,
  shiftVersionSchema,
  START_IN_SETUP_MODES,
} from '@takt/domain';
import type { ProductionRun } from '@takt/domain';
import type { listAnnotationTypes } from '../services/annotation-types';
import type {
  ChangedAnnotation,
  createAnnotations,
  listMachineAnnotations,
  saveAnnotation,
  splitDowntime,
  updateAnnotation,
} from '../services/annotations';
import type { JobRunView } from '../services/dispatch';
import type { listDowntime } from '../services/downtime';
import type { createJob, getJobView, listJobMachines, queryJobs, saveJobMachine } from '../services/jobs';
import type { getMachineGroup } from '../services/machine-groups';
import type { listOperators, OperatorRun } from '../services/operators';
import type { listPartAdjustmentTypes } from '../services/part-adjustment-types';
import type { EndSetupResult, setupParts, transitionStage } from '../services/setup';
import type { CurrentShift, listShifts, newShiftDefaults, shiftColors } from '../services/shifts';
import type { Answer } from './answer';
import { answer, ms, partsMade } from './answer';

// The answers of the live-operations and planning calls an API key may make (decision 1079), from the
// domain's entity schemas, each checked against its handler's type (answer.ts).

// ---------------------------------------------------------------------------------------------------------
// Live operations (live-operations §7)

/** A job run's figures alike in every answer that shows a run (the domain's JobRunFigures, less setuptime). */
const runFigures = {
  /** When production started: null while still in setup. */
  setupend: ms.nullable(),
  cycletime: ms,
  idealcycletime: ms,
  partcount_multiplier: z.number(),
  actualParts: z.number(),
};

/** A job run (reports-admin §3 Job schedule group) with its labor activity set. */
export const jobRunAnswer = answer<JobRunView>()(
  z.object({
    id: z.string(),
    job_id: z.string(),
    jobName: z.string(),
    machine_id: z.string(),
    startdate: ms,
    enddate: ms.nullable(),
    setupMode: z.enum(START_IN_SETUP_MODES),
    /** Seconds; null without setup. */
    setuptime: z.number().nullable(),
    ...runFigures,
    reportedParts: z.number().nullable(),
    requiredCycles: z.number().nullable(),
    partBehavior: z.enum(PART_BEHAVIORS),
    setupNote: z.string().nullable(),
    laborActivitySet: laborActivitySetSchema,
  }),
);

export const currentJobRunAnswer = jobRunAnswer.nullable();

export const setupPartsAnswer = answer<Answer<typeof setupParts>>()(setupPartsSchema);

export const stageTransitionAnswer = answer<Answer<typeof transitionStage>>()(laborActivitySetSchema);

export const endSetupAnswer = answer<EndSetupResult>()(
  z.object({
    setupParts: z.number(),
    keptParts: z.number(),
    removedParts: z.number(),
    /** The negative setup part adjustment, when parts were removed. */
    adjustmentId: z.string().nullable(),
    jobRun: jobRunAnswer,
  }),
);

export const operatorsAnswer = answer<Answer<typeof listOperators>>()(z.array(operatorSchema));
export const operatorRunAnswer = answer<OperatorRun>()(operatorRunSchema);
export const operatorRunsAnswer = z.array(operatorRunAnswer);

export const downtimeListAnswer = answer<Answer<typeof listDowntime>>()(
  z.object({
    items: z.array(
      downtimePeriodSchema.omit({ annotationType: true }).extend({
        annotationType: annotationTypeSchema
          .pick({ id: true, name: true, color: true, plannedBehavior: true, plannedLimitMs: true })
          .nullable(),
        /** The covering annotation, if any. */
        annotation: annotationSchema.nullable(),
        selectable: z.boolean(),
        short: z.boolean(),
      }),
    ),
    start: ms,
    end: ms,
  }),
);

export const splitDowntimeAnswer = answer<Answer<typeof splitDowntime>>()(
  z.object({ ended: annotationSchema, start: ms }),
);

export const annotationAnswer = answer<Answer<typeof saveAnnotation>>()(annotationSchema);
export const changedAnnotationAnswer = answer<Answer<typeof updateAnnotation>>()(annotationSchema);
export const annotationsAnswer = answer<Answer<typeof listMachineAnnotations>>()(z.array(annotationSchema));
export const bulkAnnotationsAnswer = answer<Answer<typeof createAnnotations>>()(
  z.object({ annotations: annotationsAnswer, label: z.string() }),
);
/** The annotations a change touched; `deleted` ones are gone. */
export const changedAnnotationsAnswer = answer<{ annotations: ChangedAnnotation[] }>()(
  z.object({ annotations: z.array(annotationSchema.extend({ deleted: z.boolean() })) }),
);

export const deletedAnswer = answer<{ id: string; deleted: true }>()(
  z.object({ id: z.string(), deleted: z.literal(true) }),
);

// ---------------------------------------------------------------------------------------------------------
// Planning: jobs, job machines, production runs, shifts, groups, reasons

/** A job with its job machines; `hidden` jobs are left out of the pickers. */
export const jobAnswer = answer<Answer<typeof createJob>>()(jobSchema.extend({ hidden: z.boolean() }));
export const jobViewAnswer = answer<Answer<typeof getJobView>>()(jobAnswer);
export const jobsPageAnswer = answer<Answer<typeof queryJobs>>()(
  z.object({ rows: z.array(jobAnswer), count: z.number() }),
);
export const jobMachineAnswer = answer<Answer<typeof saveJobMachine>['jobMachine']>()(jobMachineSchema);
export const jobMachinesAnswer = answer<Answer<typeof listJobMachines>>()(z.array(jobMachineAnswer));

export const productionRunAnswer = answer<ProductionRun>()(
  z.object({
    id: z.string(),
    job_id: z.string(),
    job_name: z.string(),
    machine_id: z.string(),
    machine_name: z.string(),
    startdate: ms,
    /** Null: still running. */
    enddate: ms.nullable(),
    startInSetup: z.enum(START_IN_SETUP_MODES),
    /** ms; null when the run starts without setup. */
    setuptime: z.number().nullable(),
    ...runFigures,
    partchangeovertime: ms,
    shifts: z.array(z.string()),
    laborActivities: z.array(
      z.object({
        startAt: ms,
        endAt: ms.nullable(),
        setupStageId: z.string().nullable(),
        setup: z.boolean(),
      }),
    ),
    /** Parts the run made in the range (METRICS.md §3). */
    parts: partsMade,
  }),
);
export const productionRunsAnswer = z.array(productionRunAnswer);

const shiftVersion = shiftVersionSchema.safeExtend({ effectivedate: z.string() });

export const shiftsAnswer = answer<Answer<typeof listShifts>>()(
  z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      terminated: z.boolean(),
      /** The version in force today, and the latest one. */
      current: shiftVersion.nullable(),
      latest: shiftVersion.nullable(),
      effectivedate: z.string(),
    }),
  ),
);

export const currentShiftAnswer = answer<CurrentShift | null>()(
  z.object({ id: z.string(), name: z.string(), start: ms, end: ms, shopDate: z.string() }).nullable(),
);

export const shiftColorsAnswer = answer<Answer<typeof shiftColors>>()(
  z.array(z.object({ id: z.string(), name: z.string(), color: z.string() })),
);

export const shiftDefaultsAnswer = answer<Answer<typeof newShiftDefaults>>()(
  z.object({
    name: z.string(),
    startoffsetminutes: z.number(),
    endoffsetminutes: z.number(),
    byweekday: z.array(z.number()),
    effectivedate: z.string(),
  }),
);

export const machineGroupAnswer = answer<Answer<typeof getMachineGroup>>()(machineGroupSchema);
export const machineGroupsAnswer = z.array(machineGroupAnswer);
export const annotationTypesAnswer = answer<Answer<typeof listAnnotationTypes>>()(
  z.array(annotationTypeSchema),
);
export const partAdjustmentTypesAnswer = answer<Answer<typeof listPartAdjustmentTypes>>()(
  z.array(partAdjustmentTypeSchema),
);
