import { describe, expect, it } from 'vitest';
import type { ApiKeyScope } from '@takt/domain';
import { apiKeyMayCall } from './api-key-scopes';

// Decision 0840: what each scope opens, as a table (method, path, scopes → allowed).
const R: ApiKeyScope[] = ['reports:read'];
const W: ApiKeyScope[] = ['operations:write'];
const J: ApiKeyScope[] = ['jobs:write'];

describe('apiKeyMayCall', () => {
  it.each([
    ['GET', '/api/me', [], true],
    ['GET', '/api/reports/downtime', R, true],
    ['GET', '/api/reports/warehouse/jobs', R, true],
    ['POST', '/api/reports/warehouse/production', R, true],
    ['POST', '/api/oee/bymachine', R, true],
    ['GET', '/api/dashboard', R, true],
    ['GET', '/api/dashboard/parts', R, true],
    ['GET', '/api/partadjustment/rejects', R, true],
    ['GET', '/api/shifts/current', R, true],
    ['POST', '/api/partadjustment', R, false],
    ['POST', '/api/reports/event/queue', R, false],
    ['GET', '/api/reports/export/download/x', R, false],
    ['PUT', '/api/reports/downtime', R, false],
    ['POST', '/api/shifts', R, false],
    ['GET', '/api/reports/downtime', W, false],
    ['POST', '/api/dispatch/start', W, true],
    ['POST', '/api/annotations/setRange', W, true],
    ['DELETE', '/api/partadjustment/abc', W, true],
    ['POST', '/api/setup/end', W, true],
    ['PUT', '/api/setup/stages', W, false],
    ['POST', '/api/operators', W, false],
    ['GET', '/api/operators', W, true],
    ['GET', '/api/partadjustment', W, false],
    ['GET', '/api/partadjustment', R, true],
    ['POST', '/api/sync', [...R, ...W], false],
    ['GET', '/api/apikeys', [...R, ...W], false],
    ['GET', '/api/tablets', [...R, ...W], false],
    ['GET', '/api/dashboardx', R, false],
    ['HEAD', '/api/dashboard', R, true],
    // Decision 1047: an ERP's work orders, and the report reads of production runs and machine groups.
    ['POST', '/api/jobs', J, true],
    ['PUT', '/api/jobs/abc', J, true],
    ['PUT', '/api/jobs/abc', [...R, ...W], false],
    ['GET', '/api/jobs', J, true],
    ['POST', '/api/jobmachines', J, true],
    ['POST', '/api/jobmachines', W, false],
    ['GET', '/api/jobmachines', W, true],
    ['POST', '/api/productionruns', J, true],
    ['PUT', '/api/productionruns/abc', J, true],
    ['DELETE', '/api/productionruns/abc', J, true],
    ['GET', '/api/productionruns', R, true],
    ['PUT', '/api/productionruns/abc', R, false],
    ['POST', '/api/jobs', [...R, ...W], false],
    ['GET', '/api/machinegroups', R, true],
    ['POST', '/api/machinegroups', R, false],
    ['GET', '/api/reports/downtime', J, false],
    ['POST', '/api/shifts', J, false],
  ] as const)('%s %s with %j → %s', (method, path, scopes, allowed) => {
    expect(apiKeyMayCall(scopes, method, path)).toBe(allowed);
  });
});
