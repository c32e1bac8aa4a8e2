import { Hono } from 'hono';
import { versionIncrementSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireRoot } from '../http/permissions';
import { optionalJsonBody } from '../http/validate';
import {
  incrementVersion,
  purgeEveryTablet,
  refreshEveryTablet,
  systemVersion,
} from '../services/internal-system';

// reports-admin §2 "System page", §7 "System: refresh all tablets; purge tablets (returns purgedTabletCount);
// increment version (type js optional)"; root users only (§6), everyone else 403 (decision 0922). The tablets
// and versions of every company, so the bare database (c.var.deps.db) on purpose, not the caller's scope.
//
//   GET  /api/internal/system/version                              → { apiRevision, jsRevision, version, updatedAt }
//   POST /api/internal/system/version/increment   { type?: 'js' }  → the same, incremented
//   POST /api/internal/system/tablets/refresh-all                  → { pushed, notPushed, notPushedTablets }
//   POST /api/internal/system/tablets/purge                        → { purgedTabletCount }

export const internalSystemRoutes = new Hono<AppEnv>()
  .use('*', requireRoot)
  .get('/version', async (c) => c.json(await systemVersion(c.var.deps.db)))
  .post('/version/increment', async (c) => {
    const { type } = await optionalJsonBody(c, versionIncrementSchema);
    return c.json(await incrementVersion(c.var.deps.db, type, c.var.deps.now()));
  })
  .post('/tablets/refresh-all', async (c) => c.json(await refreshEveryTablet(c.var.deps.db, c.var.deps.bus)))
  .post('/tablets/purge', async (c) => c.json(await purgeEveryTablet(c.var.deps.db)));
