import { z } from 'zod';
import { MAX_CYCLE_TIME_MS, NO_STANDARD_MS } from '@takt/domain';

// Cycle-time standards as a client sends them (decision 0998; live-operations §5 cycle-time inputs, §9 cycle
// times in ms): whole milliseconds up to 7 days. The expected cycle time, when given, is more than 0 (the
// parts goal divides by it); null says "no standard" and is stored as 0. An ideal cycle time of 0 keeps
// meaning "no standard" (METRICS.md §3), as the API has always documented and the run editor sends back.

const MAX_TEXT = '7 days (604,800,000 ms)';

const cycleTimeMs = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number of milliseconds`)
    .max(MAX_CYCLE_TIME_MS, `${label} must be at most ${MAX_TEXT}`);

/** The expected cycle time: 1 ms to 7 days (0 is refused; where null is allowed it says "no standard"). */
export const expectedCycleTimeField = (label = 'Expected cycle time') =>
  cycleTimeMs(label).min(1, `${label} must be more than 0 ms`);

/** The ideal cycle time: 0 (no standard) to 7 days. */
export const idealCycleTimeField = (label = 'Ideal cycle time') =>
  cycleTimeMs(label).min(0, `${label} must not be negative`);

/** A standard that may be null (no standard), stored as 0. */
export const orNoStandard = <S extends z.ZodType<number>>(field: S) =>
  field.nullable().transform((v) => v ?? NO_STANDARD_MS);
