import { useMemo, useSyncExternalStore } from 'react';
import type { AnchorHTMLAttributes, MouseEvent } from 'react';

// A small router on the History API: enough for both apps' routes without a dependency. The URL is the
// only state (so reloads, bookmarks and TV kiosks land on the same screen).

const NAVIGATE_EVENT = 'takt:navigate';

function subscribe(cb: () => void): () => void {
  window.addEventListener('popstate', cb);
  window.addEventListener(NAVIGATE_EVENT, cb);
  return () => {
    window.removeEventListener('popstate', cb);
    window.removeEventListener(NAVIGATE_EVENT, cb);
  };
}

const snapshot = () => window.location.pathname + window.location.search;

export interface LocationView {
  pathname: string;
  search: string;
  query: URLSearchParams;
}

export function useLocation(): LocationView {
  const href = useSyncExternalStore(subscribe, snapshot, () => '/');
  return useMemo(() => {
    const q = href.indexOf('?');
    const pathname = q < 0 ? href : href.slice(0, q);
    const search = q < 0 ? '' : href.slice(q);
    return { pathname, search, query: new URLSearchParams(search) };
  }, [href]);
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  replace?: boolean;
}

/** An ordinary link that navigates in-page; modified clicks (new tab, download) keep browser behaviour. */
export function Link({ to, replace, onClick, target, ...rest }: LinkProps) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (target && target !== '_self') return;
    e.preventDefault();
    navigate(to, replace ? { replace } : {});
  };
  return <a href={to} onClick={handle} target={target} {...rest} />;
}
