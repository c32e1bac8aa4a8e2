import { t, useToasts } from '@takt/ui';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  AdminTable,
  ConfirmDialog,
  LoadedView,
  RowButton,
  useLoaded,
  useSubmit,
} from '../../admin/AdminParts';
import { api } from '../../api';
import { InternalPage } from '../InternalParts';
import { AdapterEditor, adapterPath } from './AdapterEditor';
import type { Adapter, AdapterType } from './adapters';
import { sortAdapters, typeLabel } from './adapters';
import { ImportAdapterModal } from './ImportAdapterModal';
import './adapters.css';

// Internal adapter admin (reports-admin §2 "Internal screens": "list, create, edit, delete, import or clone;
// fields and data item with subtype; direct open with adapterId query parameter"); root users only, the
// API answers 403 to anyone else. The open adapter lives in the URL (?adapterId=), so a link opens it.

interface Loaded {
  adapters: Adapter[];
  types: AdapterType[];
}

const load = async (signal: AbortSignal): Promise<Loaded> => {
  const [adapters, types] = await Promise.all([
    api.request<Adapter[]>('/api/adapters', { signal }),
    api.request<AdapterType[]>('/api/adapters/types', { signal }),
  ]);
  return { adapters: sortAdapters(adapters), types };
};

export default function AdaptersPage() {
  const [state, reload] = useLoaded(load);
  const [params, setParams] = useSearchParams();
  const adapterId = params.get('adapterId');
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState<Adapter | null>(null);
  const remove = useSubmit(t('internal.adapters.deleteFailed'));
  const clone = useSubmit(t('internal.adapters.cloneFailed'));
  const toasts = useToasts();

  const open = (id: string) => {
    setCreating(false);
    setImporting(false);
    setParams({ adapterId: id });
    window.scrollTo?.(0, 0);
  };
  const closeEditor = () => {
    setCreating(false);
    setParams({});
  };
  const editorOpen = creating || adapterId !== null;

  const doClone = async (a: Adapter) => {
    let copy: Adapter | null = null;
    const ok = await clone.run(async () => {
      copy = await api.request<Adapter>(adapterPath(a.id, '/clone'), { method: 'POST', body: {} });
    });
    if (!ok || !copy) {
      toasts.show({ message: t('internal.adapters.cloneFailed'), tone: 'error' });
      return;
    }
    const made: Adapter = copy;
    toasts.show({ message: t('internal.adapters.cloned', { name: made.name }), tone: 'success' });
    reload();
    open(made.id);
  };

  const doDelete = async () => {
    if (!deleting) return;
    const ok = await remove.run(() => api.request(adapterPath(deleting.id), { method: 'DELETE' }));
    if (!ok) return;
    toasts.show({ message: t('internal.adapters.deleted', { name: deleting.name }), tone: 'success' });
    setDeleting(null);
    reload();
  };

  return (
    <InternalPage
      title="internal.adapters.title"
      intro={editorOpen ? undefined : t('internal.adapters.intro')}
      actions={
        <>
          <button type="button" className="button" onClick={() => setImporting(true)}>
            {t('internal.adapters.import')}
          </button>
          {!editorOpen && (
            <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
              {t('internal.adapters.new')}
            </button>
          )}
        </>
      }
    >
      {editorOpen && (
        <p className="adapters__all">
          <a
            href="?"
            onClick={(e) => {
              e.preventDefault();
              closeEditor();
            }}
          >
            {t('internal.adapters.all')}
          </a>
        </p>
      )}
      <LoadedView state={state} retry={reload}>
        {({ adapters, types }) =>
          editorOpen ? (
            <AdapterEditor
              key={adapterId ?? 'new'}
              id={adapterId}
              types={types}
              adapters={adapters}
              onOpen={open}
              onClose={closeEditor}
              onChanged={reload}
            />
          ) : adapters.length === 0 ? (
            <p className="notice">{t('internal.adapters.empty')}</p>
          ) : (
            <div className="adapters-list">
              <AdminTable
                caption={t('internal.adapters.caption')}
                status={false}
                headers={[
                  t('internal.adapters.col.name'),
                  t('internal.adapters.col.type'),
                  t('internal.adapters.col.fields'),
                  t('internal.adapters.col.notes'),
                ]}
              >
                {adapters.map((a) => (
                  <tr key={a.id}>
                    <th scope="row" data-label={t('internal.adapters.col.name')}>
                      <a
                        href={`?adapterId=${encodeURIComponent(a.id)}`}
                        onClick={(e) => {
                          e.preventDefault();
                          open(a.id);
                        }}
                      >
                        {a.name}
                      </a>
                      {a.incomplete && (
                        <span className="adapters__tag">{t('internal.adapters.incompleteTag')}</span>
                      )}
                    </th>
                    <td data-label={t('internal.adapters.col.type')}>{typeLabel(types, a.class)}</td>
                    <td data-label={t('internal.adapters.col.fields')} className="adapters__num">
                      {a.fields.length}
                    </td>
                    <td data-label={t('internal.adapters.col.notes')} className="adapters__notes">
                      {a.notes || t('common.none')}
                    </td>
                    <td className="admin-table__actions">
                      <RowButton
                        text={t('internal.adapters.open')}
                        label={t('internal.adapters.openLabel', { name: a.name })}
                        onClick={() => open(a.id)}
                      />
                      <RowButton
                        text={t('internal.adapters.clone')}
                        label={t('internal.adapters.cloneLabel', { name: a.name })}
                        disabled={clone.busy}
                        onClick={() => void doClone(a)}
                      />
                      <RowButton
                        text={t('internal.adapters.delete')}
                        label={t('internal.adapters.deleteLabel', { name: a.name })}
                        danger
                        onClick={() => {
                          remove.clear();
                          setDeleting(a);
                        }}
                      />
                    </td>
                  </tr>
                ))}
              </AdminTable>
            </div>
          )
        }
      </LoadedView>

      {deleting && (
        <ConfirmDialog
          title={t('internal.adapters.deleteTitle', { name: deleting.name })}
          confirmLabel={t('internal.adapters.delete')}
          onConfirm={() => void doDelete()}
          onClose={() => setDeleting(null)}
          busy={remove.busy}
          error={remove.error}
        >
          <p className="modal__hint">
            {t('internal.adapters.deleteBody', { count: deleting.fields.length })}
          </p>
        </ConfirmDialog>
      )}
      {importing && (
        <ImportAdapterModal onClose={() => setImporting(false)} onOpen={open} onChanged={reload} />
      )}
    </InternalPage>
  );
}
