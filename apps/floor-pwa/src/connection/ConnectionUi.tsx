import { formatTimeOfDay, t, useServerNow, useToasts } from '@takt/ui';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { secondsUntil } from '../offline/backoff';
import { dismissRejected, retryRejected } from '../offline/outbox';
import { useFloorSync, useRejected, useSyncView } from '../offline/SyncProvider';
import { localeZone, useSession } from '../session';
import { liveConnectionMachine, offlineToastView } from './liveConnectionMachine';
import { liveSocketActor } from './liveSocket';

const OFFLINE_TOAST_ID = 'offline';

/**
 * The live channel of one machine (render with key={machineId}): tiles go to the store, reinit triggers a pull,
 * and the offline toast follows the connection (live-operations §4).
 */
export function LiveConnection({ machineId }: { machineId: string }) {
  const sync = useFloorSync();
  const toasts = useToasts();
  const machine = useMemo(
    () =>
      liveConnectionMachine.provide({
        actors: {
          socket: liveSocketActor(machineId, {
            onTile: (id, tile) => {
              void sync.db.tiles.put({ id, tile, at: sync.now() });
            },
            onReinit: () => sync.refresh(),
            reload: () => globalThis.location.reload(),
          }),
        },
      }),
    [machineId, sync],
  );
  const actor = useActorRef(machine, { input: {} });
  const view = useSelector(actor, offlineToastView, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  const now = useServerNow(0); // ticks every 1 s for the countdown
  const wasOpen = useRef(false);

  // The socket is back: the data may have moved on while it was away.
  useEffect(() => {
    if (view?.label === 'Reconnected!') sync.refresh();
  }, [view?.label, sync]);

  useEffect(() => {
    if (!view) {
      if (wasOpen.current) toasts.dismiss(OFFLINE_TOAST_ID);
      wasOpen.current = false;
      return;
    }
    wasOpen.current = true;
    const seconds = view.retryAt != null ? secondsUntil(view.retryAt, now) : null;
    toasts.show({
      id: OFFLINE_TOAST_ID,
      tone: view.label === 'Reconnected!' ? 'success' : 'warning',
      autoCloseMs: null,
      message: (
        <>
          <span className="toast__line">{t('offline.toast')}</span>
          {seconds != null && <span className="toast__line num">{t('offline.retryIn', { s: seconds })}</span>}
        </>
      ),
      action: {
        label: view.label,
        disabled: !view.canReconnect,
        onClick: () => actor.send({ type: 'RECONNECT' }),
      },
    });
  }, [view, now, toasts, actor]);

  useEffect(() => () => toasts.dismiss(OFFLINE_TOAST_ID), [toasts]);
  return null;
}

/** UI.md "Floor": offline is a normal state — a quiet indicator with the count of pending actions. */
export function SyncIndicator() {
  const { status, pending, retryAt } = useSyncView();
  const now = useServerNow(0);
  let text: string;
  switch (status) {
    case 'in-sync':
      text = pending > 0 ? t('sync.pending', { n: pending }) : t('sync.inSync');
      break;
    case 'pushing':
      text = t('sync.pushing', { n: pending });
      break;
    case 'pulling':
      text = pending > 0 ? t('sync.pending', { n: pending }) : t('sync.pulling');
      break;
    case 'offline':
      text = `${t('sync.offline')} · ${t('sync.pending', { n: pending })}`;
      break;
    case 'error':
      text = `${t('sync.error')} · ${t('sync.pending', { n: pending })}`;
      break;
  }
  const retry =
    (status === 'offline' || status === 'error') && retryAt != null ? secondsUntil(retryAt, now) : null;
  return (
    <p className="sync-indicator" data-sync={status} role="status" aria-label={t('sync.label')}>
      <span className="sync-indicator__dot" aria-hidden="true" />
      <span className="num">{text}</span>
      {retry != null && retry > 0 && (
        <span className="sync-indicator__retry num">({t('sync.retryIn', { s: retry })})</span>
      )}
    </p>
  );
}

/** Commands the server refused: shown with its message until dismissed or tried again (issue 6 point 4). */
export function RejectedCommands({ machineId }: { machineId: string }) {
  const sync = useFloorSync();
  const { me } = useSession();
  const rejected = useRejected(machineId);
  if (rejected.length === 0) return null;
  return (
    <section className="rejected" aria-labelledby="rejected-title" aria-live="assertive">
      <h2 id="rejected-title" className="rejected__title">
        {t('rejected.title')}
      </h2>
      <ul className="rejected__list">
        {rejected.map((r) => (
          <li key={r.id} className="rejected__item">
            <div className="rejected__text">
              <strong>{t(`command.${r.type}`)}</strong>{' '}
              <span className="num">
                {t('rejected.at', { time: formatTimeOfDay(r.occurredAt, localeZone(me)) })}
              </span>
              <p className="rejected__message">{r.error.message}</p>
              {r.error.issues && r.error.issues.length > 0 && (
                <ul className="rejected__issues">
                  {r.error.issues.map((i, n) => (
                    <li key={n}>{i.message}</li>
                  ))}
                </ul>
              )}
            </div>
            <div className="rejected__actions">
              <button
                type="button"
                className="button touch"
                onClick={() =>
                  void retryRejected(sync.db, r.id).then(() => sync.actor.send({ type: 'ENQUEUED' }))
                }
              >
                {t('rejected.retry')}
              </button>
              <button
                type="button"
                className="button touch"
                onClick={() => void dismissRejected(sync.db, r.id)}
              >
                {t('rejected.dismiss')}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
