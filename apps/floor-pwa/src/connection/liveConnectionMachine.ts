import { t } from '@takt/ui';
import { assign, fromCallback, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { backoffDelay } from '../offline/backoff';

// live-operations §4 "Offline and version": a live-channel reconnect failure shows the offline toast with an
// exponential-backoff countdown (tick 1 s); its button reads "Reconnecting...", then "Reconnected!" or
// "Failed to reconnect"; reconnect clicks are debounced 1000 ms; the toast closes 2 s after reconnecting.

export const RECONNECT_DEBOUNCE_MS = 1000;
export const RECONNECTED_CLOSE_MS = 2000;

export type SocketEvent = { type: 'OPENED' } | { type: 'CLOSED' };
export type LiveConnectionEvent = SocketEvent | { type: 'RECONNECT' };

export interface LiveConnectionContext {
  failures: number;
  retryAt: number | null;
  /** The offline toast is up (a reconnect failed and the channel has not been back for 2 s yet). */
  toast: boolean;
  now: () => number;
}

export const liveConnectionMachine = setup({
  types: {
    context: {} as LiveConnectionContext,
    events: {} as LiveConnectionEvent,
    input: {} as { now?: () => number } | undefined,
  },
  actors: {
    // The real one (liveSocket.ts) opens the WebSocket and reports OPENED / CLOSED; tests swap it.
    socket: fromCallback<LiveConnectionEvent>(() => () => {}),
  },
  actions: {
    failed: assign(({ context }) => {
      const failures = context.failures + 1;
      return { failures, toast: true, retryAt: context.now() + backoffDelay(failures) };
    }),
    opened: assign({ failures: 0, retryAt: null }),
    hideToast: assign({ toast: false }),
  },
  delays: {
    backoff: ({ context }) => backoffDelay(context.failures),
    debounce: RECONNECT_DEBOUNCE_MS,
    closeToast: RECONNECTED_CLOSE_MS,
  },
}).createMachine({
  id: 'liveConnection',
  context: ({ input }) => ({
    failures: 0,
    retryAt: null,
    toast: false,
    now: input?.now ?? (() => Date.now()),
  }),
  initial: 'live',
  states: {
    live: {
      invoke: { src: 'socket' },
      initial: 'connecting',
      states: {
        connecting: {
          on: { OPENED: { target: 'connected', actions: 'opened' } },
        },
        connected: {
          initial: 'recovering',
          states: {
            recovering: {
              always: { guard: ({ context }) => !context.toast, target: 'steady' },
              after: { closeToast: { target: 'steady', actions: 'hideToast' } },
            },
            steady: {},
          },
          // A channel that was up drops: try again at once, quietly; the toast waits for a failed retry.
          on: { CLOSED: { target: '#liveConnection.retrying' } },
        },
      },
      on: { CLOSED: { target: 'waiting', actions: 'failed' } },
    },
    retrying: {
      always: 'live',
    },
    waiting: {
      initial: 'idle',
      states: {
        idle: { on: { RECONNECT: 'debouncing' } },
        // Clicks restart the wait: only the last one of a burst reconnects.
        debouncing: {
          on: { RECONNECT: { target: 'debouncing', reenter: true } },
          after: { debounce: '#liveConnection.live' },
        },
      },
      after: { backoff: 'live' },
    },
  },
});

/** Where a reconnect stands; the toast's words and tone follow from it, never the other way round. */
export type ReconnectPhase = 'reconnecting' | 'reconnected' | 'failed';

/**
 * The button's words (live-operations §4 "Reconnecting...", then "Reconnected!" or "Failed to reconnect"),
 * through the message catalogue (UI.md "Both").
 */
export function reconnectLabelText(phase: ReconnectPhase): string {
  switch (phase) {
    case 'reconnecting':
      return t('offline.reconnecting');
    case 'reconnected':
      return t('offline.reconnected');
    case 'failed':
      return t('offline.failed');
  }
}

/** What the offline toast shows for a machine state, or null when it is closed. */
export function offlineToastView(
  state: SnapshotFrom<typeof liveConnectionMachine>,
): { phase: ReconnectPhase; canReconnect: boolean; retryAt: number | null } | null {
  if (!state.context.toast) return null;
  if (state.matches({ live: 'connected' }))
    return { phase: 'reconnected', canReconnect: false, retryAt: null };
  if (state.matches({ live: 'connecting' }) || state.matches({ waiting: 'debouncing' }))
    return { phase: 'reconnecting', canReconnect: false, retryAt: null };
  return { phase: 'failed', canReconnect: true, retryAt: state.context.retryAt };
}
