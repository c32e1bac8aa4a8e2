import { useEffect, useState } from 'react';
import type { ApiClient } from './api';
import { t } from './i18n';
import { useToasts } from './toast';

/** live-operations §4, §9: the new-version toast counts down 30 s and then reloads. */
export const NEW_VERSION_RELOAD_MS = 30_000;

/** Whole seconds left on the countdown (0 means reload now). */
export const reloadSecondsLeft = (deadline: number, now: number): number =>
  Math.max(0, Math.ceil((deadline - now) / 1000));

/**
 * Watches the MM-API-Version header (api.ts): when it changes, a toast counts "Reloading in ..." for 30 s
 * and the page reloads with the new build.
 */
export function useNewVersionReload(api: ApiClient, reload: () => void = () => globalThis.location.reload()) {
  const toasts = useToasts();
  const [deadline, setDeadline] = useState<number | null>(null);

  useEffect(
    () => api.onVersionChange(() => setDeadline((d) => d ?? Date.now() + NEW_VERSION_RELOAD_MS)),
    [api],
  );

  useEffect(() => {
    if (deadline == null) return;
    const tick = () => {
      const s = reloadSecondsLeft(deadline, Date.now());
      toasts.show({
        id: 'new-version',
        tone: 'info',
        autoCloseMs: null,
        message: `${t('version.toast')} ${t('version.reloadingIn', { s })}`,
      });
      if (s === 0) reload();
    };
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [deadline, toasts, reload]);
}
