import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from './context';

// Security headers on every answer: pages, assets, the service worker and the API alike (decision 0962).

/**
 * Who may frame the apps: none by default (clickjacking); a signage system that shows the live dashboards in
 * a frame is listed by origin (TAKT_FRAME_ANCESTORS).
 */
export interface FramePolicy {
  frameAncestors: readonly string[];
}

/** `ws://host wss://host` for the live channel: CSP 'self' does not cover WebSocket URLs in older Safari. */
function socketSources(host: string | undefined): string {
  return host && /^[\w.-]+(:\d{1,5})?$|^\[[\da-f:.]+\](:\d{1,5})?$/i.test(host)
    ? ` ws://${host} wss://${host}`
    : '';
}

/**
 * The Content-Security-Policy: scripts only from this origin (plus the hashes of a page's own inline scripts,
 * never 'unsafe-inline'); styles from this origin only (React's `style` props go through the CSSOM, which CSP
 * does not restrict, and no component renders a <style> element); the live channel's socket on this host.
 */
export function contentSecurityPolicy(
  host: string | undefined,
  frame: FramePolicy,
  scriptHashes: readonly string[] = [],
): string {
  const ancestors = frame.frameAncestors.length > 0 ? frame.frameAncestors.join(' ') : "'none'";
  return [
    "default-src 'self'",
    `script-src 'self'${scriptHashes.map((h) => ` '${h}'`).join('')}`,
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${socketSources(host)}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}

/** sha256 source expressions of an HTML page's inline scripts (those without `src`), for script-src. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    if (m[1]!.trim() === '') continue;
    hashes.push(`sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}`);
  }
  return hashes;
}

/**
 * Hono's secureHeaders (nosniff, Referrer-Policy, Cross-Origin-Opener/Resource-Policy, …) plus the CSP, on
 * every answer. A page served by static.ts sets its own CSP (with its inline script hashes), which is kept.
 * Referrer-Policy is same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on
 * same-origin POSTs, which the CSRF check refuses.
 */
export function securityHeaders(frame: FramePolicy): MiddlewareHandler<AppEnv> {
  const rest = secureHeaders({
    referrerPolicy: 'same-origin',
    // TLS ends at the reverse proxy, which owns HSTS; a plain-HTTP plant network must keep working.
    strictTransportSecurity: false,
    xFrameOptions: frame.frameAncestors.length > 0 ? false : 'DENY',
    overwrite: false,
  });
  return async (c, next) => {
    await rest(c, next);
    if (!c.res.headers.has('Content-Security-Policy')) {
      c.res.headers.set('Content-Security-Policy', contentSecurityPolicy(c.req.header('host'), frame));
    }
  };
}
