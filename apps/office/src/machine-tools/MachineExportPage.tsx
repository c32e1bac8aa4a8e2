import { ApiError, localeZone, t, useServerNow, useSession } from '@takt/ui';
import { useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { useParams } from 'react-router';
import { api } from '../api';
import { checkExport, defaultDraft, EXPORT_TEXTS, inputBounds, serverErrors } from './export-form';
import type { ExportDraft, ExportErrors } from './export-form';
import { MachineToolsFrame } from './MachineToolsFrame';
import { useMachineDiagnostics } from './useMachineDiagnostics';

type Sending =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'queued'; message: string }
  | { kind: 'failed'; errors: ExportErrors; other: string[] };

/**
 * /machine/{id}/export (reports-admin §2 "an event-data export page"; §5, §7, §8; decisions 0702 and 0810):
 * the machine's raw events between two times, all fields or some, queued with POST /api/reports/event/queue;
 * the answer is not shown, the user is told the file comes within an hour, by e-mail with a download link.
 */
export function MachineExportPage() {
  const { id: machineId = '' } = useParams();
  const { me } = useSession();
  const lz = localeZone(me);
  // The field list (keys seen in the last day and mapped fields); no live updates needed here.
  const d = useMachineDiagnostics(machineId, false);
  const now = useServerNow(d.offsetMs);
  const [draft, setDraft] = useState<ExportDraft>(() => defaultDraft(Date.now(), lz.timeZone));
  const [sending, setSending] = useState<Sending>({ kind: 'idle' });
  const check = checkExport(draft, machineId, lz.timeZone, now);
  const bounds = inputBounds(now, lz.timeZone);
  const fields = useMemo(() => d.answer?.fields ?? [], [d.answer]);
  const server = sending.kind === 'failed' ? sending : null;
  const errors: ExportErrors = { ...server?.errors, ...check.errors };

  const edit = (next: Partial<ExportDraft>) => {
    setDraft((x) => ({ ...x, ...next }));
    if (sending.kind !== 'saving') setSending({ kind: 'idle' });
  };
  const toggleKey = (k: string) =>
    edit({ keys: draft.keys.includes(k) ? draft.keys.filter((x) => x !== k) : [...draft.keys, k].sort() });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!check.request || sending.kind === 'saving') return;
    setSending({ kind: 'saving' });
    api
      .request<{ message?: string }>('/api/reports/event/queue', { method: 'POST', body: check.request })
      .then(() => setSending({ kind: 'queued', message: EXPORT_TEXTS.queued }))
      .catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 400) {
          const s = serverErrors(err.issues);
          setSending({
            kind: 'failed',
            ...s,
            other: s.other.length || Object.keys(s.errors).length ? s.other : [err.message],
          });
        } else
          setSending({
            kind: 'failed',
            errors: {},
            other: [
              err instanceof ApiError && !err.isNetworkError ? err.message : t('machineTools.export.failed'),
            ],
          });
      });
  };

  const describedBy = (field: 'start' | 'end') =>
    [`export-${field}-hint`, errors[field] ? `export-${field}-error` : null].filter(Boolean).join(' ');

  return (
    <MachineToolsFrame machineId={machineId} tool="export">
      <p className="machine-tools__intro">{t('machineTools.export.intro')}</p>
      <form className="export-form" onSubmit={submit} noValidate aria-labelledby="export-form-heading">
        <h2 id="export-form-heading">{t('machineTools.export.formTitle')}</h2>
        <div className="export-form__dates">
          {(['start', 'end'] as const).map((field) => (
            <div className="field" key={field}>
              <label htmlFor={`export-${field}`}>{t(`machineTools.export.${field}`)}</label>
              <input
                id={`export-${field}`}
                type="datetime-local"
                value={draft[field]}
                min={bounds.min}
                max={bounds.max}
                aria-invalid={errors[field] ? true : undefined}
                aria-describedby={describedBy(field)}
                onChange={(e) => edit({ [field]: e.target.value })}
              />
              <p className="field__hint" id={`export-${field}-hint`}>
                {field === 'start'
                  ? t('machineTools.export.startHint', { zone: lz.timeZone })
                  : t('machineTools.export.endHint')}
              </p>
              {errors[field] && (
                <p className="field__error" id={`export-${field}-error`} role="alert">
                  {errors[field]}
                </p>
              )}
            </div>
          ))}
        </div>

        <fieldset className="export-form__keys">
          <legend>{t('machineTools.export.fields')}</legend>
          <p className="field__hint">
            {draft.keys.length === 0
              ? t('machineTools.export.allFields')
              : t('machineTools.export.someFields', { count: draft.keys.length })}
          </p>
          {d.error && <p className="field__error">{d.error}</p>}
          {fields.length > 0 && (
            <ul>
              {fields.map((f) => (
                <li key={f.key}>
                  <label>
                    <input
                      type="checkbox"
                      checked={draft.keys.includes(f.key)}
                      onChange={() => toggleKey(f.key)}
                    />{' '}
                    <span className="mono">{f.key}</span>
                    <span className="export-form__type">{f.dataItemType ?? t('machineTools.notMapped')}</span>
                  </label>
                </li>
              ))}
            </ul>
          )}
          {draft.keys.length > 0 && (
            <button type="button" className="button button--ghost" onClick={() => edit({ keys: [] })}>
              {t('machineTools.export.clearFields')}
            </button>
          )}
        </fieldset>

        {server && server.other.length > 0 && (
          <div className="notice notice--error" role="alert">
            {server.other.map((m) => (
              <p key={m}>{m}</p>
            ))}
          </div>
        )}
        {sending.kind === 'queued' && (
          <div className="notice notice--success" role="status">
            <p className="export-form__queued">{sending.message}</p>
            <p>{t('machineTools.export.byEmail', { email: me.email })}</p>
          </div>
        )}
        <div className="export-form__actions">
          <button
            type="submit"
            className="button button--primary"
            disabled={!check.request || sending.kind === 'saving'}
          >
            {sending.kind === 'saving' ? t('machineTools.export.queueing') : t('machineTools.export.queue')}
          </button>
        </div>
      </form>
    </MachineToolsFrame>
  );
}
