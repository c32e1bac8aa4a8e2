import { useEffect, useRef } from 'react';
import { t } from './i18n';
import type { ToastInput } from './toast';
import { useToasts } from './toast';

// reports-admin §8 / §9: 'Network offline. Please check your Internet connection.' while the browser is
// offline; it closes 2 s after reconnecting. The office app has no live channel, so the browser's own
// online/offline events drive it (the floor app's toast follows its live channel instead).

/** reports-admin §9: the offline toast closes 2 s after reconnect. */
export const OFFLINE_TOAST_CLOSE_MS = 2000;
export const OFFLINE_TOAST_ID = 'offline';

/** The toast for a connectivity change, or null when there is nothing to say (online from the start). */
export function offlineToast(online: boolean, wasOffline: boolean): ToastInput | null {
  if (!online)
    return { id: OFFLINE_TOAST_ID, tone: 'warning', autoCloseMs: null, message: t('offline.toast') };
  if (wasOffline)
    return {
      id: OFFLINE_TOAST_ID,
      tone: 'success',
      autoCloseMs: OFFLINE_TOAST_CLOSE_MS,
      message: t('offline.reconnected'),
    };
  return null;
}

export function useOfflineToast(): void {
  const toasts = useToasts();
  const wasOffline = useRef(false);
  useEffect(() => {
    const update = () => {
      const online = globalThis.navigator?.onLine ?? true;
      const toast = offlineToast(online, wasOffline.current);
      wasOffline.current = !online;
      if (toast) toasts.show(toast);
    };
    update();
    globalThis.addEventListener('online', update);
    globalThis.addEventListener('offline', update);
    return () => {
      globalThis.removeEventListener('online', update);
      globalThis.removeEventListener('offline', update);
    };
  }, [toasts]);
}
