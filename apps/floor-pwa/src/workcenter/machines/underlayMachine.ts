import { assign, setup } from 'xstate';

// The downtime underlay (live-operations §2): it appears a while after the machine goes down, expands by itself
// once the downtime has lasted long enough, collapses when the downtime ends quickly, and closes 5000 ms after
// a reason was saved. The two durations are company settings the API does not serve yet; these are defaults.

export const UNDERLAY_DELAY_MS = 30_000;
export const UNDERLAY_AUTO_EXPAND_MS = 5 * 60_000;
export const UNDERLAY_AUTO_CLOSE_MS = 5000;

export interface UnderlayContext {
  /** How long the downtime had lasted when it was reported. */
  elapsedAtDown: number;
  downAt: number;
  now: () => number;
}

export type UnderlayEvent =
  | { type: 'DOWN'; elapsedMs: number }
  | { type: 'UP' }
  | { type: 'EXPAND' }
  | { type: 'COLLAPSE' }
  | { type: 'SAVED' };

export const underlayMachine = setup({
  types: {
    context: {} as UnderlayContext,
    events: {} as UnderlayEvent,
    input: {} as { now?: () => number } | undefined,
  },
  delays: {
    appear: ({ context }) => Math.max(0, UNDERLAY_DELAY_MS - context.elapsedAtDown),
    autoExpand: ({ context }) =>
      Math.max(0, UNDERLAY_AUTO_EXPAND_MS - context.elapsedAtDown - (context.now() - context.downAt)),
    autoClose: UNDERLAY_AUTO_CLOSE_MS,
  },
}).createMachine({
  id: 'underlay',
  context: ({ input }) => ({ elapsedAtDown: 0, downAt: 0, now: input?.now ?? (() => Date.now()) }),
  initial: 'hidden',
  states: {
    hidden: {
      on: {
        DOWN: {
          target: 'waiting',
          actions: assign(({ context, event }) => ({
            elapsedAtDown: event.elapsedMs,
            downAt: context.now(),
          })),
        },
      },
    },
    waiting: {
      after: { appear: 'collapsed' },
      on: { UP: 'hidden' },
    },
    collapsed: {
      after: { autoExpand: 'expanded' },
      on: { EXPAND: 'expanded', UP: 'hidden', SAVED: 'closing' },
    },
    expanded: {
      // Expanded by the operator or by time: a quick end of the downtime folds it away.
      on: { COLLAPSE: 'collapsed', UP: 'hidden', SAVED: 'closing' },
    },
    closing: {
      after: { autoClose: 'hidden' },
      on: { DOWN: undefined },
    },
  },
});
