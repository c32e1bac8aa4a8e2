import type { AdminMachine } from '@takt/domain';
import { ApiError, formatDateTime, localeZone, Modal, t, useSession, useToasts } from '@takt/ui';
import { useState } from 'react';
import { api } from '../api';
import {
  AdminPage,
  AdminTable,
  ConfirmDialog,
  Field,
  FormDialog,
  LoadedView,
  RowButton,
  saveState,
  useLoaded,
  useSubmit,
} from './AdminParts';
import {
  editBody,
  errorText,
  mayPush,
  newTabletForm,
  purgedText,
  pushFailedText,
  refreshAllOutcome,
  registerBody,
  revokedCount,
  sortTablets,
  tabletErrors,
  tabletFormOf,
  viewChoices,
  viewText,
  tabletLabel,
  tabletStateText,
} from './tablets';
import type { AdminTablet, RefreshAllResult, TabletForm } from './tablets';
import './admin-tablets.css';

// Tablets (live-operations §2 "Tablet management: register, edit, delete, revoke access, refresh, restart,
// refresh all"; reports-admin §4 "Tablet actions: register, refresh, restart, revoke, purge"), with the texts
// of live-operations §8 and reports-admin §8. Calls /api/tablets (decision 0890).

interface Loaded {
  tablets: AdminTablet[];
  /** The machines in service, for binding a tablet; null when they could not be loaded. */
  machines: Array<Pick<AdminMachine, 'id' | 'name'>> | null;
}

const load = async (signal: AbortSignal): Promise<Loaded> => {
  const [tablets, machines] = await Promise.all([
    api.request<AdminTablet[]>('/api/tablets', { signal }),
    api.request<AdminMachine[]>('/api/machines', { signal }).catch(() => null),
  ]);
  return {
    tablets: sortTablets(tablets),
    machines: machines && machines.filter((m) => m.decommissionedAt === null),
  };
};

const path = (id: string, action = '') => `/api/tablets/${encodeURIComponent(id)}${action}`;

/** The server's message of a failed call, or null when it sent none (offline). */
const serverMessage = (err: unknown): string | null =>
  err instanceof ApiError && !err.isNetworkError && err.message ? err.message : null;

type Editing = { tablet: AdminTablet | null; form: TabletForm; touched: boolean };
type Confirming = { kind: 'revoke' | 'delete'; tablet: AdminTablet } | { kind: 'purge'; count: number };

