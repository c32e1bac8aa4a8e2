import { CountInput, t } from '@takt/ui';
import { FormModal } from '../../components/FormModal';
import { OverlayForm } from './OverlayForm';
import { ReasonChoices } from './ReasonChoices';
import { useMachine } from '@xstate/react';
import { useEffect, useId, useMemo } from 'react';
import { fromPromise } from 'xstate';
import { NoteField } from '../NoteField';
import { useSubmit } from '../../lib/submit';
import { useFloorSync } from '../../offline/SyncProvider';
import { rejectFormView, rejectPayload, rejectReasonsOf } from '../forms';
import { rejectMachine } from '../machines/rejectMachine';
import { workcenterTypeOf } from '../view';
import type { OverlayProps } from './types';

/** Reject Part (live-operations §2, §5). */
export default function RejectOverlay({ machineId, data, onClose, manual: isManual }: OverlayProps) {
  const sync = useFloorSync();
  const id = useId();
  const reasons = useMemo(() => rejectReasonsOf(data.rejectReasons), [data.rejectReasons]);
  // §5: manual work centers skip "remove from good parts".
  const manual = isManual ?? workcenterTypeOf(data.tile) === 'manual';
  const hideRemoveFlag = data.flags.hideRemoveRejectedPartsCheckbox;
  const machine = useMemo(
    () =>
      rejectMachine.provide({
        actors: {
          save: fromPromise(async ({ input }) => {
            const reason = reasons.find((r) => r.id === input.draft.reasonId);
            if (!reason) throw new Error('no reason');
            const view = rejectFormView(input.draft, reasons, { hideRemoveFlag, manual });
            const at = sync.now();
            await sync.enqueue({
              type: 'reject_part',
              machineId,
              occurredAt: at,
              payload: rejectPayload(machineId, input.draft, reason, at, {
                manual,
                showRemoveFromGood: view.showRemoveFromGood,
              }),
              display: {
                reasonName: reason.name,
                reasonColor: reason.color,
                count: Number(input.draft.count),
              },
            });
          }),
        },
      }),
    [sync, machineId, reasons, hideRemoveFlag, manual],
  );
  const [state, send] = useMachine(machine, { input: { reasons, hideRemoveFlag, manual } });
  // §5: submits are debounced 200 ms; the machine ignores SAVE while saving.
  const save = useSubmit(async () => void send({ type: 'SAVE' }));
  const { draft, error } = state.context;
  const view = rejectFormView(draft, reasons, { hideRemoveFlag, manual });
  const busy = state.matches('saving');
  const selectedReason = reasons.find((r) => r.id === draft.reasonId) ?? null;

  useEffect(() => {
    if (state.status === 'done') onClose();
  }, [state.status, onClose]);
  // The machine validates against the reasons it holds: keep them in step with the store.
  useEffect(() => {
    send({ type: 'REASONS', reasons });
  }, [send, reasons]);

  return (
    <FormModal
      title={t('reject.title')}
      onClose={onClose}
      busy={busy}
      className="modal--tall"
      submit={{ label: t('overlay.save'), form: `${id}-form`, disabled: !view.valid || reasons.length === 0 }}
    >
      <OverlayForm
        id={`${id}-form`}
        label={t('reject.title')}
        error={error}
        noValidate
        onSubmit={save.submit}
      >
        <div className="field">
          <label className="field__label" htmlFor={`${id}-count`}>
            {t('reject.count')}
          </label>
          <div className="stepper">
            <button
              type="button"
              className="button touch"
              aria-label="−1"
              onClick={() =>
                send({ type: 'EDIT', patch: { count: String(Math.max(1, (Number(draft.count) || 1) - 1)) } })
              }
            >
              −
            </button>
            <CountInput
              id={`${id}-count`}
              className="touch-input num"
              min={1}
              required
              value={draft.count}
              aria-invalid={!!view.errors.count || undefined}
              aria-describedby={view.errors.count ? `${id}-count-error` : undefined}
              onChange={(e) => send({ type: 'EDIT', patch: { count: e.target.value } })}
            />
            <button
              type="button"
              className="button touch"
              aria-label="+1"
              onClick={() => send({ type: 'EDIT', patch: { count: String((Number(draft.count) || 0) + 1) } })}
            >
              +
            </button>
          </div>
          {view.errors.count && (
            <span id={`${id}-count-error`} className="field__error">
              {view.errors.count}
            </span>
          )}
        </div>
        <ReasonChoices
          name={`${id}-reason`}
          legend={t('reject.reason')}
          emptyText={t('reject.noReasons')}
          reasons={reasons}
          selectedId={draft.reasonId}
          onSelect={(reasonId) => send({ type: 'EDIT', patch: { reasonId } })}
        />
        {selectedReason && view.typeEditable && (
          <fieldset className="choice-row">
            <legend className="field__label">{t('reject.type')}</legend>
            {(['scrap', 'nonconform'] as const).map((b) => (
              <label key={b} className="choice touch">
                <input
                  type="radio"
                  name={`${id}-type`}
                  value={b}
                  checked={(draft.behavior ?? 'scrap') === b}
                  onChange={() => send({ type: 'EDIT', patch: { behavior: b } })}
                />
                <span>{b === 'scrap' ? t('reject.scrap') : t('reject.nonconform')}</span>
              </label>
            ))}
          </fieldset>
        )}
        <NoteField
          id={`${id}-message`}
          label={t('reject.message')}
          value={draft.message}
          onChange={(message) => send({ type: 'EDIT', patch: { message } })}
        />
        {view.showRemoveFromGood && (
          <label className="check touch">
            <input
              type="checkbox"
              checked={draft.removeFromGoodParts}
              onChange={(e) => send({ type: 'EDIT', patch: { removeFromGoodParts: e.target.checked } })}
            />
            <span>{t('reject.removeFromGood')}</span>
          </label>
        )}
      </OverlayForm>
    </FormModal>
  );
}
