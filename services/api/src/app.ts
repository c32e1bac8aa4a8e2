import { createNodeWebSocket } from '@hono/node-ws';
import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import { HTTPException } from 'hono/http-exception';
import { NoSuchCompany } from '@takt/db/rollups';
import { requestId } from 'hono/request-id';
import { requireCaller } from './auth/middleware';
import type { AppEnv, Deps } from './http/context';
import { ApiError, notAuthenticated } from './http/errors';
import { TooManyRequests } from './http/rate-limit';
import { permitSyncHandlers } from './http/permissions';
import { serveApps } from './http/static';
import { bindSyncHandlers } from './auth/tablet-binding';
import { liveChannelRoutes } from './live/channel';
import { publishesWrites } from './live/publish-writes';
import { tabletAuthRoutes } from './live/tablet-auth';
import { authRoutes, meRoutes } from './routes/auth';
import { apiKeysRoutes } from './routes/api-keys';
import { accountLinkRoutes, invitesRoutes, profileRoutes, usersRoutes } from './routes/accounts-users';
import { openApiRoutes } from './routes/openapi';
import { apiDocsRoutes } from './routes/api-docs';
import { adaptersRoutes } from './routes/adapters';
import { diagnosticsRoutes } from './routes/diagnostics';
import { machinesAdminRoutes } from './routes/machines-admin';
import { machineNotificationRoutes } from './routes/machine-notifications';
import { machineGroupsRoutes } from './routes/machine-groups';
import { gatewayPushRoutes } from './routes/gateway-push';
import { gatewaysRoutes } from './routes/gateways';
import { annotationTypeRoutes } from './routes/annotation-types';
import { annotationRoutes } from './routes/annotations';
import { companyRoutes } from './routes/company';
import { dashboardRoutes } from './routes/dashboard';
import { downtimeRoutes } from './routes/downtime';
import { partAdjustmentTypeRoutes } from './routes/part-adjustment-types';
import { partAdjustmentRoutes } from './routes/part-adjustments';
import { reportsRoutes } from './routes/reports';
import { jobsReportRoutes } from './routes/jobs-report';
import { oeeRoutes, productionReportRoutes } from './routes/production-report';
import { warehouseReportRoutes } from './routes/warehouse-reports';
import { machineStatusesRoutes } from './routes/machine-statuses';
import { simulationRoutes } from './routes/simulation';
import { machines17Routes, machineStreamsRoutes } from './routes/machines17';
import { dispatchRoutes } from './routes/dispatch';
import { jobMachinesRoutes, jobsRoutes } from './routes/jobs';
import { operatorRunsRoutes, operatorsRoutes } from './routes/operators';
import { setupRoutes } from './routes/setup';
import { setupStagesRoutes } from './routes/setup-stages';
import { shiftsRoutes } from './routes/shifts';
import { emailNotificationRoutes } from './routes/email-notifications';
import { userPreferencesRoutes } from './routes/user-preferences';
import { anonymizeAnswers } from './http/anonymize';
import { eventExportRoutes } from './routes/event-exports';
import { overridesRoutes } from './routes/overrides';
import { productionRunsRoutes } from './routes/production-runs';
import { timeContextRoutes } from './routes/time-context';
import { syncRoutes } from './routes/sync';
import { tabletDeviceRoutes, tabletsRoutes } from './routes/tablets';
import { workcenterRoutes } from './routes/workcenter';
import { userTokenRoutes } from './routes/user-token';
import { internalCompaniesRoutes } from './routes/internal-companies';
import { internalMachinesRoutes } from './routes/internal-machines';
import { internalSystemRoutes } from './routes/internal-system';
import { syncHandlers } from './services/sync-handlers';
import { currentVersionStamp, knownVersionStamp } from './services/internal-system';
import { setMadeHeader } from './http/response-header';
import { healthRoutes } from './routes/health';
import { bodyLimits } from './http/body-limits';
import { jsonBodiesOnly } from './http/content-type';
import { refuseNulText } from './http/nul-text';
import { createMetrics } from './http/metrics';
import { observeRequests, routeOf } from './http/observe';
import { securityHeaders } from './http/security';
import { HeldSums } from './services/held-sums';
import { DashboardAnswers } from './services/dashboard-shared';

/** The largest WebSocket message a client may send (/live, /tablet-auth). */
export const MAX_SOCKET_MESSAGE_BYTES = 64 * 1024;

