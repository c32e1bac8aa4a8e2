import type { SystemVersion, TabletRefreshAll } from '@takt/domain';
import { formatDateTime, localeZone, Modal, t, useSession, useToasts } from '@takt/ui';
import { useState } from 'react';
import { api } from '../../api';
import { ConfirmDialog, LoadedView, useLoaded } from '../../admin/AdminParts';
import { InternalPage } from '../InternalParts';
import { errorText, purgedText, refreshOutcome } from './system';
import type { UnreachedTablet } from './system';

// reports-admin §2 "System page: refresh all tablets, increment version, increment JS version, purge tablets
// (confirm first)", §7 System calls, §8 texts (decision 0922). Calls /api/internal/system.

const BASE = '/api/internal/system';

type Busy = 'api' | 'js' | 'refresh' | 'purge' | null;

export function SystemPage() {
  const [version, reloadVersion] = useLoaded((signal) =>
    api.request<SystemVersion>(`${BASE}/version`, { signal }),
  );
  const [busy, setBusy] = useState<Busy>(null);
  const [incrementFailed, setIncrementFailed] = useState(false);
  const [notPushed, setNotPushed] = useState<UnreachedTablet[] | null>(null);
  const [confirmPurge, setConfirmPurge] = useState(false);
  const toasts = useToasts();
  const { me } = useSession();

  const increment = async (type: 'api' | 'js') => {
    setBusy(type);
    try {
      const v = await api.request<SystemVersion>(`${BASE}/version/increment`, {
        method: 'POST',
        body: type === 'js' ? { type: 'js' } : {},
      });
      toasts.show({ message: t('internal.system.incremented', { version: v.version }), tone: 'success' });
      reloadVersion();
    } catch {
      setIncrementFailed(true);
    } finally {
      setBusy(null);
    }
  };

  const refreshAll = async () => {
    setBusy('refresh');
    try {
      const outcome = refreshOutcome(
        await api.request<TabletRefreshAll>(`${BASE}/tablets/refresh-all`, { method: 'POST' }),
      );
      if (outcome.kind === 'notPushed') setNotPushed(outcome.tablets);
      else
        toasts.show({
          message: t(
            outcome.kind === 'ok' ? 'internal.system.refreshAllOk' : 'internal.system.refreshAllNone',
          ),
          tone: outcome.kind === 'ok' ? 'success' : 'info',
        });
    } catch (err) {
      toasts.show({ message: errorText(err), tone: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const purge = async () => {
    setConfirmPurge(false);
    setBusy('purge');
    try {
      const { purgedTabletCount } = await api.request<{ purgedTabletCount: number }>(
        `${BASE}/tablets/purge`,
        {
          method: 'POST',
        },
      );
      toasts.show({ message: purgedText(purgedTabletCount), tone: 'success' });
    } catch (err) {
      toasts.show({ message: errorText(err), tone: 'error' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <InternalPage title="internal.system.title" intro={t('internal.system.intro')} busy={busy !== null}>
      <section className="admin-card" aria-labelledby="system-versions">
        <h2 id="system-versions">{t('internal.system.versions')}</h2>
        <p>{t('internal.system.versionsBody')}</p>
        <LoadedView state={version} retry={reloadVersion}>
          {(v) => (
            <dl className="internal-facts">
              <div>
                <dt>{t('internal.system.current')}</dt>
                <dd className="admin__mono">{v.version}</dd>
              </div>
              <div>
                <dt>{t('internal.system.apiRevision')}</dt>
                <dd className="admin__mono">{v.apiRevision}</dd>
              </div>
              <div>
                <dt>{t('internal.system.jsRevision')}</dt>
                <dd className="admin__mono">{v.jsRevision}</dd>
              </div>
              <div>
                <dt>{t('internal.system.lastChange')}</dt>
                <dd>
                  {v.updatedAt === null
                    ? t('internal.system.neverIncremented')
                    : formatDateTime(v.updatedAt, localeZone(me))}
                </dd>
              </div>
            </dl>
          )}
        </LoadedView>
        <div className="internal-actions">
          <button
            type="button"
            className="button"
            disabled={busy !== null}
            onClick={() => void increment('api')}
          >
            {t('internal.system.increment')}
          </button>
          <button
            type="button"
            className="button"
            disabled={busy !== null}
            onClick={() => void increment('js')}
          >
            {t('internal.system.incrementJs')}
          </button>
        </div>
      </section>

      <section className="admin-card" aria-labelledby="system-tablets">
        <h2 id="system-tablets">{t('internal.system.tablets')}</h2>
        <p>{t('internal.system.tabletsBody')}</p>
        <div className="internal-actions">
          <button type="button" className="button" disabled={busy !== null} onClick={() => void refreshAll()}>
            {busy === 'refresh' ? t('internal.system.refreshing') : t('internal.system.refreshAll')}
          </button>
          <button
            type="button"
            className="button button--danger"
            disabled={busy !== null}
            onClick={() => setConfirmPurge(true)}
          >
            {t('internal.system.purge')}
          </button>
        </div>
      </section>

      {confirmPurge && (
        <ConfirmDialog
          title={t('internal.system.purgeTitle')}
          confirmLabel={t('internal.system.purge')}
          onConfirm={() => void purge()}
          onClose={() => setConfirmPurge(false)}
          busy={false}
          error={null}
        >
          <p>{t('internal.system.purgeBody')}</p>
        </ConfirmDialog>
      )}

      {incrementFailed && (
        <Modal
          title={t('internal.system.invalidResponse')}
          onClose={() => setIncrementFailed(false)}
          footer={
            <button
              type="button"
              className="button button--primary"
              onClick={() => setIncrementFailed(false)}
            >
              {t('common.close')}
            </button>
          }
        >
          <p>{t('internal.system.unableToIncrement')}</p>
        </Modal>
      )}

      {notPushed && (
        <Modal
          title={t('internal.system.refreshAllFailed')}
          onClose={() => setNotPushed(null)}
          footer={
            <button type="button" className="button button--primary" onClick={() => setNotPushed(null)}>
              {t('common.close')}
            </button>
          }
        >
          <p>{t('internal.system.notPushedIntro')}</p>
          <ul className="internal-ids" aria-label={t('internal.system.refreshAllFailed')}>
            {notPushed.map((tb) => (
              <li key={tb.id}>
                {tb.label && (
                  <span className="internal-ids__name">{t('internal.system.tabletWhere', tb)}</span>
                )}
                <span className="admin__mono internal-ids__id">{tb.id}</span>
              </li>
            ))}
          </ul>
        </Modal>
      )}
    </InternalPage>
  );
}
