import { t } from '@takt/ui';
import { FormModal } from '../../components/FormModal';
import { useSubmit } from '../../lib/submit';
import { useId, useMemo, useState } from 'react';
import { useFloorSync } from '../../offline/SyncProvider';
import { queue } from '../../offline/queue';
import type { OverlayProps } from './types';

interface OperatorRef {
  id: string;
  name: string;
}

function operatorsOf(raw: unknown): OperatorRef[] {
  if (!Array.isArray(raw)) return [];
  return (raw as Record<string, unknown>[])
    .filter((o) => o && o.archivedAt == null)
    .map((o) => ({ id: String(o.id), name: String(o.name) }));
}

/** Operator login (live-operations §2, §4): log in now, at the start of the shift (pinned), or log out. */
export default function OperatorOverlay({ machineId, data, onClose }: OverlayProps) {
  const sync = useFloorSync();
  const id = useId();
  const operators = useMemo(() => operatorsOf(data.operators), [data.operators]);
  const current = data.view.operator;
  const [chosen, setChosen] = useState<string | null>(current?.operatorId ?? null);
  const operator = operators.find((o) => o.id === chosen) ?? null;

  // §5: debounced 200 ms and ignored while saving; the overlay closes whether or not the command was queued.
  const { busy, submit: act } = useSubmit(async (run: () => Promise<unknown>) => {
    try {
      await run();
    } finally {
      onClose();
    }
  });
  const login = (pinToPreviousEvent: boolean) =>
    act(() =>
      queue(
        sync,
        machineId,
        'operator_login',
        { machineId, operatorId: operator!.id, pinToPreviousEvent },
        { operatorName: operator!.name },
      ),
    );

  return (
    <FormModal
      title={t('operator.title')}
      onClose={onClose}
      busy={busy}
      className="modal--tall"
      noCancel
      wrap
      submit={{ label: t('operator.loginNow'), disabled: !operator, onClick: () => login(false) }}
      actions={
        <>
          {current && (
            <button
              type="button"
              className="button button--danger touch"
              disabled={busy}
              onClick={() =>
                act(() =>
                  queue(sync, machineId, 'operator_logout', { machineId }, { operatorName: current.name }),
                )
              }
            >
              {t('operator.logout')}
            </button>
          )}
          <button
            type="button"
            className="button touch"
            disabled={busy || !operator}
            onClick={() => login(true)}
          >
            {t('operator.loginShiftStart')}
          </button>
        </>
      }
    >
      {current && <p className="modal__hint">{t('operator.current', { name: current.name })}</p>}
      {operators.length === 0 ? (
        <p className="notice">{t('operator.none')}</p>
      ) : (
        <fieldset className="choice-grid">
          <legend className="field__label">{t('operator.choose')}</legend>
          {operators.map((o) => (
            <label key={o.id} className="choice touch">
              <input
                type="radio"
                name={`${id}-op`}
                value={o.id}
                checked={chosen === o.id}
                onChange={() => setChosen(o.id)}
              />
              <span>{o.name}</span>
            </label>
          ))}
        </fieldset>
      )}
    </FormModal>
  );
}
