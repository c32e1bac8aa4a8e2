import { API_KEY_SCOPES } from '@takt/domain';
import type { ApiKey, ApiKeyCreated } from '@takt/domain';
import { formatDateTime, FormActions, Modal, t, useSession, useToasts } from '@takt/ui';
import { useEffect, useId, useState } from 'react';
import { api } from '../api';
import {
  AdminTable,
  ConfirmDialog,
  Field,
  FormDialog,
  LoadedView,
  NameField,
  saveState,
  useClipboardCopy,
  useLoaded,
  useSubmit,
} from '../admin/AdminParts';
import { isAdminUser } from '../admin/screens';
import {
  API_KEY_LIFETIMES,
  apiKeyBody,
  apiKeyErrors,
  apiKeyExpired,
  apiKeyFormOf,
  newApiKeyForm,
  SCOPE_TEXT,
  sortApiKeys,
  withScope,
} from './api-keys';
import type { ApiKeyForm } from './api-keys';
import '../admin/admin.css';
import './accounts.css';

// reports-admin §2 "API keys: list, create, edit, delete, with scopes; access token shown once at creation"
// (decision 0840). Calls GET, POST, PUT and DELETE /api/apikeys; admins only (the API answers 403 otherwise).

const keyPath = (id: string) => `/api/apikeys/${encodeURIComponent(id)}`;

type Editing = { key: ApiKey | null; form: ApiKeyForm };

export function ApiKeysPage() {
  const { me } = useSession();
  const headingId = useId();
  useEffect(() => {
    document.title = `${t('accounts.apiKeys.title')} · ${t('app.officeName')}`;
  }, []);
  if (!isAdminUser(me))
    return (
      <main className="page" aria-labelledby={headingId}>
        <h1 id={headingId}>{t('accounts.apiKeys.title')}</h1>
        <p className="notice" role="status">
          {t('accounts.apiKeys.notPermitted')}
        </p>
      </main>
    );
  return <ApiKeysScreen headingId={headingId} />;
}

