import type { z } from 'zod';
import {
  endSetupRequestSchema,
  jobStartRequestSchema,
  jobStopRequestSchema,
  operatorRunStartRequestSchema,
  operatorRunStopRequestSchema,
  stageTransitionRequestSchema,
} from '@takt/domain';
import { ApiError, notFound } from '../http/errors';
import { getJobRun } from '../repositories/dispatch';
import { startJob, stopJob } from './dispatch';
import { startOperatorRun, stopOperatorRun } from './operators';
import { endSetup, SETUP_TEXTS, transitionStage } from './setup';
import { machineCommand, payloadOf, sameMachine } from './sync';
import type { SyncHandlers } from './sync';

// The offline sync's handlers for dispatch, setup and operator commands (ARCHITECTURE.md "Offline sync
// contract"): each payload is the body of the matching HTTP call, validated by that call's schema, and
// applied by the same service function at the command's occurredAt (ctx.at).

export const liveSyncHandlers: SyncHandlers = {
  start_job: machineCommand(jobStartRequestSchema, (b) => b.id, startJob),
  stop_job: machineCommand(jobStopRequestSchema, (b) => b.id, stopJob),
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
  operator_login: machineCommand(operatorRunStartRequestSchema, (b) => b.machineId, startOperatorRun),
  operator_logout: machineCommand(operatorRunStopRequestSchema, (b) => b.machineId, stopOperatorRun),
};
