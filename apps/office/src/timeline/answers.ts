import { arrayOf, boolean, nullable, number, object, oneOf, optional, parseWith, string } from '@takt/ui';
import { recomputingCheck } from '../reports/shared';

// The machine timeline's answers (reports-admin §2 "Machine timeline", §7): GET /api/reports/operation,
// /api/reports/subprograms, GET /api/downtime and the reasons, checked as they arrive (split from model.ts).

// ---- Answers

const laneTimes = { start: number, end: nullable(number) };
const operationCheck = object({
  range: object({ start: number, end: number }),
  cycleEvents: arrayOf(object({ value: string, ...laneTimes })),
  programs: arrayOf(object({ name: string, ...laneTimes })),
  parts: arrayOf(
    object({
      start: number,
      duration: optional(number),
      parts: number,
      expectedCycleTime: number,
      setup: optional(boolean),
    }),
  ),
  runs: arrayOf(
    object({ jobId: string, jobName: string, start: number, end: nullable(number), jsgId: string }),
  ),
  activities: optional(
    arrayOf(
      object({
        activityRef: string,
        activityTypeName: string,
        jobName: string,
        activityMode: string,
        startAt: number,
        endAt: nullable(number),
      }),
    ),
  ),
  faults: arrayOf(
    object({
      start: number,
      end: nullable(number),
      duration: number,
      value: string,
      nativecode: nullable(string),
      type: nullable(string),
    }),
  ),
  hasSubprogram: boolean,
  /**
   * METRICS.md §1 (decision 1012): where the machine's monitored life starts (blank before it: not monitored)
   * and its No data spans.
   */
  monitoredFrom: nullable(number),
  noData: arrayOf(object(laneTimes)),
  /** The machine, while its figures in the range are being recomputed (decision 1004). */
  recomputing: recomputingCheck,
});
export type OperationAnswer = ReturnType<typeof operationCheck>;
export const parseOperation = parseWith(operationCheck);

const subprogramsCheck = object({
  range: object({ start: number, end: number }),
  subprograms: arrayOf(object({ name: string, ...laneTimes })),
});
export type SubprogramsAnswer = ReturnType<typeof subprogramsCheck>;
export const parseSubprograms = parseWith(subprogramsCheck);

const downtimeCheck = object({
  items: arrayOf(
    object({
      start: number,
      end: nullable(number),
      duration: number,
      isEndSet: boolean,
      reason: nullable(string),
      color: nullable(string),
      message: nullable(string),
      planned: nullable(boolean),
      setup: boolean,
      /** A No data piece of a period (decision 1060); optional: an older server does not send it. */
      noData: optional(boolean),
      annotationType: nullable(object({ id: string, name: string, color: string, plannedBehavior: string })),
      annotation: nullable(
        object({
          id: string,
          start: number,
          end: nullable(number),
          category_id: nullable(string),
          message: nullable(string),
          planned: nullable(boolean),
          setup: boolean,
          activesetup: boolean,
        }),
      ),
    }),
  ),
});
export type DowntimeAnswer = ReturnType<typeof downtimeCheck>;
export type DowntimeRow = DowntimeAnswer['items'][number];
export const parseDowntime = parseWith(downtimeCheck);

const reasonsCheck = arrayOf(
  object({
    id: string,
    name: string,
    color: string,
    plannedBehavior: oneOf(['operator', 'planned', 'unplanned', 'plannedWithLimit'] as const),
    hidden: optional(boolean),
  }),
);
export type Reason = ReturnType<typeof reasonsCheck>[number];
export const parseReasons = parseWith(reasonsCheck);
