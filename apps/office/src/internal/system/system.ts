import type { TabletRefreshAll } from '@takt/domain';
import { ApiError, t } from '@takt/ui';

// The System page's outcomes and texts (reports-admin §2 "System page", §8 "Version increment failure: dialog
// 'Invalid Response' with 'Unable to increment version.' Tablet refresh: dialog 'Unable to refresh one or more
// tablets' listing tablet ids not pushed. Purge: failure toast 'Error: {message}', success '{count} tablets
// deleted'").

/** A tablet the refresh did not reach: its id (§8), and where it is. */
export type UnreachedTablet = TabletRefreshAll['notPushedTablets'][number];

export type RefreshOutcome =
  { kind: 'ok'; count: number } | { kind: 'none' } | { kind: 'notPushed'; tablets: UnreachedTablet[] };

export function refreshOutcome(r: TabletRefreshAll): RefreshOutcome {
  if (r.notPushed.length > 0)
    return {
      kind: 'notPushed',
      // Every id the server names, described when it said where the tablet is.
      tablets: r.notPushed.map(
        (id) => r.notPushedTablets.find((tb) => tb.id === id) ?? { id, company: '', label: '' },
      ),
    };
  if (r.pushed.length === 0) return { kind: 'none' };
  return { kind: 'ok', count: r.pushed.length };
}

/** The server's message, else the common request error (offline, no answer). */
export const messageOf = (err: unknown): string =>
  err instanceof ApiError && !err.isNetworkError && err.message ? err.message : t('common.requestError');

export const errorText = (err: unknown): string => t('internal.system.error', { message: messageOf(err) });

export const purgedText = (purgedTabletCount: number): string =>
  t('internal.system.purged', { count: purgedTabletCount });