function ApiKeysScreen({ headingId }: { headingId: string }) {
  const { me } = useSession();
  const zone = { locale: me.company.locale, timeZone: me.company.timezone };
  const [state, reload] = useLoaded(async (signal) =>
    sortApiKeys(await api.request<ApiKey[]>('/api/apikeys', { signal })),
  );
  const [editing, setEditing] = useState<Editing | null>(null);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const save = useSubmit(t('accounts.apiKeys.failed'));
  const remove = useSubmit(t('accounts.apiKeys.deleteFailed'));
  const toasts = useToasts();

  const errors = editing ? apiKeyErrors(editing.form) : {};
  const set = (patch: Partial<ApiKeyForm>) => setEditing((e) => e && { ...e, form: { ...e.form, ...patch } });

  const open = (key: ApiKey | null) => {
    save.clear();
    setEditing({ key, form: key ? apiKeyFormOf(key) : newApiKeyForm() });
  };

  const submit = async () => {
    if (!editing) return;
    const body = apiKeyBody(editing.form);
    let answer: ApiKeyCreated | null = null;
    const ok = await save.run(async () => {
      if (editing.key) await api.request(keyPath(editing.key.id), { method: 'PUT', body });
      else answer = await api.request<ApiKeyCreated>('/api/apikeys', { method: 'POST', body });
    });
    if (!ok) return;
    setEditing(null);
    if (answer) setCreated(answer);
    else toasts.show({ message: t('accounts.apiKeys.savedDone', { name: body.name }), tone: 'success' });
    reload();
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const ok = await remove.run(() => api.request(keyPath(deleting.id), { method: 'DELETE' }));
    if (!ok) return;
    toasts.show({ message: t('accounts.apiKeys.deletedDone', { name: deleting.name }), tone: 'success' });
    setDeleting(null);
    reload();
  };

  return (
    <main className="page admin accounts" aria-labelledby={headingId} aria-busy={state.kind === 'loading'}>
      <div className="page__head">
        <h1 id={headingId}>{t('accounts.apiKeys.title')}</h1>
        <div className="page__tools">
          <button type="button" className="button button--primary" onClick={() => open(null)}>
            {t('accounts.apiKeys.add')}
          </button>
        </div>
      </div>
      <p className="admin__intro">{t('accounts.apiKeys.intro')}</p>
      <p className="admin__hint">
        {/* The reference page is served by the API itself (decision 1046): a full page load, not a route. */}
        <a href="/api/docs">{t('accounts.apiKeys.reference')}</a>
        {' · '}
        <a href="/api/openapi.json">{t('accounts.apiKeys.openapi')}</a>
      </p>
      <LoadedView state={state} retry={reload}>
        {(keys) =>
          keys.length === 0 ? (
            <p className="notice" role="status">
              {t('accounts.apiKeys.empty')}
            </p>
          ) : (
            <AdminTable
              caption={t('accounts.apiKeys.caption')}
              status={false}
              headers={[
                t('accounts.apiKeys.name'),
                t('accounts.apiKeys.key'),
                t('accounts.apiKeys.scopes'),
                t('accounts.apiKeys.created'),
                t('accounts.apiKeys.lastUsed'),
                t('accounts.apiKeys.expires'),
              ]}
            >
              {keys.map((k) => (
                <tr key={k.id}>
                  <th scope="row" data-label={t('accounts.apiKeys.name')}>
                    {k.name}
                  </th>
                  <td data-label={t('accounts.apiKeys.key')} className="admin__mono">
                    {k.prefix}…
                  </td>
                  <td data-label={t('accounts.apiKeys.scopes')}>
                    <ul className="accounts__scopes">
                      {k.scopes.map((s) => (
                        <li key={s} className="accounts__scope">
                          {t(SCOPE_TEXT[s].label)}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td data-label={t('accounts.apiKeys.created')}>{formatDateTime(k.createdAt, zone)}</td>
                  <td data-label={t('accounts.apiKeys.lastUsed')}>
                    {k.lastUsedAt == null ? t('accounts.apiKeys.never') : formatDateTime(k.lastUsedAt, zone)}
                  </td>
                  <td data-label={t('accounts.apiKeys.expires')}>
                    {k.expiresAt == null
                      ? t('accounts.apiKeys.noExpiry')
                      : apiKeyExpired(k, Date.now())
                        ? t('accounts.apiKeys.expired', { date: formatDateTime(k.expiresAt, zone) })
                        : formatDateTime(k.expiresAt, zone)}
                  </td>
                  <td className="admin-table__actions">
                    <button
                      type="button"
                      className="button"
                      aria-label={t('accounts.apiKeys.editNamed', { name: k.name })}
                      onClick={() => open(k)}
                    >
                      {t('accounts.apiKeys.edit')}
                    </button>
                    <button
                      type="button"
                      className="button"
                      aria-label={t('accounts.apiKeys.deleteNamed', { name: k.name })}
                      onClick={() => {
                        remove.clear();
                        setDeleting(k);
                      }}
                    >
                      {t('accounts.apiKeys.delete')}
                    </button>
                  </td>
                </tr>
              ))}
            </AdminTable>
          )
        }
      </LoadedView>

      {editing && (
        <FormDialog
          title={t(editing.key ? 'accounts.apiKeys.editTitle' : 'accounts.apiKeys.newTitle')}
          onClose={() => setEditing(null)}
          onSubmit={() => void submit()}
          {...saveState(save, errors)}
          submitLabel={editing.key ? undefined : t('accounts.apiKeys.create')}
        >
          <NameField value={editing.form.name} onChange={(name) => set({ name })} error={errors.name} />
          <Field label={t('accounts.apiKeys.expiresIn')} hint={t('accounts.apiKeys.expiresInHint')}>
            {(p) => (
              <select
                {...p}
                value={editing.form.expiresInDays == null ? '' : String(editing.form.expiresInDays)}
                onChange={(e) =>
                  set({ expiresInDays: e.target.value === '' ? null : Number(e.target.value) })
                }
              >
                {editing.key && (
                  <option value="">
                    {editing.key.expiresAt == null
                      ? t('accounts.apiKeys.noExpiry')
                      : t('accounts.apiKeys.keepExpiry', {
                          date: formatDateTime(editing.key.expiresAt, zone),
                        })}
                  </option>
                )}
                {API_KEY_LIFETIMES.map((days) => (
                  <option key={days} value={String(days)}>
                    {t('accounts.apiKeys.days', { days: String(days) })}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <fieldset
            className="accounts__fieldset"
            aria-describedby={errors.scopes ? 'scopes-error' : undefined}
          >
            <legend>{t('accounts.apiKeys.scopes')}</legend>
            {API_KEY_SCOPES.map((s) => (
              <label key={s} className="accounts__choice">
                <input
                  type="checkbox"
                  checked={editing.form.scopes.includes(s)}
                  onChange={(e) => set({ scopes: withScope(editing.form.scopes, s, e.target.checked) })}
                />
                <span>
                  <span className="accounts__choice-label">{t(SCOPE_TEXT[s].label)}</span>
                  <span className="admin__hint">
                    <code>{s}</code> · {t(SCOPE_TEXT[s].hint)}
                  </span>
                </span>
              </label>
            ))}
            {errors.scopes && (
              <p className="field__error" id="scopes-error">
                {errors.scopes}
              </p>
            )}
          </fieldset>
        </FormDialog>
      )}

      {created && <TokenDialog created={created} onClose={() => setCreated(null)} />}

      {deleting && (
        <ConfirmDialog
          title={t('accounts.apiKeys.deleteTitle')}
          body={t('accounts.apiKeys.deleteBody', { name: deleting.name })}
          confirmLabel={t('accounts.apiKeys.delete')}
          onConfirm={() => void confirmDelete()}
          onClose={() => setDeleting(null)}
          busy={remove.busy}
          error={remove.error}
        >
          <p className="admin__hint">{t('accounts.apiKeys.deleteHint')}</p>
        </ConfirmDialog>
      )}
    </main>
  );
}

/** The access token, shown once (reports-admin §2): closing the dialog drops it from memory. */
function TokenDialog({ created, onClose }: { created: ApiKeyCreated; onClose: () => void }) {
  const { copy, input, onCopy } = useClipboardCopy<HTMLInputElement>(created.accessToken);
  return (
    <Modal
      title={t('accounts.apiKeys.tokenTitle')}
      onClose={onClose}
      footer={<FormActions submit={{ label: t('accounts.apiKeys.done'), onClick: onClose }} />}
    >
      <p className="notice notice--warning">{t('accounts.apiKeys.tokenOnce')}</p>
      <Field label={t('accounts.apiKeys.token')}>
        {(p) => (
          <div className="accounts__token">
            <input
              {...p}
              ref={input}
              readOnly
              value={created.accessToken}
              className="admin__mono"
              spellCheck={false}
              onFocus={(e) => e.currentTarget.select()}
            />
            <button type="button" className="button" onClick={() => void onCopy()}>
              {copy === 'copied' ? t('accounts.apiKeys.copied') : t('accounts.apiKeys.copy')}
            </button>
          </div>
        )}
      </Field>
      <p className="admin__hint" role="status">
        {copy === 'failed' ? t('accounts.apiKeys.copyFailed') : ''}
      </p>
    </Modal>
  );
}
