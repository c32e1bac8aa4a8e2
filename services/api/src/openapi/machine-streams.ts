import {
  autoJobDispatchSchema,
  keyStatisticsQuerySchema,
  keyStatisticsSchema,
  streamInfoSchema,
  unmappedStatusSchema,
} from '../services/machine-streams';
import { machine17PageSchema, machine17QuerySchema, machine17Schema } from '../services/machines17';
import { ARTIFACT_NAMES, integrationTypeSchema } from '../services/adapter-artifacts';
import type { DocumentedCall } from './call';

// The version 17 machine and a machine's data stream (reports-admin §7 "GET /api/machines17", "Machines:
// query17, get17, streamInfo", "Adapters: … keyStatistics, unmappedStatus, autoJobDispatch"; decision 1107):
// admins of the company, logged in (no API key: decision 0840).

const ADMINS = 'admins';

export const MACHINE_STREAM_CALLS: readonly DocumentedCall[] = [
  {
    method: 'get',
    path: '/api/machines17',
    summary:
      'Every machine as the spec’s Machine: adapter, binding, gateway, sources, groups, decommissioned',
    access: 'session',
    who: ADMINS,
    response: machine17Schema.array(),
  },
  {
    method: 'get',
    path: '/api/machines17/query',
    summary: 'A page of machines (query17): limit, offset, orderBy, orderDirection, filter',
    access: 'session',
    who: ADMINS,
    query: machine17QuerySchema,
    response: machine17PageSchema,
  },
  {
    method: 'get',
    path: '/api/machines17/{id}',
    summary: 'One machine as the spec’s Machine (get17)',
    access: 'session',
    who: ADMINS,
    response: machine17Schema,
  },
  {
    method: 'get',
    path: '/api/machines/{id}/stream-info',
    summary: 'A machine’s data stream: sources, counters, last data, connection, the last hour’s keys',
    access: 'session',
    who: ADMINS,
    response: streamInfoSchema,
  },
  {
    method: 'get',
    path: '/api/machines/{id}/adapter/key-statistics',
    summary: 'Each key a machine’s data carried in the last minutes: count, times, last value, mapping',
    access: 'session',
    who: ADMINS,
    query: keyStatisticsQuerySchema,
    response: keyStatisticsSchema,
  },
  {
    method: 'get',
    path: '/api/machines/{id}/adapter/unmapped-status',
    summary: 'Keys of the last hour no adapter field maps (polled every 10 s)',
    access: 'session',
    who: ADMINS,
    response: unmappedStatusSchema,
  },
  {
    method: 'get',
    path: '/api/machines/{id}/adapter/auto-job-dispatch',
    summary:
      'What auto job dispatch reads from a machine’s data: the key, its value, the job it names, or why none',
    access: 'session',
    who: ADMINS,
    response: autoJobDispatchSchema,
  },
  // Integration types and adapter artifacts (decision 1108).
  {
    method: 'get',
    path: '/api/adapters/integration-types',
    summary: 'The ways a machine’s data reaches Takt, with what each needs and the adapter files it uses',
    access: 'session',
    who: ADMINS,
    response: integrationTypeSchema.array(),
  },
  {
    method: 'get',
    path: '/api/adapters/{id}/artifacts/{name}',
    summary: 'A file for setting up an adapter: its Devices.xml or its SHDR key sheet',
    access: 'session',
    who: ADMINS,
    produces: 'text/plain',
    pathEnums: { name: ARTIFACT_NAMES },
  },
];