export function TabletsPage() {
  const [state, reload] = useLoaded(load);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  /** live-operations §8: the ids of the tablets refresh all did not reach. */
  const [notPushed, setNotPushed] = useState<string[] | null>(null);
  const [pushing, setPushing] = useState<string | null>(null);
  const save = useSubmit(t(editing?.tablet ? 'admin.tablets.editFailed' : 'admin.tablets.registerFailed'));
  const confirm = useSubmit(
    t(confirming?.kind === 'revoke' ? 'admin.tablets.revokeFailed' : 'admin.tablets.deleteFailed'),
  );
  const toasts = useToasts();
  const { me } = useSession();

  const open = (tablet: AdminTablet | null) => {
    save.clear();
    setEditing({ tablet, form: tablet ? tabletFormOf(tablet) : newTabletForm(), touched: false });
  };

  const submit = async () => {
    if (!editing) return;
    const { tablet, form } = editing;
    let answer: (AdminTablet & { notified?: boolean }) | null = null;
    const ok = await save.run(async () => {
      answer = tablet
        ? await api.request<AdminTablet>(path(tablet.id), { method: 'PUT', body: editBody(form) })
        : await api.request<AdminTablet & { notified: boolean }>('/api/tablets/associate', {
            method: 'POST',
            body: registerBody(form),
          });
    });
    if (!ok || !answer) return;
    const saved: AdminTablet & { notified?: boolean } = answer;
    setEditing(null);
    const name = tabletLabel(saved);
    if (tablet) toasts.show({ message: t('admin.savedDone', { name }), tone: 'success' });
    else if (saved.notified === false)
      toasts.show({ message: t('admin.tablets.registeredUnreached', { name }), tone: 'warning' });
    else toasts.show({ message: t('admin.tablets.registered', { name }), tone: 'success' });
    reload();
  };

  // live-operations §8: a tablet that is not reached is an alert, "Unable to refresh tablet ..." or "Unable to
  // restart application on tablet ...".
  const push = async (tablet: AdminTablet, action: 'refresh' | 'restart') => {
    const name = tabletLabel(tablet);
    setPushing(`${tablet.id}:${action}`);
    try {
      await api.request(path(tablet.id, `/${action}`), { method: 'POST' });
      toasts.show({
        message: t(action === 'refresh' ? 'admin.tablets.refreshed' : 'admin.tablets.restarted', { name }),
        tone: 'success',
      });
    } catch (err) {
      toasts.show({ message: pushFailedText(action, name, serverMessage(err)), tone: 'error' });
    } finally {
      setPushing(null);
    }
  };

  const refreshAll = async () => {
    setPushing('all');
    try {
      const outcome = refreshAllOutcome(
        await api.request<RefreshAllResult>('/api/tablets/refresh-all', { method: 'POST' }),
      );
      if (outcome.kind === 'ok') toasts.show({ message: outcome.message, tone: 'success' });
      else setNotPushed(outcome.ids);
    } catch (err) {
      toasts.show({ message: errorText(serverMessage(err) ?? t('common.requestError')), tone: 'error' });
    } finally {
      setPushing(null);
    }
  };

  const purge = async () => {
    setConfirming(null);
    setPushing('purge');
    try {
      const { purgedTabletCount } = await api.request<{ purgedTabletCount: number }>('/api/tablets/purge', {
        method: 'POST',
      });
      toasts.show({ message: purgedText(purgedTabletCount), tone: 'success' });
      reload();
    } catch (err) {
      toasts.show({ message: errorText(serverMessage(err) ?? t('common.requestError')), tone: 'error' });
    } finally {
      setPushing(null);
    }
  };

  const confirmRevokeOrDelete = async () => {
    if (!confirming || confirming.kind === 'purge') return;
    const { kind, tablet } = confirming;
    const ok = await confirm.run(() =>
      kind === 'revoke'
        ? api.request(path(tablet.id, '/revoke'), { method: 'POST' })
        : api.request(path(tablet.id), { method: 'DELETE' }),
    );
    if (!ok) return;
    setConfirming(null);
    const name = tabletLabel(tablet);
    toasts.show({
      message: t(kind === 'revoke' ? 'admin.tablets.revokedDone' : 'admin.deletedDone', { name }),
      tone: 'success',
    });
    reload();
  };

  const ready = state.kind === 'ready' ? state.data : null;
  const revoked = ready ? revokedCount(ready.tablets) : 0;
  const machineName = (id: string | null) =>
    id === null
      ? t('admin.tablets.machineAny')
      : (ready?.machines?.find((m) => m.id === id)?.name ?? t('common.none'));
  const errors = editing ? tabletErrors(editing.form, editing.tablet === null) : {};

  return (
    <AdminPage
      title="admin.tablets.title"
      intro="admin.tablets.intro"
      busy={state.kind === 'loading' || pushing !== null}
      actions={
        <>
          <button
            type="button"
            className="button"
            disabled={!ready || ready.tablets.length === 0 || pushing !== null}
            onClick={() => void refreshAll()}
          >
            {t('admin.tablets.refreshAll')}
          </button>
          <button
            type="button"
            className="button"
            disabled={revoked === 0 || pushing !== null}
            onClick={() => setConfirming({ kind: 'purge', count: revoked })}
          >
            {t('admin.tablets.purge')}
          </button>
          <button type="button" className="button button--primary" onClick={() => open(null)}>
            {t('admin.tablets.register')}
          </button>
        </>
      }
    >
      <LoadedView state={state} retry={reload}>
        {(data) =>
          data.tablets.length === 0 ? (
            <p className="notice" role="status">
              {t('admin.tablets.empty')}
            </p>
          ) : (
            <AdminTable
              caption={t('admin.tablets.caption')}
              headers={[
                t('admin.tablets.remoteIdentifier'),
                t('admin.tablets.serial'),
                t('admin.tablets.machine'),
                t('admin.tablets.view'),
                t('admin.tablets.lastSeen'),
              ]}
            >
              {data.tablets.map((tb) => {
                const name = tabletLabel(tb);
                const revokedRow = tb.state === 'revoked';
                return (
                  <tr key={tb.id} className={revokedRow ? 'admin-table__archived' : undefined}>
                    <th scope="row" data-label={t('admin.tablets.remoteIdentifier')}>
                      {tb.remote_identifier ?? t('common.none')}
                    </th>
                    <td data-label={t('admin.tablets.serial')} className="admin__mono">
                      {tb.serial_number}
                    </td>
                    <td data-label={t('admin.tablets.machine')}>{machineName(tb.machine_id)}</td>
                    <td data-label={t('admin.tablets.view')}>{viewText(tb.dashboardView)}</td>
                    <td data-label={t('admin.tablets.lastSeen')}>
                      {tb.lastSeenAt === null
                        ? t('admin.tablets.never')
                        : formatDateTime(tb.lastSeenAt, localeZone(me))}
                    </td>
                    <td data-label={t('admin.status')}>
                      <span className={`admin-tablet__state admin-tablet__state--${tb.state}`}>
                        {tabletStateText(tb.state)}
                      </span>
                    </td>
                    <td className="admin-table__actions">
                      <div className="admin-tablet__actions">
                        {mayPush(tb) && (
                          <>
                            <RowButton
                              text={t('admin.tablets.refresh')}
                              label={t('admin.tablets.refreshNamed', { name })}
                              disabled={pushing !== null}
                              onClick={() => void push(tb, 'refresh')}
                            />
                            <RowButton
                              text={t('admin.tablets.restart')}
                              label={t('admin.tablets.restartNamed', { name })}
                              disabled={pushing !== null}
                              onClick={() => void push(tb, 'restart')}
                            />
                          </>
                        )}
                        {!revokedRow && (
                          <>
                            <RowButton
                              text={t('admin.edit')}
                              label={t('admin.editNamed', { name })}
                              onClick={() => open(tb)}
                            />
                            <RowButton
                              text={t('admin.tablets.revoke')}
                              label={t('admin.tablets.revokeNamed', { name })}
                              danger
                              onClick={() => {
                                confirm.clear();
                                setConfirming({ kind: 'revoke', tablet: tb });
                              }}
                            />
                          </>
                        )}
                        <RowButton
                          text={t('admin.delete')}
                          label={t('admin.deleteNamed', { name })}
                          danger
                          onClick={() => {
                            confirm.clear();
                            setConfirming({ kind: 'delete', tablet: tb });
                          }}
                        />
                      </div>
                    </td>
                  </tr>
                );
              })}
            </AdminTable>
          )
        }
      </LoadedView>

      {editing && (
        <FormDialog
          title={
            editing.tablet
              ? t('admin.tablets.editTitle', { name: tabletLabel(editing.tablet) })
              : t('admin.tablets.registerTitle')
          }
          submitLabel={editing.tablet ? undefined : t('admin.tablets.registerSubmit')}
          onClose={() => setEditing(null)}
          onSubmit={() => void submit()}
          {...saveState(save, errors)}
        >
          <TabletFields
            form={editing.form}
            registering={editing.tablet === null}
            machines={ready?.machines ?? null}
            errors={editing.touched ? errors : {}}
            set={(patch) => setEditing((e) => e && { ...e, form: { ...e.form, ...patch }, touched: true })}
          />
        </FormDialog>
      )}

      {confirming?.kind === 'purge' && (
        <ConfirmDialog
          title={t('admin.tablets.purgeTitle')}
          body={t('admin.tablets.purgeBody', { count: confirming.count })}
          confirmLabel={t('admin.tablets.purge')}
          onConfirm={() => void purge()}
          onClose={() => setConfirming(null)}
          busy={false}
          error={null}
        />
      )}
      {confirming && confirming.kind !== 'purge' && (
        <ConfirmDialog
          title={t(confirming.kind === 'revoke' ? 'admin.tablets.revokeNamed' : 'admin.deleteNamed', {
            name: tabletLabel(confirming.tablet),
          })}
          body={t(confirming.kind === 'revoke' ? 'admin.tablets.revokeBody' : 'admin.tablets.deleteBody')}
          confirmLabel={t(confirming.kind === 'revoke' ? 'admin.tablets.revoke' : 'admin.delete')}
          onConfirm={() => void confirmRevokeOrDelete()}
          onClose={() => setConfirming(null)}
          busy={confirm.busy}
          error={confirm.error}
        />
      )}

      {notPushed && (
        <Modal
          title={t('admin.tablets.refreshAllFailed')}
          onClose={() => setNotPushed(null)}
          footer={
            <button type="button" className="button button--primary" onClick={() => setNotPushed(null)}>
              {t('common.close')}
            </button>
          }
        >
          <p>{t('admin.tablets.notPushedIntro')}</p>
          <ul className="admin-tablets__ids" aria-label={t('admin.tablets.refreshAllFailed')}>
            {notPushed.map((id) => {
              const tb = ready?.tablets.find((x) => x.id === id);
              return (
                <li key={id}>
                  <span className="admin__mono">{id}</span>
                  {tb && <span className="admin__hint"> {tabletLabel(tb)}</span>}
                </li>
              );
            })}
          </ul>
        </Modal>
      )}
    </AdminPage>
  );
}

