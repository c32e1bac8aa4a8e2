import { t } from '@takt/ui';
import { assign, fromPromise, setup } from 'xstate';
import type { RejectDraft, RejectReason } from '../forms';
import { NEW_REJECT, rejectFormView } from '../forms';

// Reject Part (live-operations §2, §5): edit, save (queues reject_part), done. Save is ignored while the form is
// invalid or saving (§5 "Submit buttons are disabled while a form is invalid or saving").

export interface RejectContext {
  draft: RejectDraft;
  reasons: RejectReason[];
  hideRemoveFlag: boolean;
  manual: boolean;
  error: string | null;
}

export type RejectEvent =
  | { type: 'EDIT'; patch: Partial<RejectDraft> }
  | { type: 'SAVE' }
  // The reasons arrived or changed while the overlay was open (a first pull still running when it opened).
  | { type: 'REASONS'; reasons: RejectReason[] };

export const rejectMachine = setup({
  types: {
    context: {} as RejectContext,
    events: {} as RejectEvent,
    input: {} as { reasons: RejectReason[]; hideRemoveFlag: boolean; manual: boolean },
  },
  actors: {
    save: fromPromise<void, { draft: RejectDraft }>(async () => {}),
  },
  guards: {
    valid: ({ context }) =>
      rejectFormView(context.draft, context.reasons, {
        hideRemoveFlag: context.hideRemoveFlag,
        manual: context.manual,
      }).valid,
  },
}).createMachine({
  id: 'reject',
  context: ({ input }) => ({
    draft: { ...NEW_REJECT, reasonId: input.reasons.length === 1 ? input.reasons[0]!.id : null },
    reasons: input.reasons,
    hideRemoveFlag: input.hideRemoveFlag,
    manual: input.manual,
    error: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        EDIT: {
          actions: assign(({ context, event }) => {
            const draft = { ...context.draft, ...event.patch };
            // A new reason resets the operator's scrap/non-conforming choice (it may not apply any more).
            if (event.patch.reasonId !== undefined && event.patch.reasonId !== context.draft.reasonId)
              draft.behavior = null;
            return { draft, error: null };
          }),
        },
        SAVE: { guard: 'valid', target: 'saving' },
        REASONS: {
          actions: assign(({ context, event }) => {
            const only = event.reasons.length === 1 ? event.reasons[0]!.id : null;
            const kept = event.reasons.some((r) => r.id === context.draft.reasonId);
            return {
              reasons: event.reasons,
              draft: kept ? context.draft : { ...context.draft, reasonId: only, behavior: null },
            };
          }),
        },
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context }) => ({ draft: context.draft }),
        onDone: 'done',
        onError: { target: 'editing', actions: assign({ error: () => t('reject.failed') }) },
      },
    },
    done: { type: 'final' },
  },
});
