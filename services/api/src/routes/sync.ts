import { Hono } from 'hono';
import { syncBatchSchema } from '@takt/domain';
import type { AppEnv, Caller } from '../http/context';
import { enforceRate } from '../http/rate-limit';
import { SYNC_RATE, SYNC_RATE_TEXT } from '../services/push-rates';
import { jsonBody } from '../http/validate';
import { applySyncBatch } from '../services/sync';
import type { SyncHandlers } from '../services/sync';

/** Whose sync counter a request takes from: the tablet, else the user or API key. */
const callerKey = (caller: Caller): string =>
  caller.kind === 'tablet' ? `tablet:${caller.tablet.id}` : `${caller.kind}:${caller.user.id}`;

/** POST /api/sync: the floor app's outbox batches (ARCHITECTURE.md "Offline sync contract"). */
export const syncRoutes = (handlers: SyncHandlers) =>
  new Hono<AppEnv>().post('/', async (c) => {
    // Counted per caller before the body is read (decision 0991): 429 with Retry-After over the limit.
    const { db, now } = c.var.deps;
    await enforceRate(db, SYNC_RATE, callerKey(c.var.caller), now(), 'TOO_MANY_REQUESTS', SYNC_RATE_TEXT);
    const batch = await jsonBody(c, syncBatchSchema);
    const results = await applySyncBatch(
      {
        scope: c.var.scope,
        caller: c.var.caller,
        now: c.var.deps.now(),
        bus: c.var.deps.bus,
        handlers,
        onTimeRefused: () => c.var.metrics.timesRefused('sync'),
      },
      batch,
    );
    return c.json({ results });
  });
