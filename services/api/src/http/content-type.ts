import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import { ApiError } from './errors';

// One body type for every route (decision 0994). Every handler reads its body as JSON (jsonBody,
// optionalJsonBody, the gateway push), whatever the request says it is; a check that looked only at bodies
// labelled JSON (the tablet binding did) was skipped by the same body sent as text/plain or unlabelled (issue 26
// finding 7). So a request that carries a body must label it JSON, and is refused with 415 otherwise, before
// any check or handler reads it. No route takes another type today: the Devices.xml import posts the XML as a
// JSON string, the gateway push is JSON, CSVs are downloads (GET), sign-in is JSON.

export const JSON_ONLY_MESSAGE =
  'The request body must be JSON, sent with Content-Type: application/json (charset utf-8 if given).';

const unsupported = () => new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', JSON_ONLY_MESSAGE);

/**
 * `application/json`, optionally with `charset=utf-8` (JSON is UTF-8, RFC 8259 §8.1); any other parameter,
 * charset or `+json` type is not what the routes parse.
 */
export function isJsonContentType(header: string | undefined | null): boolean {
  if (!header) return false;
  const [type, ...params] = header.split(';').map((p) => p.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((p) => p === '' || /^charset\s*=\s*"?utf-8"?$/.test(p));
}

const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * 415 UNSUPPORTED_MEDIA_TYPE for a non-empty body not labelled JSON (text/plain, a form, multipart, none, an odd
 * charset). An empty body may carry any label: nothing is parsed from it. The body's text is read once here
 * (Hono keeps it for the route's own parse), within the body limit that runs first.
 */
export function jsonBodiesOnly(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (BODYLESS_METHODS.has(c.req.method) || !c.req.raw.body) return next();
    if (isJsonContentType(c.req.header('content-type'))) return next();
    if ((await c.req.text()) !== '') throw unsupported();
    return next();
  };
}
