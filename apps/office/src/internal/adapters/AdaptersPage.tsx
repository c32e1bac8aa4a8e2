import { t, useSession, useToasts } from '@takt/ui';
import { useEffect, useRef, useState } from 'react';
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
import { AdapterEditor } from './AdapterEditor';
import type { Adapter, AdapterType } from './adapters';
import { adapterPath, adaptersSearch, adapterUrl, sortAdapters, typeLabel } from './adapters';
import { CompanyChoice, useCompanyOptions } from '../CompanyChoice';
import { ImportAdapterModal } from './ImportAdapterModal';
import './adapters.css';

// Internal adapter admin (reports-admin §2 "Internal screens": "list, create, edit, delete, import or clone;
// fields and data item with subtype; direct open with adapterId query parameter"); root users only, the
// API answers 403 to anyone else. The open adapter lives in the URL (?adapterId=), so a link opens it, and so
// does the chosen company (?companyId=, decision 0946): the adapters listed, imported and created are its.

interface Loaded {
  /** The company these adapters belong to (null: the user's own). */
  company: string | null;
  adapters: Adapter[];
  types: AdapterType[];
}

const load = async (company: string | null, signal: AbortSignal): Promise<Loaded> => {
  const [adapters, types] = await Promise.all([
    api.request<Adapter[]>(adapterUrl(company), { signal }),
    api.request<AdapterType[]>(adapterUrl(company, '/types'), { signal }),
  ]);
  return { company, adapters: sortAdapters(adapters), types };
};

export default function AdaptersPage() {
  const { me } = useSession();
  const [params, setParams] = useSearchParams();
  const adapterId = params.get('adapterId');
  const chosen = params.get('companyId');
  const company = chosen === me.company.id ? null : chosen;
  const companies = useCompanyOptions(me.company);
  const [loaded, reload] = useLoaded((signal) => load(company, signal));
  // Another company chosen: load its adapters; the previous company's list is not shown meanwhile.
  const loadedFor = useRef(company);
  useEffect(() => {
    if (loadedFor.current === company) return;
    loadedFor.current = company;
    reload();
  }, [company, reload]);
  const state =
    loaded.kind === 'ready' && loaded.data.company !== company ? { kind: 'loading' as const } : loaded;
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState<Adapter | null>(null);
  const remove = useSubmit(t('internal.adapters.deleteFailed'));
  const clone = useSubmit(t('internal.adapters.cloneFailed'));
  const toasts = useToasts();

  const open = (id: string) => {
    setCreating(false);
    setImporting(false);
    setParams(adaptersSearch(me.company.id, company, id));
    window.scrollTo?.(0, 0);
  };
  const closeEditor = () => {
    setCreating(false);
    setParams(adaptersSearch(me.company.id, company));
  };
  /** An open adapter belongs to the previous company: the choice goes back to the list. */
  const choose = (id: string) => {
    setCreating(false);
    setParams(adaptersSearch(me.company.id, id));
  };
  const editorOpen = creating || adapterId !== null;

  const doClone = async (a: Adapter) => {
    let copy: Adapter | null = null;
    const ok = await clone.run(async () => {
      copy = await api.request<Adapter>(adapterPath(company, a.id, '/clone'), { method: 'POST', body: {} });
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
    const ok = await remove.run(() => api.request(adapterPath(company, deleting.id), { method: 'DELETE' }));
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
      <div className="admin__toolbar adapters__company">
        <CompanyChoice
          value={company ?? me.company.id}
          companies={companies}
          onChange={choose}
          hint={t('internal.adapters.companyHint')}
        />
      </div>
      {editorOpen && (
        <p className="adapters__all">
          <a
            href={`?${new URLSearchParams(adaptersSearch(me.company.id, company))}`}
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
              key={`${company ?? ''}:${adapterId ?? 'new'}`}
              id={adapterId}
              company={company}
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
                        href={`?${new URLSearchParams(adaptersSearch(me.company.id, company, a.id))}`}
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
        <ImportAdapterModal
          company={company ?? me.company.id}
          ownCompany={me.company.id}
          companies={companies}
          onCompany={choose}
          onClose={() => setImporting(false)}
          onOpen={open}
          onChanged={reload}
        />
      )}
    </InternalPage>
  );
}
