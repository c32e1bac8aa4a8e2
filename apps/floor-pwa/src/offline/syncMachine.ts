import { ApiError } from '@takt/ui';
import { assign, fromPromise, setup } from 'xstate';
import { backoffDelay } from './backoff';

// The sync loop (ARCHITECTURE.md "Offline sync contract"): push the outbox in batches, then
// pull the machine's data again; offline and server failures back off 4 s doubling to 60 s; a 401 reloads
// the page (live-operations §8). The actors are named so tests swap them with .provide().

export interface PushResult {
  /** Commands posted in this round (0: the outbox had nothing sendable). */
  sent: number;
  /** The outbox still holds sendable commands (more than one batch, or references just resolved). */
  more: boolean;
  /** Commands the server failed on ('error' outcomes): retried after a backoff. */
  serverErrors: number;
}

export interface SyncContext {
  /** Failed rounds in a row; the backoff grows with it. */
  failures: number;
  /** Client time of the next automatic retry while offline or in error, for the countdown. */
  retryAt: number | null;
  lastError: string | null;
  /** Something was queued while a round was running: push again when it ends. */
  dirty: boolean;
  /** A pull was asked for (a machine opened, the live channel said reinit) while busy: pull when free. */
  pullWanted: boolean;
  now: () => number;
}

export type SyncEvent =
  { type: 'ENQUEUED' } | { type: 'ONLINE' } | { type: 'OFFLINE' } | { type: 'RETRY' } | { type: 'PULL' };

/** How often reference data is pulled again while nothing else happens. */
export const PULL_INTERVAL_MS = 60_000;

const isUnauthorized = (e: unknown) => e instanceof ApiError && e.status === 401;
const isNetwork = (e: unknown) => e instanceof ApiError && e.isNetworkError;
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** While pushing or pulling: a new command or a pull request is remembered for after; going offline stops. */
const WHILE_EXCHANGING = {
  ENQUEUED: { actions: 'markDirty' },
  PULL: { actions: 'wantPull' },
  OFFLINE: { target: 'offline', actions: { type: 'fail', params: { error: null } } },
} as const;

type FailedEvent = { event: { error: unknown } };

/** A failed push or pull: a 401 reloads the page; a network failure goes offline and backs off. */
const LINK_FAILURES = [
  {
    guard: { type: 'unauthorized', params: ({ event }: FailedEvent) => ({ error: event.error }) },
    target: 'reloading',
  },
  {
    guard: { type: 'network', params: ({ event }: FailedEvent) => ({ error: event.error }) },
    target: 'offline',
    actions: { type: 'fail', params: ({ event }: FailedEvent) => ({ error: messageOf(event.error) }) },
  },
] as const;

export const syncMachine = setup({
  types: {
    context: {} as SyncContext,
    events: {} as SyncEvent,
    input: {} as { now?: () => number } | undefined,
  },
  actors: {
    push: fromPromise<PushResult>(async () => ({ sent: 0, more: false, serverErrors: 0 })),
    pull: fromPromise<void>(async () => {}),
  },
  actions: {
    reload: () => globalThis.location.reload(),
    markDirty: assign({ dirty: true }),
    wantPull: assign({ pullWanted: true }),
    clearPull: assign({ pullWanted: false }),
    clearDirty: assign({ dirty: false }),
    settle: assign({ failures: 0, retryAt: null, lastError: null }),
    fail: assign(({ context }, params: { error: string | null }) => {
      const failures = context.failures + 1;
      return { failures, retryAt: context.now() + backoffDelay(failures), lastError: params.error };
    }),
  },
  guards: {
    unauthorized: (_, params: { error: unknown }) => isUnauthorized(params.error),
    network: (_, params: { error: unknown }) => isNetwork(params.error),
  },
  delays: {
    backoff: ({ context }) => backoffDelay(context.failures),
    pullInterval: PULL_INTERVAL_MS,
  },
}).createMachine({
  id: 'sync',
  context: ({ input }) => ({
    failures: 0,
    retryAt: null,
    lastError: null,
    dirty: false,
    pullWanted: false,
    now: input?.now ?? (() => Date.now()),
  }),
  initial: 'pushing',
  states: {
    pushing: {
      entry: 'clearDirty',
      on: WHILE_EXCHANGING,
      invoke: {
        src: 'push',
        onDone: [
          {
            guard: ({ event }) => event.output.serverErrors > 0,
            target: 'error',
            actions: { type: 'fail', params: { error: 'An error occurred with your request.' } },
          },
          // A round the server answered ends the run of failed rounds: the next failure backs off from 4 s again.
          {
            guard: ({ event, context }) => event.output.more || context.dirty,
            target: 'pushing',
            reenter: true,
            actions: 'settle',
          },
          {
            guard: ({ event, context }) => event.output.sent > 0 || context.pullWanted,
            target: 'pulling',
            actions: 'settle',
          },
          { target: 'inSync' },
        ],
        onError: [
          ...LINK_FAILURES,
          {
            target: 'error',
            actions: { type: 'fail', params: ({ event }) => ({ error: messageOf(event.error) }) },
          },
        ],
      },
    },
    pulling: {
      entry: 'clearPull',
      on: WHILE_EXCHANGING,
      invoke: {
        src: 'pull',
        // A pull asked for while this one ran (a machine opened while the page's first pull, for no machine or
        // the previous one, was on its way) runs next: left for the minute's pull, the workcenter showed no run.
        onDone: [
          { guard: ({ context }) => context.dirty, target: 'pushing' },
          { guard: ({ context }) => context.pullWanted, target: 'pulling', reenter: true },
          { target: 'inSync' },
        ],
        onError: [
          ...LINK_FAILURES,
          // A failed pull keeps the cached data on screen; nothing queued is at risk, so no error state.
          { target: 'inSync' },
        ],
      },
    },
    inSync: {
      entry: 'settle',
      on: {
        ENQUEUED: 'pushing',
        PULL: 'pulling',
        RETRY: 'pushing',
        ONLINE: 'pushing',
        OFFLINE: { target: 'offline', actions: { type: 'fail', params: { error: null } } },
      },
      after: { pullInterval: 'pulling' },
    },
    offline: {
      on: { ONLINE: 'pushing', RETRY: 'pushing', PULL: { target: 'pushing', actions: 'wantPull' } },
      after: { backoff: 'pushing' },
    },
    error: {
      on: { RETRY: 'pushing', ONLINE: 'pushing', OFFLINE: 'offline', PULL: { actions: 'wantPull' } },
      after: { backoff: 'pushing' },
    },
    reloading: { type: 'final', entry: 'reload' },
  },
});

export { syncStatusOf } from './syncStatus';
