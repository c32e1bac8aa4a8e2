import { Hono } from 'hono';
import { syncBatchSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { jsonBody } from '../http/validate';
import { applySyncBatch } from '../services/sync';
import type { SyncHandlers } from '../services/sync';

/** POST /api/sync: the floor app's outbox batches (ARCHITECTURE.md "Offline sync contract"). */
export const syncRoutes = (handlers: SyncHandlers) =>
  new Hono<AppEnv>().post('/', async (c) => {
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
