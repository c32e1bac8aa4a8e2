import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { sql } from 'kysely';
import { z } from 'zod';
import { pendingMigrations } from '@takt/db';
import { bearerToken } from '../auth/tokens';
import type { AppEnv } from '../http/context';
import { clientAddress } from '../http/client-address';
import { ApiError } from '../http/errors';

// Operations endpoints outside /api (decisions 0960, 0961): no session, so a load balancer, an orchestrator
// and Prometheus can call them; never a 401.

/** GET /healthz's answer. The OpenAPI description is built from these schemas (routes/openapi.ts). */
export const healthSchema = z.object({ status: z.literal('ok') });
/** GET /readyz's answer when the node may take traffic. */
export const readySchema = z.object({ status: z.literal('ready') });
/** GET /readyz's 503: why the node must not take traffic. */
export const unavailableSchema = z.object({
  status: z.literal('unavailable'),
  reason: z.enum(['DATABASE_UNREACHABLE', 'MIGRATIONS_PENDING']),
  message: z.string(),
});
type Health = z.infer<typeof healthSchema>;
type Ready = z.infer<typeof readySchema>;
type Unavailable = z.infer<typeof unavailableSchema>;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export const healthRoutes = new Hono<AppEnv>()
  // Liveness: the process answers HTTP. Never touches the database, so a slow database does not get every node
  // restarted at once.
  .get('/healthz', (c) => c.json<Health>({ status: 'ok' }))
  // Readiness: the database answers and this build's migrations are all applied; else 503 with the reason, so
  // a balancer sends traffic elsewhere.
  .get('/readyz', async (c) => {
    const { db } = c.var.deps;
    try {
      await sql`SELECT 1`.execute(db);
    } catch {
      // No driver text: the endpoint is public, and its message would name hosts and users.
      return c.json<Unavailable, 503>(
        { status: 'unavailable', reason: 'DATABASE_UNREACHABLE', message: 'The database does not answer.' },
        503,
      );
    }
    const pending = await pendingMigrations(db).catch(() => null);
    if (pending === null || pending.length > 0) {
      return c.json<Unavailable, 503>(
        {
          status: 'unavailable',
          reason: 'MIGRATIONS_PENDING',
          message:
            pending === null
              ? 'The applied migrations could not be read.'
              : `${pending.length} migration(s) not applied: ${pending.join(', ')}.`,
        },
        503,
      );
    }
    return c.json<Ready>({ status: 'ready' });
  })
  // Prometheus text format. Readable with TAKT_METRICS_TOKEN as a bearer token when set, else from loopback
  // only (decision 0961).
  .get('/metrics', async (c) => {
    const { metricsToken } = c.var.deps;
    const token = bearerToken(c.req.header('authorization'));
    const allowed = metricsToken
      ? token !== null && sameToken(token, metricsToken)
      : LOOPBACK.test(clientAddress(c) ?? '');
    if (!allowed) {
      throw new ApiError(
        403,
        'FORBIDDEN',
        metricsToken
          ? 'Metrics need the metrics token (Authorization: Bearer).'
          : 'Metrics are readable from this host only (set TAKT_METRICS_TOKEN to read them from elsewhere).',
      );
    }
    const { registry } = c.var.metrics;
    return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType });
  });
