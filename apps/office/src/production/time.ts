import { localeZone, useSession } from '@takt/ui';
import { useMemo } from 'react';

/**
 * Instants as the company reads them: its locale and time zone (UI.md "Both"), to the minute, without the
 * year (the list's date range says it), so a run's row fits a desk screen.
 */
export function useWallTime(): (t: number) => string {
  const { me } = useSession();
  const { locale, timeZone } = localeZone(me);
  return useMemo(() => {
    const f = new Intl.DateTimeFormat(locale, {
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone,
    });
    return (t: number) => f.format(t);
  }, [locale, timeZone]);
}
