import { t } from '@takt/ui';

/** UI.md "Floor": a pending action looks done, with a small mark until the server confirms. */
export function PendingMark({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <span className="pending-mark" role="img" aria-label={t('card.pendingShort')} title={t('card.pending')}>
      <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
        <circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
        <path
          d="M8 4.5V8l2.5 1.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinecap="round"
        />
      </svg>
    </span>
  );
}
