import {
  Progress,
  formatDateTime,
  formatTimeOfDay,
  localeZone,
  t,
  useSession,
  usePolling,
  useToasts,
} from '@takt/ui';
import { useCallback, useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../../api';
import { InternalPage } from '../InternalParts';
import { GatewayModal } from './GatewayModal';
import type { GatewayResult, ModalMode } from './GatewayModal';
import { TokenDialog } from './TokenDialog';
import {
  COLUMNS,
  GATEWAY_POLL_MS,
  agoText,
  cloneForm,
  columnLabel,
  listQuery,
  newGatewayForm,
  readListState,
  sortBy,
  writeListState,
} from './gateways';
import type { Column, CompanyOption, GatewayRow, IssuedToken, ListState } from './gateways';
import '../../admin/admin.css';
import './gateways.css';

// The internal gateway list (reports-admin §2 "Internal screens": Gateway list; §9 buffer and last-response
// danger; §7 gateway status polled every 15 s), root users only. Sort and filters live in the URL; the
// gateway modal opens over it (and from a link, `?gateway=<id>`).

export default function GatewaysPage() {
  const { me } = useSession();
  const [params, setParams] = useSearchParams();
  const state = readListState(params);
  const query = listQuery(state);
  const list = usePolling(
    (signal) => api.request<GatewayRow[]>(`/api/gateways?${query}`, { signal }),
    GATEWAY_POLL_MS,
    query,
  );
  const [companies, setCompanies] = useState<CompanyOption[] | null>(null);
  const [creating, setCreating] = useState<Extract<ModalMode, { kind: 'create' }> | null>(null);
  const [issued, setIssued] = useState<IssuedToken | null>(null);
  const toasts = useToasts();
  const zone = localeZone(me);
  const filtersHintId = useId();

  // The companies to choose from, fresh each time a dialog opens (one may have been created meanwhile).
  const dialogOpen = creating !== null || state.open !== null;
  useEffect(() => {
    if (!dialogOpen) return;
    const controller = new AbortController();
    api
      .request<CompanyOption[]>('/api/gateways/companies', { signal: controller.signal })
      .then(setCompanies)
      .catch(() => {
        if (!controller.signal.aborted) setCompanies(null);
      });
    return () => controller.abort();
  }, [dialogOpen]);

  const go = useCallback(
    (next: ListState, replace = false) => setParams(writeListState(next), { replace }),
    [setParams],
  );

  const onResult = (r: GatewayResult) => {
    const name = r.gateway.name;
    if (r.kind === 'clone') {
      go({ ...state, open: null }, true);
      setCreating({ kind: 'create', from: r.gateway, form: cloneForm(r.gateway) });
      return;
    }
    setCreating(null);
    if (r.kind === 'delete') {
      toasts.show({ message: t('internal.gateways.done.delete', { name }), tone: 'success' });
      go({ ...state, open: null, selected: state.selected === r.gateway.id ? null : state.selected });
    } else if (r.kind === 'select') {
      go({ ...state, open: null, selected: r.gateway.id });
    } else {
      toasts.show({ message: t('internal.gateways.done.update', { name }), tone: 'success' });
      go({ ...state, open: null, selected: r.gateway.id });
    }
    list.refresh();
  };

  const rows = list.data ?? [];
  const filtered = state.unactivated || state.inactiveCompanies;

  return (
    <InternalPage
      title="internal.gateways.title"
      intro={t('internal.gateways.intro')}
      busy={list.loading && !list.data}
      actions={
        <button
          type="button"
          className="button button--primary"
          onClick={() => setCreating({ kind: 'create', form: newGatewayForm() })}
        >
          {t('internal.gateways.create')}
        </button>
      }
    >
      <div className="gateways__tools">
        <fieldset className="admin__segmented" aria-describedby={filtersHintId}>
          <legend>{t('internal.gateways.filters')}</legend>
          <Filter
            label={t('internal.gateways.filter.unactivated')}
            checked={state.unactivated}
            onChange={(v) => go({ ...state, unactivated: v })}
          />
          <Filter
            label={t('internal.gateways.filter.inactiveCompanies')}
            checked={state.inactiveCompanies}
            onChange={(v) => go({ ...state, inactiveCompanies: v })}
          />
        </fieldset>
        <SortPicker state={state} onChange={go} />
      </div>
      <p className="admin__hint" id={filtersHintId}>
        {t('internal.gateways.filter.unactivated')}: {t('internal.gateways.filter.unactivatedHint')}{' '}
        {t('internal.gateways.filter.inactiveCompanies')}:{' '}
        {t('internal.gateways.filter.inactiveCompaniesHint')}
      </p>

      {list.loading && !list.data ? (
        <Progress />
      ) : list.error && !list.data ? (
        <div className="notice notice--error admin__failed" role="alert">
          <span>{t('admin.loadFailed')}</span>
          <button type="button" className="button" onClick={list.refresh}>
            {t('admin.retry')}
          </button>
        </div>
      ) : rows.length === 0 ? (
        <p className="notice" role="status">
          {t(filtered ? 'internal.gateways.emptyFiltered' : 'internal.gateways.empty')}
        </p>
      ) : (
        <>
          <p className="admin__hint gateways__count">
            {rows.length === 1
              ? t('internal.gateways.countOne')
              : t('internal.gateways.count', { count: rows.length })}
            {list.lastSuccessAt !== null &&
              ` · ${t('internal.gateways.refreshed', { time: formatTimeOfDay(list.lastSuccessAt, zone) })}`}
          </p>
          <GatewayTable
            rows={rows}
            state={state}
            zone={zone}
            now={list.lastSuccessAt ?? Date.now()}
            onSort={(c) => go(sortBy(state, c), true)}
            onOpen={(id) => go({ ...state, open: id })}
          />
        </>
      )}

      {creating && (
        <GatewayModal
          key={creating.from?.id ?? 'new'}
          mode={creating}
          companies={companies}
          onClose={() => setCreating(null)}
          onResult={onResult}
          onToken={setIssued}
          onChanged={list.refresh}
        />
      )}
      {!creating && state.open && (
        <GatewayModal
          key={state.open}
          mode={{ kind: 'edit', id: state.open }}
          companies={companies}
          onClose={() => go({ ...state, open: null })}
          onResult={onResult}
          onToken={setIssued}
          onChanged={list.refresh}
        />
      )}
      {issued && <TokenDialog issued={issued} onClose={() => setIssued(null)} />}
    </InternalPage>
  );
}

function Filter({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <label className="admin__check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** Sorting where the column headers are not shown (the phone's cards). */
function SortPicker({
  state,
  onChange,
}: {
  state: ListState;
  onChange: (s: ListState, replace?: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="gateways__sort">
      <label htmlFor={id}>{t('internal.gateways.sortBy')}</label>
      <select
        id={id}
        value={state.sort}
        onChange={(e) => onChange({ ...state, sort: e.target.value as Column }, true)}
      >
        {COLUMNS.map((c) => (
          <option key={c} value={c}>
            {columnLabel(c)}
          </option>
        ))}
      </select>
      <select
        aria-label={t('internal.gateways.sortBy')}
        value={state.direction}
        onChange={(e) => onChange({ ...state, direction: e.target.value === 'desc' ? 'desc' : 'asc' }, true)}
      >
        <option value="asc">{t('internal.gateways.sortAsc')}</option>
        <option value="desc">{t('internal.gateways.sortDesc')}</option>
      </select>
    </div>
  );
}

const count = (n: number | null) => (n === null ? t('common.none') : n.toLocaleString());

function GatewayTable({
  rows,
  state,
  zone,
  now,
  onSort,
  onOpen,
}: {
  rows: GatewayRow[];
  state: ListState;
  zone: { locale: string; timeZone: string };
  /** When the list was answered: the time columns say how long ago. */
  now: number;
  onSort: (c: Column) => void;
  onOpen: (id: string) => void;
}) {
  const when = (ms: number | null) =>
    ms === null ? (
      t('internal.gateways.never')
    ) : (
      <time dateTime={new Date(ms).toISOString()} title={formatDateTime(ms, zone)}>
        {agoText(ms, now)}
      </time>
    );
  return (
    <div className="admin-table-wrap gateways__wrap">
      <table className="admin-table gateways__table">
        <caption className="visually-hidden">{t('internal.gateways.caption')}</caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => {
              const active = state.sort === c;
              return (
                <th
                  key={c}
                  scope="col"
                  aria-sort={active ? (state.direction === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  <button type="button" className="gateways__sort-button" onClick={() => onSort(c)}>
                    {columnLabel(c)}
                    {active && (
                      <span aria-hidden="true" className="gateways__arrow">
                        {state.direction === 'asc' ? '▲' : '▼'}
                      </span>
                    )}
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((g) => {
            const bufferDanger = g.bufferTone === 'danger';
            const responseDanger = g.lastResponseTone === 'danger';
            return (
              <tr key={g.id} className={state.selected === g.id ? 'gateways__selected' : undefined}>
                <td data-label={columnLabel('company')} className="gateways__wrapping">
                  <span>
                    {g.company?.name ?? (
                      <span className="admin__hint">{t('internal.gateways.noCompany')}</span>
                    )}
                  </span>
                </td>
                <th scope="row" data-label={columnLabel('name')} className="gateways__wrapping">
                  <button
                    type="button"
                    className="gateways__open"
                    aria-label={t('internal.gateways.open', { name: g.name })}
                    onClick={() => onOpen(g.id)}
                  >
                    {g.name}
                  </button>
                  {state.selected === g.id && (
                    <span className="gateways__badge">{t('internal.gateways.selected')}</span>
                  )}
                  <span className="gateways__health-cell">
                    <span className="gateways__badges">
                      <span className={`gateways__health gateways__health--${g.health.tone}`}>
                        {g.health.label}
                      </span>
                      {g.state !== 'active' && (
                        <span className="gateways__health gateways__health--inactive">
                          {t('internal.gateways.state.inactive')}
                        </span>
                      )}
                    </span>
                    {g.lastResponse !== null && (
                      <span className={`gateways__response${responseDanger ? ' gateways__danger' : ''}`}>
                        {responseDanger && <span aria-hidden="true">⚠ </span>}
                        {t('internal.gateways.col.lastResponse')} {when(g.lastResponse)}
                        {responseDanger && (
                          <span className="visually-hidden">
                            {' '}
                            ({t('internal.gateways.lastResponseDanger')})
                          </span>
                        )}
                      </span>
                    )}
                  </span>
                </th>
                <td data-label={columnLabel('assetSerial')}>{g.assetSerial ?? t('common.none')}</td>
                <td data-label={columnLabel('id')} className="admin__mono gateways__id" title={g.id}>
                  {g.id.slice(0, 8)}
                </td>
                <td data-label={columnLabel('edgeRef')}>{g.edgeRef ?? t('common.none')}</td>
                <td data-label={columnLabel('machines')} className="gateways__num">
                  {g.nonRootMachineCount}
                </td>
                <td data-label={columnLabel('rootMachines')} className="gateways__num">
                  {g.rootMachineCount}
                </td>
                <td data-label={columnLabel('balena')}>{g.resinUUID ?? t('common.none')}</td>
                <td data-label={columnLabel('supervisorVersion')}>
                  {g.supervisor.version ?? t('common.none')}
                </td>
                <td data-label={columnLabel('bufferSize')} className="gateways__num">
                  <span className={bufferDanger ? 'gateways__danger' : undefined}>
                    {bufferDanger && <span aria-hidden="true">⚠ </span>}
                    {count(g.bufferedRecords)}
                    {bufferDanger && (
                      <span className="visually-hidden"> ({t('internal.gateways.bufferDanger')})</span>
                    )}
                  </span>
                </td>
                <td data-label={columnLabel('supervisorLastJoin')}>{when(g.supervisorLastJoin)}</td>
                <td data-label={columnLabel('lastShdr')}>{when(g.lastShdr)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
