import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from './context';

// Every route reads at most so many bytes of body (decision 0963): a runaway or hostile body is refused with
// 413 before anything parses it, never buffered whole and never a 500.

const MB = 1024 * 1024;

/** Everything not listed below: forms, commands and report queries are a few kilobytes. */
export const DEFAULT_BODY_BYTES = 1 * MB;

/**
 * Routes the spec gives large bodies, by path prefix (first match wins):
 * - gateway pushes: up to MAX_PUSH_RECORDS (10,000) SHDR lines a batch (the push route's own limit, 32 MB);
 * - the adapter import: a whole Devices.xml and an SHDR sample, each up to 8 MB (routes/adapters.ts), and
 *   adapters with up to 5000 fields;
 * - the floor app's sync: up to SYNC_BATCH_MAX (200) commands a batch, each with its payload and message.
 */
export const BODY_LIMITS: ReadonlyArray<{ prefix: string; bytes: number; message?: string }> = [
  // Largest push body: MAX_PUSH_RECORDS short lines fit easily; a runaway body is refused before parsing.
  { prefix: '/api/gateway-push', bytes: 32 * MB, message: 'The push is too large; send fewer records.' },
  { prefix: '/api/adapters', bytes: 20 * MB },
  { prefix: '/api/sync', bytes: 4 * MB },
];

const limitOf = (path: string) =>
  BODY_LIMITS.find((l) => path === l.prefix || path.startsWith(`${l.prefix}/`));

export function bodyLimitFor(path: string): number {
  return limitOf(path)?.bytes ?? DEFAULT_BODY_BYTES;
}

/** 413 PAYLOAD_TOO_LARGE with the limit in words, on every route. */
export function bodyLimits(): MiddlewareHandler<AppEnv> {
  const limiter = (bytes: number, message: string) =>
    bodyLimit({
      maxSize: bytes,
      onError: (c) => c.json({ error: { code: 'PAYLOAD_TOO_LARGE', message } }, 413),
    });
  const fallback = limiter(
    DEFAULT_BODY_BYTES,
    `The request body is too large: at most ${DEFAULT_BODY_BYTES / MB} MB is accepted here.`,
  );
  const limiters = new Map(
    BODY_LIMITS.map((l) => [
      l,
      limiter(
        l.bytes,
        l.message ?? `The request body is too large: at most ${l.bytes / MB} MB is accepted here.`,
      ),
    ]),
  );
  return (c, next) => {
    const l = limitOf(c.req.path);
    return (l ? limiters.get(l)! : fallback)(c, next);
  };
}
