import { ApiError, t, useToasts } from '@takt/ui';
import { useId, useState } from 'react';
import { ConfirmDialog, Field, FormErrorBox, LoadedView, useLoaded, useSubmit } from '../../admin/AdminParts';
import { api } from '../../api';
import type { Adapter, AdapterForm, AdapterType, DataItemList, FieldRow } from './adapters';
import {
  adapterBody,
  adapterErrors,
  adapterFormOf,
  adapterPath,
  adapterUrl,
  emptyFieldRow,
  fieldErrors,
  isEmpty,
  newAdapterForm,
} from './adapters';
import { FieldsTable } from './FieldsTable';

// One adapter: create or edit its name, type, notes and fields; clone or delete it (reports-admin §2
// "Internal adapter admin"). Opened directly with ?adapterId= (the page keeps the id in the URL), in the company
// the page chose (decision 0946).

interface Loaded {
  adapter: Adapter | null;
  /** The id in the URL names no adapter of the company (a stale or foreign link). */
  missing: boolean;
  /** Suggestions only: the editor works without them. */
  dataItems: DataItemList | null;
}

export interface AdapterEditorProps {
  /** null: a new adapter. */
  id: string | null;
  /** The chosen company (null: the user's own). */
  company: string | null;
  types: readonly AdapterType[];
  adapters: readonly Adapter[];
  onOpen: (id: string) => void;
  onClose: () => void;
  onChanged: () => void;
}

const loadAdapter = (company: string | null, id: string, signal: AbortSignal) =>
  api.request<Adapter>(adapterPath(company, id), { signal }).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  });

export function AdapterEditor(props: AdapterEditorProps) {
  const { id, company } = props;
  const [state, retry] = useLoaded<Loaded>(async (signal) => {
    const [adapter, dataItems] = await Promise.all([
      id === null ? null : loadAdapter(company, id, signal),
      api.request<DataItemList>(adapterUrl(company, '/data-items'), { signal }).catch(() => null),
    ]);
    return { adapter, missing: id !== null && adapter === null, dataItems };
  });
  return (
    <LoadedView state={state} retry={retry}>
      {(data) =>
        data.missing ? (
          <div className="notice notice--error admin__failed" role="alert">
            <span>{t('internal.adapters.notFound')}</span>
            <button type="button" className="button" onClick={props.onClose}>
              {t('internal.adapters.all')}
            </button>
          </div>
        ) : (
          <EditorForm key={data.adapter?.id ?? 'new'} {...props} {...data} />
        )
      }
    </LoadedView>
  );
}

type Confirming = 'delete' | null;

