import type { DocumentedCall } from '../openapi/call';
import { HOUR } from './downtime-builders';
import { ROUTES } from './route-table';
import type { Method, RouteCase } from './route-table';

// Requests for the calls an API key may make that the shared route table (route-table.ts) has none for, and
// the lookup of a documented call's request: the key-scope walk (decisions 0840, 1047) and the answer
// check (decision 1079) send the same requests.

export const KEY_ROUTES: RouteCase[] = [
  { method: 'GET', path: '/api/dashboard/cycles', reach: 'own' },
  {
    method: 'PUT',
    path: '/api/jobs/:id',
    full: true,
    reach: 'company',
    id: (s) => s.jobId,
    body: () => ({ quantity: 500 }),
  },
  // One job with its machines (the office's job screen, decision 1084).
  { method: 'GET', path: '/api/jobs/:id', full: true, reach: 'company', id: (s) => s.jobId },
  // JobMachine delete (decision 1106): a job machine without an open run.
  {
    method: 'DELETE',
    path: '/api/jobmachines/:id',
    full: true,
    reach: 'machine',
    id: (s) => s.spareJobMachineId,
  },
  {
    method: 'GET',
    path: '/api/reports/operation',
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId, start: s.T - HOUR, end: s.T }),
  },
  {
    method: 'GET',
    path: '/api/reports/subprograms',
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId, start: s.T - HOUR, end: s.T }),
  },
  // The remaining report calls (decision 1096).
  {
    method: 'GET',
    path: '/api/reports/faults',
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId, start: s.T - HOUR, end: s.T }),
  },
  {
    method: 'GET',
    path: '/api/reports/timelinelist',
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId, start: s.T - HOUR, end: s.T }),
  },
  {
    method: 'POST',
    path: '/api/reports/warehouse/downtime',
    reach: 'machine',
    body: (s) => ({ start: s.T - HOUR, end: s.T, groupBy: 'machine', filter: { machine: s.machineId } }),
  },
  {
    method: 'POST',
    path: '/api/reports/warehouse/quality',
    reach: 'machine',
    body: (s) => ({ start: s.T - HOUR, end: s.T, groupBy: 'machine', filter: { machine: s.machineId } }),
  },
  { method: 'GET', path: '/api/operators', reach: 'own' },
  { method: 'GET', path: '/api/shifts', reach: 'own' },
  { method: 'GET', path: '/api/shifts/current', reach: 'own' },
  { method: 'GET', path: '/api/shifts/color', reach: 'own' },
  { method: 'GET', path: '/api/shifts/defaults', reach: 'own' },
  { method: 'GET', path: '/api/partadjustmenttypes', reach: 'own' },
];

/** The request for a documented call: the first of `tables` with one for its method and path. */
export function routeOf(
  call: Pick<DocumentedCall, 'method' | 'path'>,
  tables: ReadonlyArray<readonly RouteCase[]> = [ROUTES, KEY_ROUTES],
): RouteCase | undefined {
  const method = call.method.toUpperCase() as Method;
  return tables.flat().find((r) => r.method === method && r.path.replace(/:(\w+)/g, '{$1}') === call.path);
}
