import { t, useServerNow } from '@takt/ui';
import { secondsUntil } from '../offline/backoff';
import { useSyncView } from '../offline/SyncProvider';

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
