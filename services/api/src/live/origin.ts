import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/context';

// Cross-site WebSocket hijacking (issue 26 finding 8, decision 0995): a browser opens a WebSocket to any host and
// sends that host's cookies along, whatever page asked; only the Origin header says which page it was. The live
// channel and tablet registration refuse an upgrade whose Origin is not this server's own (403) before any
// cookie is read. A client that sends no Origin is not a browser (browsers always send it on an upgrade), so it
// cannot ride anyone's cookies; it is let through and authenticates like any other caller.

export const FOREIGN_ORIGIN_MESSAGE = 'This socket may only be opened from a page of this server.';

/** The `host[:port]` of `host` as a browser would write it under `protocol` (default ports dropped). */
function normalHost(protocol: string, host: string): string | null {
  try {
    return new URL(`${protocol}//${host}`).host;
  } catch {
    return null;
  }
}

/**
 * Whether a browser's `Origin` is this server's: the host the request came to (`Host`, either scheme: TLS may
 * end at a proxy), or the configured public address (TAKT_PUBLIC_URL, for a proxy that rewrites Host).
 * `null` (a sandboxed frame, a file) and anything unparsable are foreign.
 */
export function isOwnOrigin(
  origin: string,
  host: string | undefined,
  publicUrl: string | undefined,
): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (publicUrl) {
    try {
      if (new URL(publicUrl).origin === url.origin) return true;
    } catch {
      // not an address: only Host can match
    }
  }
  return host !== undefined && normalHost(url.protocol, host.trim().toLowerCase()) === url.host;
}

/** 403 FORBIDDEN_ORIGIN for a browser upgrade from another site's page; placed before upgradeWebSocket. */
export function ownOriginOnly(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin === undefined || isOwnOrigin(origin, c.req.header('host'), c.var.deps.publicUrl))
      return next();
    return c.json({ error: { code: 'FORBIDDEN_ORIGIN', message: FOREIGN_ORIGIN_MESSAGE } }, 403);
  };
}
