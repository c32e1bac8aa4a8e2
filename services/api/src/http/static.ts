import { createReadStream, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import type { FramePolicy } from './security';
import { contentSecurityPolicy, inlineScriptHashes } from './security';

// Both built apps are served from one port (ARCHITECTURE.md "Process model": one process serves the API and both built apps). The office app owns the report and admin paths of
// reports-admin §2; every other page belongs to the floor PWA (live-operations §2 routes such as
// /:machineId, /dashboards/live/…, /switch-machines, /tablet/register).
const OFFICE_PATHS = /^\/(app|reports|dashboard|machines?)(\/|$)/;
// live-operations §2 /machine/{id}/home/partCount, the operator host part count, is a floor screen (decision 1099).
const FLOOR_MACHINE_PATHS = /^\/machine\/[^/]+\/home(\/|$)/;

export function appForPath(pathname: string): 'office' | 'floor' {
  if (FLOOR_MACHINE_PATHS.test(pathname)) return 'floor';
  return OFFICE_PATHS.test(pathname) ? 'office' : 'floor';
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

function fileIn(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const full = normalize(join(root, decoded));
  if (!full.startsWith(root + sep)) return null; // no escaping the dist folder
  try {
    return statSync(full).isFile() ? full : null;
  } catch {
    return null;
  }
}

/** Each page's inline script hashes, kept while the file is unchanged (a rebuild replaces it). */
const pageHashes = new Map<string, { mtimeMs: number; hashes: string[] }>();

function hashesOf(path: string): string[] {
  const { mtimeMs } = statSync(path);
  const known = pageHashes.get(path);
  if (known?.mtimeMs === mtimeMs) return known.hashes;
  const hashes = inlineScriptHashes(readFileSync(path, 'utf8'));
  pageHashes.set(path, { mtimeMs, hashes });
  return hashes;
}

/**
 * The file's answer, made through the context (c.body), never as a bare `new Response(body, { headers: {…} })`:
 * once @hono/node-server has served a request it replaces the global Response with a lightweight one that
 * keeps headers given as a plain object apart from the ones middleware adds later, and drops the latter as
 * soon as an outer middleware sets a header (MM-API-Version). That is how pages, /sw.js and assets lost the
 * security headers in production (issue 26 finding 8) and how health.test.ts lost nosniff after another file
 * had started a server in the same worker (decision 0979). c.body builds a real Headers object, and the
 * request id set before the handler ran is kept.
 */
function send(
  c: Context<AppEnv>,
  path: string,
  cacheControl: string,
  csp: (hashes: string[]) => string,
): Response {
  const body = Readable.toWeb(createReadStream(path)) as ReadableStream;
  const headers: Record<string, string> = {
    'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
    'cache-control': cacheControl,
  };
  // A page's own inline scripts (the floor app's early API calls) run by hash, never by 'unsafe-inline'.
  if (extname(path) === '.html') headers['content-security-policy'] = csp(hashesOf(path));
  return c.body(body, 200, headers);
}

/** Serve built files, then each app's index.html for its client-side routes. */
export function serveApps(
  staticRoot: string,
  frame: FramePolicy = { frameAncestors: [] },
): MiddlewareHandler<AppEnv> {
  const dists = {
    floor: normalize(join(staticRoot, 'apps', 'floor-pwa', 'dist')),
    office: normalize(join(staticRoot, 'apps', 'office', 'dist')),
  };
  // Named: the request log labels what it answers `static` (observe.ts routeOf).
  return async function serveApps(c, next) {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const pathname = new URL(c.req.url).pathname;
    const owner = appForPath(pathname);
    const other = owner === 'floor' ? 'office' : 'floor';
    const csp = (hashes: string[]) => contentSecurityPolicy(c.req.header('host'), frame, hashes);
    const file = fileIn(dists[owner], pathname) ?? fileIn(dists[other], pathname);
    if (file) {
      // Hashed bundles never change; the service worker, manifest and pages must always be revalidated.
      const immutable = /-assets\//.test(pathname);
      return send(c, file, immutable ? 'public, max-age=31536000, immutable' : 'no-cache', csp);
    }
    if (extname(pathname) !== '') return next(); // a missing asset is a 404, not a page
    const index = fileIn(dists[owner], '/index.html');
    if (!index) {
      return c.text(`The ${owner} app is not built. Run \`npm run build\` (npm start does it for you).`, 503);
    }
    return send(c, index, 'no-cache', csp);
  };
}
