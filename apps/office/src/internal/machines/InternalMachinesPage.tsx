import type { InternalMachine, InternalMachinePage, InternalMachineSort } from '@takt/domain';
import { INTERNAL_MACHINE_SORTS } from '@takt/domain';
import { Progress, t, useSession, useToasts } from '@takt/ui';
import { useEffect, useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../../api';
import { AdminTableHead, Field, FormDialog, RowButton, useSubmit } from '../../admin/AdminParts';
import { InternalPage } from '../InternalParts';
import {
  pageCount,
  pickSort,
  queryOf,
  searchFromState,
  shownRange,
  sortBy,
  stateFromSearch,
} from './machines';
import type { MachineListState } from './machines';

// reports-admin §2 "Internal machine list: 25 per page, search, sort by Name, Added Date, Decommissioned Date,
// Company, Payer, Make, Model, Integration Type, Root Machine; default createdAt descending; filter and sort kept
// in URL", §7 getAllMachines (decision 0923). Calls /api/internal/machines.

/** Typing in the search asks the server once the typing pauses. */
const SEARCH_DEBOUNCE_MS = 300;

type Loaded = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; data: InternalMachinePage };
type Editing = { machine: InternalMachine; make: string; model: string; payer: string };

export function InternalMachinesPage() {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => stateFromSearch(params), [params]);
  const key = searchFromState(state).toString();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [round, setRound] = useState(0);
  const [typed, setTyped] = useState(state.filter);
  const [editing, setEditing] = useState<Editing | null>(null);
  const save = useSubmit(t('internal.machines.saveFailed'));
  const toasts = useToasts();
  const { me } = useSession();
  const searchId = useId();

  const go = (next: MachineListState, replace = false) => setParams(searchFromState(next), { replace });

  useEffect(() => {
    const controller = new AbortController();
    setLoaded((l) => (l.kind === 'ready' ? l : { kind: 'loading' }));
    api
      .request<InternalMachinePage>('/api/internal/machines', {
        signal: controller.signal,
        query: { ...queryOf(stateFromSearch(new URLSearchParams(key))) },
      })
      .then((data) => setLoaded({ kind: 'ready', data }))
      .catch(() => {
        if (!controller.signal.aborted) setLoaded({ kind: 'failed' });
      });
    return () => controller.abort();
  }, [key, round]);

  // The URL changed from outside (back button, a bookmark): the box shows its search.
  useEffect(() => setTyped(state.filter), [state.filter]);
  useEffect(() => {
    if (typed === state.filter) return;
    const timer = setTimeout(() => go({ ...state, filter: typed, page: 1 }, true), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the typed text starts a search
  }, [typed]);

  const dateFormat = useMemo(
    () => new Intl.DateTimeFormat(me.company.locale, { dateStyle: 'medium', timeZone: me.company.timezone }),
    [me.company.locale, me.company.timezone],
  );
  const day = (ms: number | null) => (ms === null ? t('internal.machines.inService') : dateFormat.format(ms));
  const label = (k: InternalMachineSort) => t(`internal.machines.col.${k}`);

  const submit = async () => {
    if (!editing) return;
    const { machine, make, model, payer } = editing;
    const ok = await save.run(() =>
      api.request(`/api/internal/machines/${encodeURIComponent(machine.id)}`, {
        method: 'PUT',
        body: { make: make.trim() || null, model: model.trim() || null, payer: payer.trim() || null },
      }),
    );
    if (!ok) return;
    setEditing(null);
    toasts.show({ message: t('internal.machines.saved', { name: machine.name }), tone: 'success' });
    setRound((r) => r + 1);
  };

  const data = loaded.kind === 'ready' ? loaded.data : null;
  const pages = data ? pageCount(data.total) : 1;
  const tooLong = (v: string) => (v.trim().length > 250 ? t('internal.machines.tooLong') : undefined);
  const editErrors = editing
    ? { make: tooLong(editing.make), model: tooLong(editing.model), payer: tooLong(editing.payer) }
    : {};

  return (
    <InternalPage
      title="internal.machines.title"
      intro={t('internal.machines.intro')}
      busy={loaded.kind === 'loading'}
    >
      <div className="admin__toolbar internal-machines__tools" role="search">
        <div className="field internal-machines__search">
          <label htmlFor={searchId}>{t('internal.machines.search')}</label>
          <input
            id={searchId}
            type="search"
            value={typed}
            placeholder={t('internal.machines.searchPlaceholder')}
            autoComplete="off"
            onChange={(e) => setTyped(e.target.value)}
          />
        </div>
        <Field label={t('internal.machines.sortBy')}>
          {(p) => (
            <select
              {...p}
              value={state.orderBy}
              onChange={(e) => go(pickSort(state, e.target.value as InternalMachineSort))}
            >
              {INTERNAL_MACHINE_SORTS.map((k) => (
                <option key={k} value={k}>
                  {label(k)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('internal.machines.direction')}>
          {(p) => (
            <select
              {...p}
              value={state.orderDirection}
              onChange={(e) => go({ ...state, orderDirection: e.target.value as 'asc' | 'desc', page: 1 })}
            >
              <option value="asc">{t('internal.machines.asc')}</option>
              <option value="desc">{t('internal.machines.desc')}</option>
            </select>
          )}
        </Field>
      </div>

      {loaded.kind === 'loading' && <Progress />}
      {loaded.kind === 'failed' && (
        <div className="notice notice--error admin__failed" role="alert">
          <span>{t('admin.loadFailed')}</span>
          <button type="button" className="button" onClick={() => setRound((r) => r + 1)}>
            {t('admin.retry')}
          </button>
        </div>
      )}
      {data &&
        (data.items.length === 0 ? (
          <p className="notice" role="status">
            {state.filter
              ? t('internal.machines.emptySearch', { filter: state.filter })
              : t('internal.machines.empty')}
          </p>
        ) : (
          <>
            <p className="admin__hint" role="status">
              {t('internal.machines.range', shownRange(state.page, data.items.length, data.total))}
            </p>
            <div className="admin-table-wrap">
              <table className="admin-table internal-machines">
                <caption className="visually-hidden">{t('internal.machines.caption')}</caption>
                <AdminTableHead>
                  {INTERNAL_MACHINE_SORTS.map((k) => {
                    const active = state.orderBy === k;
                    return (
                      <th
                        key={k}
                        scope="col"
                        aria-sort={
                          active ? (state.orderDirection === 'asc' ? 'ascending' : 'descending') : 'none'
                        }
                      >
                        <button type="button" className="th-button" onClick={() => go(sortBy(state, k))}>
                          {label(k)}
                          <span aria-hidden="true">
                            {active ? (state.orderDirection === 'asc' ? ' ▲' : ' ▼') : ''}
                          </span>
                        </button>
                      </th>
                    );
                  })}
                </AdminTableHead>
                <tbody>
                  {data.items.map((m) => (
                    <tr
                      key={m.id}
                      className={m.decommissionedAt !== null ? 'admin-table__archived' : undefined}
                    >
                      <th scope="row" data-label={label('name')}>
                        {m.name}
                        {/* reports-admin §3 Machine billingDate, integratedAt (decision 1111): under the name, so
                            the ten columns still fit a 1280 px screen. */}
                        <span className="admin__hint internal-machines__line">
                          {t('internal.machines.billed', { date: m.billingDate ?? t('common.none') })}
                        </span>
                        <span className="admin__hint internal-machines__line">
                          {t('internal.machines.integrated', {
                            date:
                              m.integratedAt === null ? t('common.none') : dateFormat.format(m.integratedAt),
                          })}
                        </span>
                      </th>
                      <td data-label={label('createdAt')} className="internal-nowrap">
                        {day(m.createdAt)}
                      </td>
                      <td data-label={label('decommissionedAt')} className="internal-nowrap">
                        {day(m.decommissionedAt)}
                      </td>
                      <td data-label={label('company')} className="internal-wrap">
                        {m.company}
                      </td>
                      <td data-label={label('payer')} className="internal-wrap">
                        {m.payer ?? t('common.none')}
                      </td>
                      <td data-label={label('make')}>{m.make ?? t('common.none')}</td>
                      <td data-label={label('model')}>{m.model ?? t('common.none')}</td>
                      <td data-label={label('integrationType')}>
                        {t(`internal.machines.integration.${m.integrationType}`)}
                      </td>
                      <td data-label={label('rootMachine')}>
                        {t(m.rootMachine ? 'internal.machines.yes' : 'internal.machines.no')}
                      </td>
                      <td className="admin-table__actions">
                        <RowButton
                          text={t('admin.edit')}
                          label={t('internal.machines.editNamed', { name: m.name })}
                          onClick={() => {
                            save.clear();
                            setEditing({
                              machine: m,
                              make: m.make ?? '',
                              model: m.model ?? '',
                              payer: m.payer ?? '',
                            });
                          }}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <nav className="internal-pager" aria-label={t('internal.machines.pages')}>
              <button
                type="button"
                className="button"
                disabled={state.page <= 1}
                onClick={() => go({ ...state, page: state.page - 1 })}
              >
                {t('internal.machines.previous')}
              </button>
              <span className="admin__mono">{t('internal.machines.page', { page: state.page, pages })}</span>
              <button
                type="button"
                className="button"
                disabled={state.page >= pages}
                onClick={() => go({ ...state, page: state.page + 1 })}
              >
                {t('internal.machines.next')}
              </button>
            </nav>
          </>
        ))}

      {editing && (
        <FormDialog
          title={t('internal.machines.editTitle', {
            name: editing.machine.name,
            company: editing.machine.company,
          })}
          onClose={() => setEditing(null)}
          onSubmit={() => void submit()}
          invalid={Object.values(editErrors).some(Boolean)}
          busy={save.busy}
          error={save.error}
        >
          <div className="admin__pair internal-pair">
            <Field label={label('make')} error={editErrors.make}>
              {(p) => (
                <input
                  {...p}
                  value={editing.make}
                  autoComplete="off"
                  onChange={(e) => setEditing({ ...editing, make: e.target.value })}
                />
              )}
            </Field>
            <Field label={label('model')} error={editErrors.model}>
              {(p) => (
                <input
                  {...p}
                  value={editing.model}
                  autoComplete="off"
                  onChange={(e) => setEditing({ ...editing, model: e.target.value })}
                />
              )}
            </Field>
          </div>
          <Field label={label('payer')} hint={t('internal.machines.payerHint')} error={editErrors.payer}>
            {(p) => (
              <input
                {...p}
                value={editing.payer}
                autoComplete="off"
                onChange={(e) => setEditing({ ...editing, payer: e.target.value })}
              />
            )}
          </Field>
        </FormDialog>
      )}
    </InternalPage>
  );
}