function EditorForm({
  company,
  adapter,
  dataItems,
  types,
  adapters,
  onOpen,
  onClose,
  onChanged,
}: AdapterEditorProps & Loaded) {
  const [form, setForm] = useState<AdapterForm>(() =>
    adapter ? adapterFormOf(adapter) : newAdapterForm(types[0]),
  );
  const [touched, setTouched] = useState(false);
  /** The field row being edited (reports-admin §5: one at a time) and whether it is a new row. */
  const [editing, setEditing] = useState<{ draft: FieldRow; added: boolean } | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const save = useSubmit(t('internal.adapters.saveFailed'));
  const remove = useSubmit(t('internal.adapters.deleteFailed'));
  const clone = useSubmit(t('internal.adapters.cloneFailed'));
  const toasts = useToasts();
  const formId = useId();

  const errors = adapterErrors(form);
  const rowErrors = editing ? fieldErrors(editing.draft, form.fields) : {};
  const busy = save.busy || remove.busy || clone.busy;
  const invalid = !isEmpty(errors) || editing !== null;
  const set = (patch: Partial<AdapterForm>) => {
    setTouched(true);
    setForm((f) => ({ ...f, ...patch }));
  };

  const addField = () => {
    const draft = emptyFieldRow();
    set({ fields: [...form.fields, draft] });
    setEditing({ draft, added: true });
  };
  const doneField = () => {
    if (!editing || !isEmpty(fieldErrors(editing.draft, form.fields))) return;
    set({ fields: form.fields.map((r) => (r.key === editing.draft.key ? editing.draft : r)) });
    setEditing(null);
  };
  const cancelField = () => {
    if (editing?.added) set({ fields: form.fields.filter((r) => r.key !== editing.draft.key) });
    setEditing(null);
  };

  const submit = async () => {
    if (invalid || busy) return;
    let saved: Adapter | null = null;
    const ok = await save.run(async () => {
      saved = adapter
        ? await api.request<Adapter>(adapterPath(company, adapter.id), {
            method: 'PUT',
            body: adapterBody(form),
          })
        : await api.request<Adapter>(adapterUrl(company), { method: 'POST', body: adapterBody(form) });
    });
    if (!ok || !saved) return;
    const done: Adapter = saved;
    toasts.show({
      message: t(adapter ? 'internal.adapters.saved' : 'internal.adapters.created', { name: done.name }),
      tone: 'success',
    });
    setTouched(false);
    onChanged();
    if (!adapter) onOpen(done.id);
  };

  const doClone = async () => {
    if (!adapter) return;
    let copy: Adapter | null = null;
    const ok = await clone.run(async () => {
      copy = await api.request<Adapter>(adapterPath(company, adapter.id, '/clone'), {
        method: 'POST',
        body: {},
      });
    });
    if (!ok || !copy) return;
    const made: Adapter = copy;
    toasts.show({ message: t('internal.adapters.cloned', { name: made.name }), tone: 'success' });
    onChanged();
    onOpen(made.id);
  };

  const doDelete = async () => {
    if (!adapter) return;
    const ok = await remove.run(() => api.request(adapterPath(company, adapter.id), { method: 'DELETE' }));
    if (!ok) return;
    setConfirming(null);
    toasts.show({ message: t('internal.adapters.deleted', { name: adapter.name }), tone: 'success' });
    onChanged();
    onClose();
  };

  const familyName = adapter?.family
    ? (adapters.find((a) => a.id === adapter.family?.id)?.name ?? null)
    : null;
  const classKnown = types.some((x) => x.name === form.className);

  return (
    <section className="adapters-editor" aria-labelledby={`${formId}-title`}>
      <div className="adapters-editor__head">
        <h2 id={`${formId}-title`}>
          {adapter
            ? t('internal.adapters.editTitle', { name: adapter.name })
            : t('internal.adapters.newTitle')}
        </h2>
        {adapter && (
          <p className="admin__hint">
            {[
              adapter.family
                ? familyName
                  ? t('internal.adapters.family', { name: familyName })
                  : t('internal.adapters.familyUnknown')
                : null,
              adapter.autogenerated ? t('internal.adapters.autogenerated') : null,
              t('internal.adapters.field.count', { count: adapter.fields.length }),
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
        )}
      </div>
      <form
        id={formId}
        className="admin__form adapters-editor__form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <FormErrorBox error={save.error ?? clone.error} />
        <div className="adapters-editor__props">
          <Field label={t('internal.adapters.name')} error={touched || adapter ? errors.name : undefined}>
            {(p) => (
              <input
                {...p}
                value={form.name}
                autoComplete="off"
                maxLength={300}
                onChange={(e) => set({ name: e.target.value })}
              />
            )}
          </Field>
          <Field label={t('internal.adapters.class')}>
            {(p) => (
              <select {...p} value={form.className} onChange={(e) => set({ className: e.target.value })}>
                {!classKnown && <option value={form.className}>{form.className}</option>}
                {types.map((x) => (
                  <option key={x.id} value={x.name}>
                    {x.displayName}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label={t('internal.adapters.notes')}
            hint={t('internal.adapters.notesHint', { count: form.notes.length })}
            error={errors.notes}
          >
            {(p) => (
              <textarea {...p} rows={2} value={form.notes} onChange={(e) => set({ notes: e.target.value })} />
            )}
          </Field>
          <Field
            label={t('internal.adapters.config')}
            hint={t('internal.adapters.configHint')}
            error={errors.config}
          >
            {(p) => (
              <textarea
                {...p}
                className="adapters-editor__config"
                rows={3}
                spellCheck={false}
                value={form.config}
                onChange={(e) => set({ config: e.target.value })}
              />
            )}
          </Field>
          <label className="admin__check">
            <input
              type="checkbox"
              checked={form.incomplete}
              onChange={(e) => set({ incomplete: e.target.checked })}
            />
            {t('internal.adapters.incomplete')}
          </label>
        </div>
      </form>

      <div className="adapters-editor__fields">
        <div className="adapters-editor__fields-head">
          <h3>
            {t('internal.adapters.fieldsTitle')}{' '}
            <span className="adapters__count">({form.fields.length})</span>
          </h3>
          <button type="button" className="button" disabled={busy || editing !== null} onClick={addField}>
            {t('internal.adapters.field.add')}
          </button>
        </div>
        <p className="admin__hint">{t('internal.adapters.fieldsIntro')}</p>
        <FieldsTable
          rows={form.fields}
          editing={editing?.draft ?? null}
          errors={rowErrors}
          suggestions={dataItems}
          disabled={busy}
          onEdit={(row) => setEditing({ draft: { ...row }, added: false })}
          onRemove={(row) => set({ fields: form.fields.filter((r) => r.key !== row.key) })}
          onChange={(patch) => setEditing((e) => e && { ...e, draft: { ...e.draft, ...patch } })}
          onDone={doneField}
          onCancel={cancelField}
        />
      </div>

      <div className="adapters-editor__foot">
        {editing && <p className="admin__hint">{t('internal.adapters.unsavedField')}</p>}
        <div className="modal__buttons">
          {adapter && (
            <>
              <button
                type="button"
                className="button button--danger"
                disabled={busy}
                onClick={() => {
                  remove.clear();
                  setConfirming('delete');
                }}
              >
                {t('internal.adapters.delete')}
              </button>
              <button type="button" className="button" disabled={busy} onClick={() => void doClone()}>
                {t('internal.adapters.clone')}
              </button>
            </>
          )}
          <button type="button" className="button" disabled={busy} onClick={onClose}>
            {t('admin.cancel')}
          </button>
          <button type="submit" form={formId} className="button button--primary" disabled={invalid || busy}>
            {save.busy
              ? t('admin.saving')
              : t(adapter ? 'internal.adapters.save' : 'internal.adapters.create')}
          </button>
        </div>
      </div>

      {confirming === 'delete' && adapter && (
        <ConfirmDialog
          title={t('internal.adapters.deleteTitle', { name: adapter.name })}
          confirmLabel={t('internal.adapters.delete')}
          onConfirm={() => void doDelete()}
          onClose={() => setConfirming(null)}
          busy={remove.busy}
          error={remove.error}
        >
          <p className="modal__hint">{t('internal.adapters.deleteBody', { count: adapter.fields.length })}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
