import { assign, setup } from 'xstate';
import { UNDERLAY_AUTO_EXPAND_MS, UNDERLAY_DELAY_MS } from './underlayTiming';

// The downtime underlay (live-operations §2): it appears a while after the machine goes down, expands by itself
// once the downtime has lasted long enough, collapses when the downtime ends quickly, and closes 5000 ms after
// a reason was saved. The delay and the auto-expand duration are company settings (decision 1087); these are their
// defaults before the company flags were first read (decision 0708).

export { UNDERLAY_AUTO_EXPAND_MS, UNDERLAY_DELAY_MS };
export const UNDERLAY_AUTO_CLOSE_MS = 5000;

export interface UnderlayContext {
  /** Start of the downtime the underlay is about (epoch ms); null before the first DOWN. */
  start: number | null;
  /** How long the downtime had lasted when it was reported. */
  elapsedAtDown: number;
  downAt: number;
  now: () => number;
  delayMs: number;
  autoExpandMs: number;
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
    input: {} as { now?: () => number; delayMs?: number; autoExpandMs?: number } | undefined,
  },
  delays: {
    appear: ({ context }) => Math.max(0, context.delayMs - context.elapsedAtDown),
    autoExpand: ({ context }) =>
      Math.max(0, context.autoExpandMs - context.elapsedAtDown - (context.now() - context.downAt)),
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
    delayMs: input?.delayMs ?? UNDERLAY_DELAY_MS,
    autoExpandMs: input?.autoExpandMs ?? UNDERLAY_AUTO_EXPAND_MS,
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
