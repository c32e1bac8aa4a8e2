import { EARLIEST_TIME_MS, SYNC_MAX_FUTURE_MS } from '@takt/domain';
import type { SyncBatch, SyncCommand, SyncCommandType, SyncError, SyncOutcome } from '@takt/domain';
import type { z } from 'zod';
import type { CompanyScope } from '@takt/db';
import type { Caller } from '../http/context';
import { ApiError, invalidInput, validationError } from '../http/errors';
import { timeWindowIssues } from '../http/time-bounds';
import type { LiveBus, LiveEvent } from '../live/bus';
import type { SyncCommandRow } from '../repositories/sync';
import { findSyncCommand, insertSyncCommand, setSyncCommandResult } from '../repositories/sync';
import type { ServiceCtx } from './context';

/** A command dated before the floor of decision 0980. */
export const OCCURRED_TOO_EARLY = 'The action is dated before 2014-04-01; check the tablet clock.';

/** Applies one command's payload; throws ApiError (with the spec's text) to reject it. */
export type SyncHandler = (ctx: ServiceCtx, command: SyncCommand) => Promise<unknown>;
export type SyncHandlers = Partial<Record<SyncCommandType, SyncHandler>>;

/** A command's payload is the body of the matching HTTP call, validated by that call's schema. */
export function payloadOf<S extends z.ZodType>(command: SyncCommand, schema: S): z.infer<S> {
  const parsed = schema.safeParse(command.payload);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** A command acts on the machine it names: a payload naming another machine is refused. */
export function sameMachine(command: SyncCommand, machineId: string): void {
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

/**
 * The usual handler: the payload validated by `schema`, refused when it names another machine than the
 * command (`machineOf`), then applied by the HTTP call's own service function.
 */
export function machineCommand<S extends z.ZodType>(
  schema: S,
  machineOf: (body: z.infer<S>) => string,
  apply: (ctx: ServiceCtx, body: z.infer<S>) => Promise<unknown>,
): SyncHandler {
  return async (ctx, command) => {
    const body = payloadOf(command, schema);
    sameMachine(command, machineOf(body));
    return apply(ctx, body);
  };
}

const TOPIC: Record<SyncCommandType, LiveEvent['topic']> = {
  start_job: 'jobs',
  stop_job: 'jobs',
  setup_stage: 'jobs',
  start_production: 'jobs',
  categorize_downtime: 'annotations',
  split_downtime: 'annotations',
  reject_part: 'parts',
  part_correction: 'parts',
  manual_add_part: 'parts',
  manual_undo: 'parts',
  operator_login: 'operators',
  operator_logout: 'operators',
};

const toSyncError = (e: ApiError): SyncError => ({
  code: e.code,
  message: e.message,
  ...(e.issues ? { issues: e.issues } : {}),
});

/**
 * The first answer to this command id in the caller's company. Ids are the clients' own, so they are keyed by
 * (company_id, id) (migration 0009): another company's command with the same id is neither found here nor
 * in the way of this company's insert, and nothing tells a company that another one used an id.
 */
async function previousAnswer(scope: CompanyScope, id: string): Promise<SyncOutcome | null> {
  const row = await findSyncCommand(scope, id);
  if (!row) return null;
  const stored = row.result == null ? undefined : (JSON.parse(row.result) as unknown);
  return row.status === 'applied'
    ? { id, status: 'duplicate', first: 'applied', result: stored }
    : { id, status: 'duplicate', first: 'rejected', error: stored as SyncError };
}

/**
 * Apply a batch in order, each command in its own transaction, keyed by its id: a repeat answers the first
 * result and changes nothing (at-least-once delivery from the tablet, exactly-once effect). Facts are
 * recorded at the command's occurredAt. A rejected command is remembered too, so a redelivery gets the same
 * answer; a server failure is not remembered, so the outbox may retry it.
 */
export async function applySyncBatch(
  input: {
    scope: CompanyScope;
    caller: Caller;
    now: number;
    bus: LiveBus;
    handlers: SyncHandlers;
    /** A command refused for a time outside the window (decision 0980), for the metrics. */
    onTimeRefused?: () => void;
  },
  batch: SyncBatch,
): Promise<SyncOutcome[]> {
  const { scope, caller, now, bus, handlers } = input;
  const outcomes: SyncOutcome[] = [];
  for (const command of batch.commands) {
    const seen = await previousAnswer(scope, command.id);
    if (seen) {
      outcomes.push(seen);
      continue;
    }
    const row: Omit<SyncCommandRow, 'status' | 'result'> = {
      id: command.id,
      machine_id: command.machineId,
      type: command.type,
      occurred_at: command.occurredAt,
      received_at: now,
      caller: caller.user.id,
    };
    try {
      if (command.occurredAt > now + SYNC_MAX_FUTURE_MS) {
        throw new ApiError(
          400,
          'OCCURRED_IN_FUTURE',
          'The action is dated in the future; check the tablet clock.',
        );
      }
      // Decision 0980: an action dated before the floor (a tablet clock at 1970) is refused, not recorded, and
      // so is a payload whose times are outside the window (the HTTP calls refuse the same bodies).
      if (command.occurredAt < EARLIEST_TIME_MS) {
        input.onTimeRefused?.();
        throw new ApiError(400, 'OCCURRED_TOO_EARLY', OCCURRED_TOO_EARLY, [
          { field: 'occurredAt', code: 'too_small', message: OCCURRED_TOO_EARLY },
        ]);
      }
      const outOfWindow = timeWindowIssues(command.payload, now, { span: false });
      if (outOfWindow.length > 0) {
        input.onTimeRefused?.();
        throw invalidInput(outOfWindow);
      }
      const handler = handlers[command.type];
      if (!handler)
        throw new ApiError(400, 'UNSUPPORTED_COMMAND', `The server cannot apply "${command.type}" yet.`);
      const result = await scope.transaction(async (tx) => {
        // The log row first: a concurrent redelivery of the same id (same company: the key is company_id, id)
        // waits here, then fails and rolls back. The scope sets company_id on the insert and the update.
        await insertSyncCommand(tx, { ...row, status: 'applied', result: null });
        const value = await handler({ scope: tx, at: command.occurredAt, now, caller }, command);
        await setSyncCommandResult(tx, command.id, value === undefined ? null : JSON.stringify(value));
        return value;
      });
      outcomes.push({ id: command.id, status: 'applied', result: result ?? null });
      await bus
        .publish([{ companyId: scope.companyId, machineId: command.machineId, topic: TOPIC[command.type] }])
        .catch(() => {});
    } catch (err) {
      const again = await previousAnswer(scope, command.id).catch(() => null);
      if (again) {
        outcomes.push(again); // lost a race with a redelivery of the same command
      } else if (err instanceof ApiError && err.status < 500) {
        const error = toSyncError(err);
        await insertSyncCommand(scope, { ...row, status: 'rejected', result: JSON.stringify(error) }).catch(
          () => {},
        );
        outcomes.push({ id: command.id, status: 'rejected', error });
      } else {
        console.error(`[sync] ${command.type} ${command.id} failed:`, err);
        outcomes.push({
          id: command.id,
          status: 'error',
          error: { code: 'INTERNAL', message: 'An error occurred with your request.' },
        });
      }
    }
  }
  return outcomes;
}
