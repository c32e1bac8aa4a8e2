import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';
import type { AppEnv } from '../http/context';

// GET /api/docs: a readable reference of /api/openapi.json (decision 1046). Swagger UI's own distribution
// (swagger-ui-dist), served by this process from node_modules: plants often run without internet, so no
// CDN, and the page keeps the product's CSP (script-src and style-src 'self', no inline script or style:
// the start-up is a file of its own, /api/docs/start.js).

const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The distribution files the page loads, by the name the page asks for. */
const ASSETS = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'favicon-32x32.png': { file: 'favicon-32x32.png', type: 'image/png' },
} as const;
type Asset = keyof typeof ASSETS;

/** Read once, on first use: the files belong to the installed package and change only with it. */
const cache = new Map<Asset, Buffer>();
const assetBody = (name: Asset) => {
  let body = cache.get(name);
  if (!body) {
    body = readFileSync(join(dist, ASSETS[name].file));
    cache.set(name, body);
  }
  return body;
};

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Takt API reference</title>
    <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" />
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="reference"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/start.js"></script>
  </body>
</html>
`;

// The document of this very server; "Try it out" sends the caller's own session cookie (same origin).
const START = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  docExpansion: 'none',
  defaultModelsExpandDepth: 0,
  tryItOutEnabled: false,
  withCredentials: true,
  // No badge from the public validator service: nothing leaves the plant's network.
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

const DAY = 'public, max-age=86400';

/** Public like /api/openapi.json (it names no company data), so registered before the caller-guarded /api. */
export const apiDocsRoutes = new Hono<AppEnv>()
  .get('/', (c) => c.html(PAGE, 200, { 'cache-control': 'no-cache' }))
  .get('/start.js', (c) =>
    c.body(START, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }),
  )
  .get('/:asset', (c) => {
    const name = c.req.param('asset');
    if (!Object.hasOwn(ASSETS, name)) {
      return c.json({ error: { code: 'NOT_FOUND', message: 'No such API route.' } }, 404);
    }
    const asset = name as Asset;
    return c.body(new Uint8Array(assetBody(asset)), 200, {
      'content-type': ASSETS[asset].type,
      'cache-control': DAY,
    });
  });
