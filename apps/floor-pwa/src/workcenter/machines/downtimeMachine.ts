import { assign, fromPromise, setup } from 'xstate';
import type { CategorizeDraft } from '../forms';
import type { ListFilters } from '../downtimeList';
import { DEFAULT_FILTERS } from '../downtimeList';

// "Categorize Downtime" (live-operations §2, §4): pick one period (or several in Select Multiple mode, only
// uncategorized ones), choose a reason, save. Each period becomes one categorize_downtime command.

export interface DowntimeContext {
  filters: ListFilters;
  multi: boolean;
  /** Starts of the periods chosen in Select Multiple mode. */
  selected: number[];
  /** The periods the reason form is for. */
  targets: number[];
  draft: CategorizeDraft;
  error: string | null;
}

export type DowntimeEvent =
  | { type: 'FILTER'; patch: Partial<ListFilters> }
  | { type: 'TOGGLE_MULTI' }
  | { type: 'TOGGLE_SELECT'; start: number }
  | { type: 'OPEN'; start: number; draft?: Partial<CategorizeDraft> }
  | { type: 'CATEGORIZE_MULTIPLE' }
  | { type: 'EDIT'; patch: Partial<CategorizeDraft> }
  | { type: 'SAVE' }
  | { type: 'CANCEL' };

const EMPTY_DRAFT: CategorizeDraft = { reasonId: null, planned: false, description: '' };

export const downtimeMachine = setup({
  types: { context: {} as DowntimeContext, events: {} as DowntimeEvent },
  actors: {
    save: fromPromise<void, { targets: number[]; draft: CategorizeDraft }>(async () => {}),
  },
  guards: {
    canSave: ({ context }) =>
      context.draft.reasonId !== null &&
      context.targets.length > 0 &&
      context.draft.description.length <= 250,
    hasSelection: ({ context }) => context.selected.length > 0,
  },
}).createMachine({
  id: 'downtime',
  context: {
    filters: DEFAULT_FILTERS,
    multi: false,
    selected: [],
    targets: [],
    draft: EMPTY_DRAFT,
    error: null,
  },
  initial: 'list',
  states: {
    list: {
      on: {
        FILTER: {
          actions: assign(({ context, event }) => ({ filters: { ...context.filters, ...event.patch } })),
        },
        TOGGLE_MULTI: { actions: assign(({ context }) => ({ multi: !context.multi, selected: [] })) },
        TOGGLE_SELECT: {
          actions: assign(({ context, event }) => ({
            selected: context.selected.includes(event.start)
              ? context.selected.filter((s) => s !== event.start)
              : [...context.selected, event.start],
          })),
        },
        OPEN: {
          target: 'categorizing',
          actions: assign(({ event }) => ({
            targets: [event.start],
            draft: { ...EMPTY_DRAFT, ...event.draft },
            error: null,
          })),
        },
        CATEGORIZE_MULTIPLE: {
          guard: 'hasSelection',
          target: 'categorizing',
          actions: assign(({ context }) => ({
            targets: [...context.selected],
            draft: EMPTY_DRAFT,
            error: null,
          })),
        },
      },
    },
    categorizing: {
      on: {
        EDIT: { actions: assign(({ context, event }) => ({ draft: { ...context.draft, ...event.patch } })) },
        SAVE: { guard: 'canSave', target: 'saving' },
        CANCEL: 'list',
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context }) => ({ targets: context.targets, draft: context.draft }),
        onDone: { target: 'list', actions: assign({ selected: [], targets: [], multi: false }) },
        onError: {
          target: 'categorizing',
          actions: assign({ error: () => 'Downtime reason could not be saved.' }),
        },
      },
    },
  },
});
