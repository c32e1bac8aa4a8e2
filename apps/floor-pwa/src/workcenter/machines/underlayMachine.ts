import { assign, setup } from 'xstate';

// The downtime underlay (live-operations §2): it appears a while after the machine goes down, expands by itself
// once the downtime has lasted long enough, collapses when the downtime ends quickly, and closes 5000 ms after
// a reason was saved. The two durations are settings the API does not serve yet; these are defaults (decision 0708).

export const UNDERLAY_DELAY_MS = 30_000;
export const UNDERLAY_AUTO_EXPAND_MS = 5 * 60_000;
export const UNDERLAY_AUTO_CLOSE_MS = 5000;

export interface UnderlayContext {
  /** Start of the downtime the underlay is about (epoch ms); null before the first DOWN. */
  start: number | null;
  /** How long the downtime had lasted when it was reported. */
  elapsedAtDown: number;
  downAt: number;
  now: () => number;
}

export type UnderlayEvent =
  | { type: 'DOWN'; start: number; elapsedMs: number }
  | { type: 'UP' }
  | { type: 'EXPAND' }
  | { type: 'COLLAPSE' }
  | { type: 'SAVED' };

/** Whether the underlay is on screen in this state (waiting and settled keep it away). */
export const underlayShown = (state: string) =>
  state === 'collapsed' || state === 'expanded' || state === 'closing';

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
  guards: {
    newDowntime: ({ context, event }) => event.type === 'DOWN' && event.start !== context.start,
  },
  actions: {
    track: assign(({ context, event }) =>
      event.type === 'DOWN'
        ? { start: event.start, elapsedAtDown: event.elapsedMs, downAt: context.now() }
        : {},
    ),
  },
}).createMachine({
  id: 'underlay',
  context: ({ input }) => ({
    start: null,
    elapsedAtDown: 0,
    downAt: 0,
    now: input?.now ?? (() => Date.now()),
  }),
  initial: 'hidden',
  states: {
    hidden: {
      on: { DOWN: { target: 'waiting', actions: 'track' } },
    },
    waiting: {
      after: { appear: 'collapsed' },
      // A reason known before the underlay appears (categorized from the list during the delay, or already
      // categorized on reload or machine switch): the underlay exists to categorize the live downtime and the
      // 5000 ms auto-close confirms a save made in it, so there is nothing to show. It stays away for this
      // downtime; only a new downtime starts the flow again.
      on: {
        UP: 'hidden',
        SAVED: 'settled',
        DOWN: { guard: 'newDowntime', target: 'waiting', reenter: true, actions: 'track' },
      },
    },
    settled: {
      on: { UP: 'hidden', DOWN: { guard: 'newDowntime', target: 'waiting', actions: 'track' } },
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
      after: { autoClose: 'settled' },
      // A new downtime starting within the 5 s after a save gets its own underlay flow.
      on: { DOWN: { guard: 'newDowntime', target: 'waiting', actions: 'track' } },
    },
  },
});
