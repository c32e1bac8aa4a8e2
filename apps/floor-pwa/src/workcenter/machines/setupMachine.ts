import { t } from '@takt/ui';
import { assign, fromPromise, setup } from 'xstate';
import type { StartProductionDraft } from '../forms';
import { startProductionErrors } from '../forms';

// The Setup overlay (live-operations §2, §4): Change Stage, and Start Production with the parts to keep and a
// note. The draft survives a reload: the component persists getPersistedSnapshot() per job run.

export interface SetupContext {
  draft: StartProductionDraft;
  setupParts: number | null;
  error: string | null;
}

export type SetupEvent =
  | { type: 'EDIT'; patch: Partial<StartProductionDraft> }
  | { type: 'SETUP_PARTS'; count: number | null }
  | { type: 'CHANGE_STAGE'; stageId: string }
  | { type: 'START_PRODUCTION' };

export const setupMachine = setup({
  types: { context: {} as SetupContext, events: {} as SetupEvent },
  actors: {
    changeStage: fromPromise<void, { stageId: string }>(async () => {}),
    startProduction: fromPromise<void, { draft: StartProductionDraft; setupParts: number | null }>(
      async () => {},
    ),
  },
  guards: {
    valid: ({ context }) => startProductionErrors(context.draft, context.setupParts).length === 0,
  },
}).createMachine({
  id: 'setup',
  context: { draft: { keptParts: '', notes: '' }, setupParts: null, error: null },
  initial: 'idle',
  on: {
    SETUP_PARTS: {
      actions: assign(({ context, event }) => ({
        setupParts: event.count,
        // Default: keep every part made in setup, until the operator says otherwise.
        draft:
          context.draft.keptParts === '' && event.count != null
            ? { ...context.draft, keptParts: String(event.count) }
            : context.draft,
      })),
    },
  },
  states: {
    idle: {
      on: {
        EDIT: {
          actions: assign(({ context, event }) => ({
            draft: { ...context.draft, ...event.patch },
            error: null,
          })),
        },
        CHANGE_STAGE: 'changingStage',
        START_PRODUCTION: { guard: 'valid', target: 'startingProduction' },
      },
    },
    changingStage: {
      invoke: {
        src: 'changeStage',
        input: ({ event }) => ({ stageId: (event as Extract<SetupEvent, { type: 'CHANGE_STAGE' }>).stageId }),
        onDone: 'idle',
        onError: { target: 'idle', actions: assign({ error: () => t('setup.somethingWrong') }) },
      },
    },
    startingProduction: {
      invoke: {
        src: 'startProduction',
        input: ({ context }) => ({ draft: context.draft, setupParts: context.setupParts }),
        onDone: 'done',
        onError: { target: 'idle', actions: assign({ error: () => t('setup.removalFailed') }) },
      },
    },
    done: { type: 'final' },
  },
});
