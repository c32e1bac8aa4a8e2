import { ApiError, t } from '@takt/ui';
import { assign, fromPromise, setup } from 'xstate';
import type { JobPage, JobPageRequest, JobRow } from './jobs';

// The job picker (live-operations §2 Start Job, Job dispatch, the dashboard tiles' job picker): search with a
// debounce, pages as the list scrolls, choose a job, then start it in setup (optionally on a stage) or in
// production. Starting queues a command; a refusal to queue shows "Job could not be started" and Ok cancels
// the overlay (§8). The debounce and page size are the caller's: §9 gives the start-job overlay 500 ms and
// pages of 15, the dashboards 250 ms and at most 10 rows.

export interface JobPickerInput {
  debounceMs: number;
  pageSize: number;
}

export interface JobPickerContext extends JobPickerInput {
  filter: string;
  rows: JobRow[];
  count: number;
  cached: boolean;
  selectedId: string | null;
  error: string | null;
  /** The search failed (§8): the server's message, or "An error occurred with your request." */
  loadError: string | null;
}

export type JobPickerEvent =
  | { type: 'TYPE'; filter: string }
  | { type: 'LOAD_MORE' }
  | { type: 'SELECT'; id: string }
  | { type: 'START'; setup: boolean; stageId: string | null }
  | { type: 'OK' };

const errorText = (e: unknown) =>
  e instanceof ApiError && e.issues && Array.isArray(e.issues)
    ? (e.issues as { message?: string }[])
        .map((i) => i.message)
        .filter(Boolean)
        .join(' ') || t('startJob.failed')
    : t('startJob.failed');

/** live-operations §8: the server's message, or "An error occurred with your request." */
export const loadErrorText = (e: unknown) =>
  e instanceof ApiError && !e.isNetworkError && e.message.trim() !== ''
    ? e.message
    : t('common.requestError');

export const jobPickerMachine = setup({
  types: { context: {} as JobPickerContext, events: {} as JobPickerEvent, input: {} as JobPickerInput },
  actors: {
    loadPage: fromPromise<JobPage, JobPageRequest>(async () => ({
      rows: [],
      count: 0,
      cached: false,
    })),
    start: fromPromise<void, { job: JobRow; setup: boolean; stageId: string | null }>(async () => {}),
  },
  delays: { debounce: ({ context }) => context.debounceMs },
  guards: {
    hasMore: ({ context }) => context.rows.length < context.count,
    selected: ({ context }) => context.selectedId !== null,
  },
}).createMachine({
  id: 'jobPicker',
  context: ({ input }) => ({
    ...input,
    filter: '',
    rows: [],
    count: 0,
    cached: false,
    selectedId: null,
    error: null,
    loadError: null,
  }),
  initial: 'loading',
  on: {
    TYPE: { target: '.debouncing', actions: assign({ filter: ({ event }) => event.filter }) },
  },
  states: {
    // Taps on a row still on screen, and on a start button, count while the search waits or loads
    // (operators never lose a tap); the new page keeps the choice when the job is still in it.
    debouncing: {
      after: { debounce: 'loading' },
      on: {
        SELECT: { actions: assign({ selectedId: ({ event }) => event.id }) },
        START: { guard: 'selected', target: 'starting' },
      },
    },
    loading: {
      on: {
        SELECT: { actions: assign({ selectedId: ({ event }) => event.id }) },
        START: { guard: 'selected', target: 'starting' },
      },
      invoke: {
        src: 'loadPage',
        input: ({ context }) => ({ filter: context.filter, offset: 0, limit: context.pageSize }),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => ({
            rows: event.output.rows,
            count: event.output.count,
            cached: event.output.cached,
            loadError: null,
            selectedId: event.output.rows.some((r) => r.id === context.selectedId)
              ? context.selectedId
              : null,
          })),
        },
        // Not "No operations found.": the list is unknown, not empty.
        onError: {
          target: 'ready',
          actions: assign({ rows: [], count: 0, loadError: ({ event }) => loadErrorText(event.error) }),
        },
      },
    },
    ready: {
      on: {
        LOAD_MORE: { guard: 'hasMore', target: 'loadingMore' },
        SELECT: { actions: assign({ selectedId: ({ event }) => event.id }) },
        START: { guard: 'selected', target: 'starting' },
      },
    },
    loadingMore: {
      invoke: {
        src: 'loadPage',
        input: ({ context }) => ({
          filter: context.filter,
          offset: context.rows.length,
          limit: context.pageSize,
        }),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => {
            const seen = new Set(context.rows.map((r) => r.id));
            return {
              rows: [...context.rows, ...event.output.rows.filter((r) => !seen.has(r.id))],
              count: event.output.count,
              loadError: null,
            };
          }),
        },
        onError: {
          target: 'ready',
          actions: assign({ loadError: ({ event }) => loadErrorText(event.error) }),
        },
      },
      on: {
        SELECT: { actions: assign({ selectedId: ({ event }) => event.id }) },
        START: { guard: 'selected', target: 'starting' },
      },
    },
    starting: {
      on: { TYPE: {} },
      invoke: {
        src: 'start',
        input: ({ context, event }) => {
          const e = event as Extract<JobPickerEvent, { type: 'START' }>;
          return {
            job: context.rows.find((r) => r.id === context.selectedId)!,
            setup: e.setup,
            stageId: e.stageId,
          };
        },
        onDone: 'done',
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    failed: { on: { OK: 'cancelled', TYPE: {} } },
    done: { type: 'final' },
    cancelled: { type: 'final' },
  },
});
