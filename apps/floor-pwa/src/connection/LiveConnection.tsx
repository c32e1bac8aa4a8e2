import { t, useServerNow, useToasts } from '@takt/ui';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { secondsUntil } from '../offline/backoff';
import { useFloorSync } from '../offline/SyncProvider';
import { liveConnectionMachine, offlineToastView, reconnectLabelText } from './liveConnectionMachine';
import { liveSocketActor } from './liveSocket';

// Its own module: the workcenter loads it right after the first paint, outside the first chunk's budget.

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
    if (view?.phase === 'reconnected') sync.refresh();
  }, [view?.phase, sync]);

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
      tone: view.phase === 'reconnected' ? 'success' : 'warning',
      autoCloseMs: null,
      message: (
        <>
          <span className="toast__line">{t('offline.toast')}</span>
          {seconds != null && <span className="toast__line num">{t('offline.retryIn', { s: seconds })}</span>}
        </>
      ),
      action: {
        label: reconnectLabelText(view.phase),
        disabled: !view.canReconnect,
        onClick: () => actor.send({ type: 'RECONNECT' }),
      },
    });
  }, [view, now, toasts, actor]);

  useEffect(() => () => toasts.dismiss(OFFLINE_TOAST_ID), [toasts]);
  return null;
}
