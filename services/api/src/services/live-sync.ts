import type { z } from 'zod';
import {
  endSetupRequestSchema,
  jobStartRequestSchema,
  jobStopRequestSchema,
  operatorRunStartRequestSchema,
  operatorRunStopRequestSchema,
  stageTransitionRequestSchema,
} from '@takt/domain';
import type { SyncCommand } from '@takt/domain';
import { ApiError, notFound, validationError } from '../http/errors';
import { getJobRun } from '../repositories/job-runs';
import { startJob, stopJob } from './jobs';
import { startOperatorRun, stopOperatorRun } from './operators';
import { endSetup, SETUP_TEXTS, transitionStage } from './setup';
import type { SyncHandlers } from './sync';

// The offline sync's handlers for dispatch, setup and operator commands (ARCHITECTURE.md "Offline sync
// contract"): each payload is the body of the matching HTTP call, validated by that call's schema, and
// applied by the same service function at the command's occurredAt (ctx.at).

function payloadOf<S extends z.ZodType>(command: SyncCommand, schema: S): z.infer<S> {
  const parsed = schema.safeParse(command.payload);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** A command acts on the machine it names: a payload naming another machine is refused. */
function sameMachine(command: SyncCommand, machineId: string): void {
  if (machineId !== command.machineId) {
    throw new ApiError(400, 'MACHINE_MISMATCH', 'The action names a different machine than the command.', [
      {
        field: 'machineId',
        code: 'machine_mismatch',
        message: 'The action names a different machine than the command.',
      },
    ]);
  }
}

export const liveSyncHandlers: SyncHandlers = {
  start_job: async (ctx, command) => {
    const body = payloadOf(command, jobStartRequestSchema);
    sameMachine(command, body.id);
    return startJob(ctx, body);
  },
  stop_job: async (ctx, command) => {
    const body = payloadOf(command, jobStopRequestSchema);
    sameMachine(command, body.id);
    return stopJob(ctx, body);
  },
  setup_stage: async (ctx, command) => {
    const body = payloadOf(command, stageTransitionRequestSchema);
    const run = await getJobRun(ctx.scope, body.laborActivitySetId);
    if (!run) throw notFound('Labor activity set');
    sameMachine(command, run.machineId);
    return transitionStage(ctx, body);
  },
  start_production: async (ctx, command) => {
    let body: z.infer<typeof endSetupRequestSchema>;
    try {
      body = payloadOf(command, endSetupRequestSchema);
    } catch (e) {
      // live-operations §8: a refused number of parts to keep asks the operator to re-submit it.
      if (e instanceof ApiError && e.issues?.some((i) => i.field === 'keptParts')) {
        throw new ApiError(400, e.code, SETUP_TEXTS.partRemovalFailed, e.issues);
      }
      throw e;
    }
    sameMachine(command, body.machineId);
    return endSetup(ctx, body);
  },
  operator_login: async (ctx, command) => {
    const body = payloadOf(command, operatorRunStartRequestSchema);
    sameMachine(command, body.machineId);
    return startOperatorRun(ctx, body);
  },
  operator_logout: async (ctx, command) => {
    const body = payloadOf(command, operatorRunStopRequestSchema);
    sameMachine(command, body.machineId);
    return stopOperatorRun(ctx, body);
  },
};
