import { z } from 'zod';

// The test screen for simulated execution (live-operations §2 "Test screen for simulated execution"; decision
// 1100): an admin drives a machine without a real data source through the ingest path, one action a request.

/** The execution values the screen sets (MTConnect Execution), UNAVAILABLE being the simulated adapter stopping. */
export const SIMULATED_EXECUTIONS = [
  'ACTIVE',
  'READY',
  'STOPPED',
  'INTERRUPTED',
  'FEED_HOLD',
  'UNAVAILABLE',
] as const;
export type SimulatedExecution = (typeof SIMULATED_EXECUTIONS)[number];

/** Bounds of what one request may send (decision 1100). */
export const SIMULATION_LIMITS = {
  /** Parts added by one "+n". */
  maxParts: 1000,
  programLength: 100,
  faultMessageLength: 200,
  nativeCodeLength: 32,
  /** Automatic cycles: a cycle every 5 s to 10 min, for at most 60 min and 720 cycles. */
  minCycleSeconds: 5,
  maxCycleSeconds: 600,
  maxCycleMinutes: 60,
} as const;

/** A value written into an SHDR line: `|` separates fields and a line break ends the line, so neither may be in it. */
const lineText = (max: number, what: string) =>
  z
    .string()
    .trim()
    .min(1, `${what} is required`)
    .max(max, `${what} must be at most ${max} characters`)
    .refine((v) => !/[|\p{Cc}]/u.test(v), `${what} may not contain | or control characters`);

export const simulationActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('execution'), value: z.enum(SIMULATED_EXECUTIONS) }).strict(),
  z
    .object({ type: z.literal('program'), name: lineText(SIMULATION_LIMITS.programLength, 'Program') })
    .strict(),
  z
    .object({
      type: z.literal('parts'),
      count: z
        .number()
        .int('Parts must be a whole number')
        .min(1, 'Parts must be from 1 to 1000')
        .max(SIMULATION_LIMITS.maxParts, 'Parts must be from 1 to 1000'),
    })
    .strict(),
  z
    .object({
      type: z.literal('fault'),
      message: lineText(SIMULATION_LIMITS.faultMessageLength, 'Message'),
      nativeCode: z
        .string()
        .trim()
        .max(SIMULATION_LIMITS.nativeCodeLength, 'Code must be at most 32 characters')
        .refine((v) => !/[|\p{Cc}]/u.test(v), 'Code may not contain | or control characters')
        .optional(),
    })
    .strict(),
  z.object({ type: z.literal('clearFault') }).strict(),
  z
    .object({
      type: z.literal('cycles'),
      everySeconds: z
        .number()
        .int('The cycle time must be whole seconds')
        .min(SIMULATION_LIMITS.minCycleSeconds, 'A cycle every 5 to 600 seconds')
        .max(SIMULATION_LIMITS.maxCycleSeconds, 'A cycle every 5 to 600 seconds'),
      minutes: z
        .number()
        .int('Minutes must be a whole number')
        .min(1, 'Run cycles for 1 to 60 minutes')
        .max(SIMULATION_LIMITS.maxCycleMinutes, 'Run cycles for 1 to 60 minutes'),
    })
    .strict(),
  z.object({ type: z.literal('stopCycles') }).strict(),
]);
export type SimulationAction = z.infer<typeof simulationActionSchema>;

/** The SHDR keys the simulation writes, from the machine's adapter; null where it maps no such item. */
export const simulationKeysSchema = z.object({
  execution: z.string().nullable(),
  availability: z.string().nullable(),
  program: z.string().nullable(),
  partCount: z.string().nullable(),
  condition: z.string().nullable(),
});
export type SimulationKeys = z.infer<typeof simulationKeysSchema>;

/** GET/POST/DELETE /api/machines/:id/simulation: the machine's simulation as the screen shows it. */
export const simulationStateSchema = z.object({
  machineId: z.string(),
  machineName: z.string(),
  /** Why the machine cannot be simulated (the 409's words), null when it can. */
  refusal: z.string().nullable(),
  /** The machine's data source is the simulator. */
  active: z.boolean(),
  keys: simulationKeysSchema,
  /** What the simulation last sent, from the stored observations (null: nothing yet). */
  execution: z.string().nullable(),
  program: z.string().nullable(),
  partCount: z.number().nullable(),
  fault: z.object({ message: z.string(), nativeCode: z.string() }).nullable(),
  lastLineAt: z.number().nullable(),
  /** Automatic cycles under way: a cycle every `everySeconds` until `until`. */
  cycles: z.object({ everySeconds: z.number(), until: z.number(), nextAt: z.number() }).nullable(),
});
export type SimulationState = z.infer<typeof simulationStateSchema>;