function TabletFields({
  form: f,
  registering,
  machines,
  errors,
  set,
}: {
  form: TabletForm;
  registering: boolean;
  machines: Array<Pick<AdminMachine, 'id' | 'name'>> | null;
  errors: Partial<Record<string, string>>;
  set: (patch: Partial<TabletForm>) => void;
}) {
  return (
    <>
      {registering && (
        <Field label={t('admin.tablets.code')} hint={t('admin.tablets.codeHint')} error={errors.code}>
          {(p) => (
            <input
              {...p}
              className="admin-tablets__code"
              value={f.code}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={20}
              onChange={(e) => set({ code: e.target.value })}
            />
          )}
        </Field>
      )}
      <Field
        label={t('admin.tablets.remoteIdentifier')}
        hint={t('admin.tablets.remoteIdentifierHint')}
        error={errors.remoteIdentifier}
      >
        {(p) => (
          <input
            {...p}
            value={f.remoteIdentifier}
            autoComplete="off"
            onChange={(e) => set({ remoteIdentifier: e.target.value })}
          />
        )}
      </Field>
      <Field label={t('admin.tablets.machine')} hint={t('admin.tablets.machineHint')}>
        {(p) => (
          <select {...p} value={f.machineId} onChange={(e) => set({ machineId: e.target.value })}>
            <option value="">{t('admin.tablets.machineAny')}</option>
            {(machines ?? []).map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('admin.tablets.view')} hint={t('admin.tablets.viewHint')}>
        {(p) => (
          <select {...p} value={f.view} onChange={(e) => set({ view: e.target.value })}>
            {viewChoices().map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        )}
      </Field>
    </>
  );
}
