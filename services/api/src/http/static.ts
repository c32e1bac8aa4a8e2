import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';

// Both built apps are served from one port (ARCHITECTURE.md "Process model": one process serves the API and both built apps). The office app owns the report and admin paths of
// reports-admin §2; every other page belongs to the floor PWA (live-operations §2 routes such as
// /:machineId, /dashboards/live/…, /switch-machines, /tablet/register).
const OFFICE_PATHS = /^\/(app|reports|dashboard|machines?)(\/|$)/;

export function appForPath(pathname: string): 'office' | 'floor' {
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

function send(path: string, cacheControl: string): Response {
  const body = Readable.toWeb(createReadStream(path)) as ReadableStream;
  return new Response(body, {
    headers: {
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      'cache-control': cacheControl,
    },
  });
}

/** Serve built files, then each app's index.html for its client-side routes. */
export function serveApps(staticRoot: string): MiddlewareHandler<AppEnv> {
  const dists = {
    floor: normalize(join(staticRoot, 'apps', 'floor-pwa', 'dist')),
    office: normalize(join(staticRoot, 'apps', 'office', 'dist')),
  };
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const pathname = new URL(c.req.url).pathname;
    const owner = appForPath(pathname);
    const other = owner === 'floor' ? 'office' : 'floor';
    const file = fileIn(dists[owner], pathname) ?? fileIn(dists[other], pathname);
    if (file) {
      // Hashed bundles never change; the service worker, manifest and pages must always be revalidated.
      const immutable = /-assets\//.test(pathname);
      return send(file, immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    }
    if (extname(pathname) !== '') return next(); // a missing asset is a 404, not a page
    const index = fileIn(dists[owner], '/index.html');
    if (!index) {
      return c.text(`The ${owner} app is not built. Run \`npm run build\` (npm start does it for you).`, 503);
    }
    return send(index, 'no-cache');
  };
}
