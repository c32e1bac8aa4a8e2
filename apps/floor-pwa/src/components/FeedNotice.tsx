import { ErrorNotice } from './ErrorNotice';
import { ApiError, formatTimeOfDay, localeZone, t, useSession } from '@takt/ui';
import type { DashboardData, Polling } from '@takt/ui';

/** live-operations §8: a machine list load is marked failed after more than 10 consecutive failures. */
export const FAILED_AFTER = 10;

/** A quiet line when polling fails: stale data stays on screen, marked with its time. */
export function FeedNotice({ poll }: { poll: Polling<DashboardData> }) {
  const { me } = useSession();
  if (!poll.error) return null;
  if (poll.consecutiveFailures > FAILED_AFTER || !poll.data) {
    return (
      <ErrorNotice
        message={
          poll.error instanceof ApiError && !poll.error.isNetworkError
            ? poll.error.message
            : t('common.loadFailed')
        }
      />
    );
  }
  return (
    <p className="notice" role="status">
      {t('common.staleData', { time: formatTimeOfDay(poll.lastSuccessAt, localeZone(me)) })}
    </p>
  );
}
