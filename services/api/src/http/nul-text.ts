import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import { ApiError } from './errors';

// PostgreSQL text cannot hold the NUL character (SQLite can): a request carrying one would fail in the
// database on one dialect only. Refused up front on both, with a 400 that says why (decision 0963).

const refuse = (field: string) =>
  new ApiError(400, 'VALIDATION_ERROR', 'Text must not contain the NUL character (\\u0000).', [
    { field, code: 'invalid_string', message: 'Text must not contain the NUL character (\\u0000).' },
  ]);

/**
 * In a JSON text a NUL can only be the escape `\u0000` (a raw control character is not valid JSON) not itself
 * escaped, so the body's text is searched once; Hono keeps that text for the route's own parse. Path and
 * query: `%00`.
 */
export function refuseNulText(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // A pushed SHDR line is read as its adapter's stream would be: NUL becomes U+FFFD (ingest shdr.ts).
    if (c.req.path.startsWith('/api/gateway-push')) return next();
    const url = c.req.url;
    const q = url.indexOf('?');
    if (/%00/.test(q < 0 ? url : url.slice(0, q))) throw refuse('(path)');
    if (q >= 0 && /%00/.test(url.slice(q))) throw refuse('(query)');
    // Every route reads its body as JSON whatever the content type says, so every body is searched.
    if (c.req.raw.body && /(^|[^\\])(\\\\)*\\u0000/i.test(await c.req.text())) throw refuse('(body)');
    await next();
  };
}
