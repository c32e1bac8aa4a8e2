import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from './context';
import type { LogSink } from './log';
import type { Metrics } from './metrics';

/**
 * The route pattern that answered (`/api/machines/:id`), never the raw path, so ids do not make a label or a
 * log field per record: the last matched handler that is not a catch-all middleware; the built apps' files
 * and pages are `static`, anything else `unmatched`.
 */
export function routeOf(c: Context): string {
  const routes = matchedRoutes(c);
  const answered = routes[c.req.routeIndex];
  if (answered && answered.path !== '/*' && answered.path !== '*') return answered.path;
  return answered && answered.handler.name === 'serveApps' ? 'static' : 'unmatched';
}

/**
 * One JSON log line and one latency observation per request, after the answer (errors included: onError has
 * made its answer by then). `reqId` is the request id middleware's (X-Request-Id honoured, else made).
 */
export function observeRequests(metrics: Metrics, log: LogSink | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const ms = performance.now() - started;
    const route = routeOf(c);
    const status = c.res.status;
    metrics.httpDuration.observe({ method: c.req.method, route, status: String(status) }, ms / 1000);
    log?.({
      level: status >= 500 ? 'error' : 'info',
      msg: 'request',
      reqId: c.var.requestId,
      method: c.req.method,
      route,
      status,
      ms: Math.round(ms * 10) / 10,
    });
  };
}
