import { CountInput, Modal, t } from '@takt/ui';
import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { api } from '../api';
import { isDirty, saveFailure, scrapBody, scrapFormView, typeLabel } from './scrap-form';
import type { Adjustment, SaveFailure, ScrapDraft, ScrapFormContext } from './scrap-form';

// The scrap form (reports-admin §2 "Machine quality: clicking a row opens an edit form", §4 "Scrap form:
// create, edit, delete; closing a dirty form asks confirmation", §5, §8). The rules are in scrap-form.ts.

export interface ScrapFormProps {
  machineId: string;
  ctx: ScrapFormContext;
  /** The entry being edited; null creates one. */
  editing: Adjustment | null;
  /** What the form opens with (a new entry, prefilled from a cycle, or the edited entry). */
  initial: ScrapDraft;
  /** The form was opened from a cycle's Reject Part / Correct Part (adjustmenttime and qty in the URL). */
  prefilled: boolean;
  /** Closed: `changed` says whether an entry was saved or deleted. */
  onClose: (changed: 'saved' | 'deleted' | null) => void;
}

type Confirm = null | 'close' | 'delete';

export function ScrapForm({ machineId, ctx, editing, initial, prefilled, onClose }: ScrapFormProps) {
  const id = useId();
  const [draft, setDraft] = useState(initial);
  const [touched, setTouched] = useState<ReadonlySet<keyof ScrapDraft>>(new Set());
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const failureRef = useRef<HTMLDivElement>(null);
  const view = scrapFormView(draft, ctx);
  const reject = ctx.kind === 'reject';
  const dirty = isDirty(draft, initial);
  const reason = ctx.reasons.find((r) => r.id === draft.reasonId) ?? null;

  const edit = (patch: Partial<ScrapDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setTouched((s) => new Set([...s, ...(Object.keys(patch) as (keyof ScrapDraft)[])]));
  };
  const shown = (k: keyof ScrapDraft, error: string | undefined) => (touched.has(k) ? error : undefined);

  // reports-admin §4: closing a dirty form asks first.
  const requestClose = () => {
    if (busy) return;
    if (dirty) setConfirm('close');
    else onClose(null);
  };

  const fail = (err: unknown) => {
    setFailure(saveFailure(err, ctx.kind));
    setConfirm(null);
    // The list is at the top of the form: bring it into view (reports-admin §8).
    requestAnimationFrame(() => failureRef.current?.scrollIntoView({ block: 'nearest' }));
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!view.valid) {
      setTouched(new Set(Object.keys(draft) as (keyof ScrapDraft)[]));
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const body = scrapBody(draft, ctx);
      if (editing)
        await api.request(`/api/partadjustment/${encodeURIComponent(editing.id)}`, { method: 'PUT', body });
      else
        await api.request('/api/partadjustment', {
          method: 'POST',
          body: { machine_id: machineId, ...body },
        });
      onClose('saved');
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!editing || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await api.request(`/api/partadjustment/${encodeURIComponent(editing.id)}`, { method: 'DELETE' });
      onClose('deleted');
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const title = reject
    ? t(editing ? 'scrap.form.edit' : 'scrap.form.new')
    : t(editing ? 'scrap.form.editCorrection' : 'scrap.form.newCorrection');
  const formId = `${id}-form`;
  const err = (k: 'time' | 'count' | 'reason' | 'message') =>
    shown(k === 'reason' ? 'reasonId' : k, view.errors[k]);
  const described = (k: string, error: string | undefined, hint = false) =>
    [error ? `${id}-${k}-error` : null, hint ? `${id}-${k}-hint` : null].filter(Boolean).join(' ') ||
    undefined;

  const footer =
    confirm === 'close' ? (
      <div className="scrap-confirm" role="alertdialog" aria-labelledby={`${id}-confirm`}>
        <p id={`${id}-confirm`} className="scrap-confirm__text">
          {t('scrap.form.confirmClose')}
        </p>
        <div className="modal__buttons">
          <button type="button" className="button touch" onClick={() => setConfirm(null)} autoFocus>
            {t('scrap.form.keepEditing')}
          </button>
          <button type="button" className="button button--danger touch" onClick={() => onClose(null)}>
            {t('scrap.form.discard')}
          </button>
        </div>
      </div>
    ) : confirm === 'delete' ? (
      <div className="scrap-confirm" role="alertdialog" aria-labelledby={`${id}-confirm`}>
        <p id={`${id}-confirm`} className="scrap-confirm__text">
          {t('scrap.form.confirmDelete')}
        </p>
        <div className="modal__buttons">
          <button
            type="button"
            className="button touch"
            onClick={() => setConfirm(null)}
            disabled={busy}
            autoFocus
          >
            {t('scrap.form.keepEditing')}
          </button>
          <button
            type="button"
            className="button button--danger touch"
            onClick={() => void remove()}
            disabled={busy}
          >
            {t('scrap.form.deleteYes')}
          </button>
        </div>
      </div>
    ) : (
      <div className="modal__buttons scrap-form__buttons">
        {editing && (
          <button
            type="button"
            className="button button--ghost scrap-form__delete touch"
            onClick={() => setConfirm('delete')}
            disabled={busy}
          >
            {t('scrap.form.delete')}
          </button>
        )}
        <button type="button" className="button touch" onClick={requestClose} disabled={busy}>
          {t('scrap.form.cancel')}
        </button>
        <button
          type="submit"
          form={formId}
          className="button button--primary touch"
          disabled={busy || !view.valid}
        >
          {busy ? t('scrap.form.saving') : t('scrap.form.save')}
        </button>
      </div>
    );

  return (
    <Modal title={title} onClose={requestClose} busy={busy} footer={footer} className="scrap-form">
      <form id={formId} className="scrap-form__fields" noValidate onSubmit={(e) => void save(e)}>
        {failure && (
          <div ref={failureRef} className="notice notice--error" role="alert">
            <p className="scrap-form__failure">{failure.message}</p>
            {failure.items.length > 0 && (
              <ul className="scrap-form__failure-list">
                {failure.items.map((m, i) => (
                  <li key={`${i}-${m}`}>{m}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {prefilled && !editing && <p className="modal__hint">{t('scrap.form.prefilled')}</p>}

        <div className="field">
          <label htmlFor={`${id}-time`}>{t('scrap.form.time')}</label>
          <input
            id={`${id}-time`}
            type="datetime-local"
            step={1}
            value={draft.time}
            aria-invalid={!!err('time') || undefined}
            aria-describedby={described('time', err('time'), true)}
            onChange={(e) => edit({ time: e.target.value })}
          />
          <span id={`${id}-time-hint`} className="field__hint">
            {t('scrap.form.timeHint', { zone: ctx.timezone })}
          </span>
          {err('time') && (
            <p id={`${id}-time-error`} className="field__error">
              {err('time')}
            </p>
          )}
        </div>

        <div className="field">
          <label htmlFor={`${id}-count`}>
            {reject ? t('scrap.form.count') : t('scrap.form.correctionCount')}
          </label>
          <CountInput
            id={`${id}-count`}
            className="num scrap-form__count"
            {...(reject ? { min: 1 } : {})}
            value={draft.count}
            aria-invalid={!!err('count') || undefined}
            aria-describedby={described('count', err('count'), reject)}
            onChange={(e) => edit({ count: e.target.value })}
          />
          {reject && (
            <span id={`${id}-count-hint`} className="field__hint">
              {t('scrap.form.countHint')}
            </span>
          )}
          {err('count') && (
            <p id={`${id}-count-error`} className="field__error">
              {err('count')}
            </p>
          )}
        </div>

        <div className="field">
          <label htmlFor={`${id}-reason`}>{t('scrap.form.reason')}</label>
          {reject && ctx.reasons.length === 0 ? (
            <p className="notice">{t('scrap.form.noReasons')}</p>
          ) : (
            <select
              id={`${id}-reason`}
              value={draft.reasonId}
              aria-invalid={!!err('reason') || undefined}
              aria-describedby={described('reason', err('reason'))}
              onChange={(e) => edit({ reasonId: e.target.value })}
              onBlur={() => setTouched((s) => new Set([...s, 'reasonId']))}
            >
              <option value="">{reject ? t('scrap.form.chooseReason') : t('scrap.form.noReason')}</option>
              {ctx.reasons.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
          )}
          {err('reason') && (
            <p id={`${id}-reason-error`} className="field__error">
              {err('reason')}
            </p>
          )}
        </div>

        {reject && (
          <fieldset className="scrap-form__type" aria-describedby={`${id}-type-hint`}>
            <legend className="field__label">{t('scrap.form.type')}</legend>
            <div className="scrap-form__choices">
              {(['scrap', 'nonconform'] as const).map((b) => (
                <label key={b} className="scrap-form__choice">
                  <input
                    type="radio"
                    name={`${id}-type`}
                    value={b}
                    // reports-admin §5: the type is editable only when the reason's reject_behavior is operator.
                    disabled={!view.typeEditable}
                    checked={view.behavior === b}
                    onChange={() => edit({ behavior: b })}
                  />
                  {typeLabel(b)}
                </label>
              ))}
            </div>
            <span id={`${id}-type-hint`} className="field__hint">
              {!reason
                ? t('scrap.form.typeNeedsReason')
                : view.typeEditable
                  ? ''
                  : t('scrap.form.typeFixed', { type: typeLabel(view.behavior) })}
            </span>
          </fieldset>
        )}

        <div className="field">
          <label htmlFor={`${id}-message`}>{t('scrap.form.message')}</label>
          <textarea
            id={`${id}-message`}
            rows={2}
            value={draft.message}
            aria-invalid={!!err('message') || undefined}
            aria-describedby={described('message', err('message'))}
            onChange={(e) => edit({ message: e.target.value })}
          />
          {err('message') && (
            <p id={`${id}-message-error`} className="field__error">
              {err('message')}
            </p>
          )}
        </div>

        {view.showRemoveFromGood && (
          <div className="field">
            <label className="scrap-form__choice" htmlFor={`${id}-remove`}>
              <input
                id={`${id}-remove`}
                type="checkbox"
                checked={draft.removeFromGoodParts}
                aria-describedby={`${id}-remove-hint`}
                onChange={(e) => edit({ removeFromGoodParts: e.target.checked })}
              />
              {t('scrap.form.removeFromGood')}
            </label>
            <span id={`${id}-remove-hint`} className="field__hint">
              {t('scrap.form.removeFromGoodHint')}
            </span>
          </div>
        )}
        {reject && ctx.manual && <p className="modal__hint">{t('scrap.form.manualNote')}</p>}
      </form>
    </Modal>
  );
}
