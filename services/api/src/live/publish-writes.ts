import type { MiddlewareHandler } from 'hono';
import { machinesActedOn } from '../auth/tablet-binding';
import type { AppEnv } from '../http/context';
import type { LiveEvent } from './bus';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A write through the HTTP API (an office user categorizing a downtime, an admin dispatching a job) reaches
 * the machine's open live channels on every API process, as the same action queued offline does through
 * the sync endpoint (services/sync.ts). The machines are read from the request before it runs, so a deleted
 * record still names its machine; the event leaves only after the route answered 2xx, that is after its
 * transaction committed. A lost event only costs a stale view until the next poll, so a bus failure does not
 * fail the request.
 */
export function publishesWrites(topic: LiveEvent['topic']): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!WRITES.has(c.req.method)) return next();
    const machines = await machinesActedOn(c);
    await next();
    if (c.res.status >= 300 || machines.length === 0) return;
    const companyId = c.var.scope.companyId;
    await c.var.deps.bus
      .publish(machines.map((machineId) => ({ companyId, machineId, topic })))
      .catch(() => {});
  };
}
