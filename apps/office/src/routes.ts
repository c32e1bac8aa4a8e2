import { matchPath } from '@takt/ui';

// Office routes. The server sends /app, /machine, /machines, /dashboard/ and /reports here; only the pages
// that exist are matched, everything else is a real "Not found" page (no placeholder reports).
export type OfficeRoute = { name: 'machines' } | { name: 'notFound' };

export function resolveOfficeRoute(pathname: string): OfficeRoute {
  if (matchPath('/app', pathname) || matchPath('/app/machines', pathname)) return { name: 'machines' };
  return { name: 'notFound' };
}

export const MACHINES_PATH = '/app/machines';