/**
 * The HTTP application: request id, version header, error mapping and not-found once, then one sub-app per
 * resource. Everything under /api needs a caller.
 */
export function createApp(deps: Deps): Hono<AppEnv> {
  return buildApp(deps).app;
}

/** The app plus the hook that lets a Node HTTP server accept the live channel's WebSocket upgrades. */
export function buildApp(given: Deps) {
  // One app, one set of kept goal sums (decision 1191) and dashboard answers (decision 1200), unless the caller
  // shares its own.
  const deps: Deps = {
    ...given,
    heldSums: given.heldSums ?? new HeldSums(),
    dashboardAnswers: given.dashboardAnswers === undefined ? new DashboardAnswers() : given.dashboardAnswers,
  };
  const app = new Hono<AppEnv>();
  const { upgradeWebSocket, injectWebSocket, wss } = createNodeWebSocket({ app });
  // Socket messages are small JSON (join, get_code): a frame over 64 KiB closes the socket (1009) instead of
  // being buffered (ws allows 100 MiB by default; decision 0992).
  wss.options.maxPayload = MAX_SOCKET_MESSAGE_BYTES;

  // A test app makes its own registry, without the process metrics (they would pile up per app).
  const metrics = deps.metrics ?? createMetrics({ db: deps.db, defaultMetrics: false });
  const frame = { frameAncestors: deps.frameAncestors ?? [] };

  app.use('*', requestId());
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('metrics', metrics);
    await next();
    // The build's version plus the System page's revisions (decision 0922), so an increment reaches every app.
    // Liveness answers without waiting for the database (decision 0960).
    setMadeHeader(
      c,
      'MM-API-Version',
      c.req.path === '/healthz' ? knownVersionStamp(deps.db) : await currentVersionStamp(deps),
    );
  });
  app.use('*', observeRequests(metrics, deps.log));
  app.use('*', securityHeaders(frame));
  app.use('*', bodyLimits());
  // Cookies are SameSite=Strict; this also refuses cross-origin form posts (CSRF) outright.
  app.use('*', csrf());
  // A body is JSON or refused (415) before any check or handler reads it (decision 0994).
  app.use('*', jsonBodiesOnly());
  app.use('*', refuseNulText());

  // /healthz, /readyz and /metrics: outside /api, no session (decisions 0960, 0961).
  app.route('/', healthRoutes);
  app.route('/', authRoutes);

  // Gateways authenticate by gateway token, not by cookie: registered before the cookie-guarded /api, this
  // handler answers first and requireCaller never runs for it.
  app.route('/api/gateway-push', gatewayPushRoutes);
  // The API description is public (decision 0841), so it sits before the caller-guarded /api.
  app.route('/api/openapi.json', openApiRoutes);
  // Its readable reference page, served from this process (no CDN; decision 1046).
  app.route('/api/docs', apiDocsRoutes);
  // E-mailed set-password links and "forgot password" work without a session (the token is the proof).
  app.route('/api/account', accountLinkRoutes);
  // A registered tablet activates with its device token (no session yet).
  app.route('/tablet', tabletDeviceRoutes);

  const api = new Hono<AppEnv>();
  api.use('*', requireCaller);
  // The anonymize option (decision 1116): report and dashboard answers with stand-in names, when the user chose it.
  api.use('*', anonymizeAnswers);
  // Writes that change what a machine's live channel shows are announced on the bus once they committed.
  for (const [path, topic] of [
    ['/dispatch/*', 'jobs'],
    ['/setup/*', 'jobs'],
    ['/jobmachines/*', 'jobs'],
    ['/operatorruns/*', 'operators'],
    ['/downtime/*', 'annotations'],
    ['/annotations/*', 'annotations'],
    ['/partadjustment/*', 'parts'],
  ] as const)
    api.use(path, publishesWrites(topic));
  api.route('/me', meRoutes);
  api.route('/me/preferences', userPreferencesRoutes);
  api.route('/apikeys', apiKeysRoutes);
  api.route('/users', usersRoutes);
  api.route('/invites', invitesRoutes);
  api.route('/profile', profileRoutes);
  api.route('/dashboard', dashboardRoutes);
  api.route('/jobs', jobsRoutes);
  api.route('/jobmachines', jobMachinesRoutes);
  api.route('/dispatch', dispatchRoutes);
  api.route('/setup', setupRoutes);
  api.route('/setup/stages', setupStagesRoutes);
  api.route('/operators', operatorsRoutes);
  api.route('/operatorruns', operatorRunsRoutes);
  api.route('/shifts', shiftsRoutes);
  api.route('/downtime', downtimeRoutes);
  api.route('/annotations', annotationRoutes);
  api.route('/annotationtypes', annotationTypeRoutes);
  api.route('/partadjustment', partAdjustmentRoutes);
  api.route('/partadjustmenttypes', partAdjustmentTypeRoutes);
  api.route('/reports', reportsRoutes);
  api.route('/reports', productionReportRoutes);
  api.route('/reports', warehouseReportRoutes);
  api.route('/reports', jobsReportRoutes);
  api.route('/productionruns', productionRunsRoutes);
  api.route('/oee', oeeRoutes);
  api.route('/gateways', gatewaysRoutes);
  api.route('/adapters', adaptersRoutes);
  api.route('/machines', machineStatusesRoutes);
  api.route('/machines', diagnosticsRoutes);
  api.route('/machines', machineStreamsRoutes);
  api.route('/machines17', machines17Routes);
  api.route('/machines', machinesAdminRoutes);
  api.route('/machines', machineNotificationRoutes);
  api.route('/machines', simulationRoutes);
  api.route('/machinegroups', machineGroupsRoutes);
  api.route('/sync', syncRoutes(bindSyncHandlers(permitSyncHandlers(syncHandlers))));
  api.route('/tablets', tabletsRoutes);
  api.route('/workcenter', workcenterRoutes);
  api.route('/user-token', userTokenRoutes);
  api.route('/emailnotifications', emailNotificationRoutes);
  api.route('/timecontext', timeContextRoutes);
  api.route('/company', companyRoutes);
  // reports-admin §2 "Internal screens" (root users only; decisions 0920-0923).
  api.route('/internal/companies', internalCompaniesRoutes);
  api.route('/internal/machines', internalMachinesRoutes);
  api.route('/internal/system', internalSystemRoutes);
  // POST /api/reports/event/queue, GET /api/reports/export/download/:id (beside the report routes).
  api.route('/reports', eventExportRoutes);
  api.route('/reports', overridesRoutes);
  app.route('/api', api);
  // The live channel authenticates itself, so a bad caller gets the channel error NOT_AUTHENTICATED.
  app.route('/live', liveChannelRoutes(upgradeWebSocket, deps.bus));
  // Tablet registration (live-operations §7): open to unregistered tablets by design.
  app.route('/tablet-auth', tabletAuthRoutes(upgradeWebSocket, deps.bus));
  app.all('/api/*', (c) => c.json({ error: { code: 'NOT_FOUND', message: 'No such API route.' } }, 404));

  if (deps.staticRoot) app.use('*', serveApps(deps.staticRoot, frame));

  app.notFound((c) => c.json({ error: { code: 'NOT_FOUND', message: 'Not found.' } }, 404));
  app.onError(async (err, c) => {
    c.header('MM-API-Version', await currentVersionStamp(deps));
    if (err instanceof ApiError) {
      // Every 429 says when to come back (decision 0987).
      if (err instanceof TooManyRequests) c.header('Retry-After', String(err.retryAfterS));
      return c.json(
        { error: { code: err.code, message: err.message, ...(err.issues ? { issues: err.issues } : {}) } },
        err.status,
      );
    }
    // The caller's company went away after its request was authenticated (decision 1221): the answer the next
    // request gets from authentication, not a 500.
    if (err instanceof NoSuchCompany) {
      const e = notAuthenticated();
      return c.json({ error: { code: e.code, message: e.message } }, e.status);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      const code = status === 403 ? 'FORBIDDEN' : 'HTTP_ERROR';
      return c.json({ error: { code, message: err.message || 'The request was refused.' } }, status);
    }
    const entry = {
      level: 'error' as const,
      msg: 'unhandled error',
      reqId: c.var.requestId,
      method: c.req.method,
      route: routeOf(c),
      err,
    };
    if (deps.log) deps.log(entry);
    else console.error(JSON.stringify({ ...entry, err: { message: err.message, stack: err.stack } }));
    return c.json({ error: { code: 'INTERNAL', message: 'An error occurred with your request.' } }, 500);
  });
  return { app, injectWebSocket };
}
