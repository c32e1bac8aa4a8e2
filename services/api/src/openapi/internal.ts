import { z } from 'zod';
import {
  internalCompanyBodySchema,
  internalCompanyListSchema,
  internalCompanyMutedSchema,
  internalCompanyQuerySchema,
  internalCompanySchema,
  internalMachinePageSchema,
  internalMachinePatchSchema,
  internalMachineQuerySchema,
  systemVersionSchema,
  tabletRefreshAllSchema,
  versionIncrementSchema,
} from '@takt/domain';
import { adapterBody, adapterPatch, cloneBody, importBody } from '../routes/adapters';
import { bindBody, createBody, listQuery, pusherUpdateBody, updateBody } from '../routes/gateways';
import type { DocumentedCall } from './call';

// Root users' calls (reports-admin §2 "Internal screens", decisions 0920-0923): companies, all machines,
// the system version, gateways and adapters. Never for an API key.

const ROOT = 'root users';
const ADMINS = 'admins';
/** The adapter calls read `?companyId=` themselves (a root user acting for a customer; decision 0946). */
const companyChoice = z.object({ companyId: z.string().min(1).optional() });

const root = (
  method: DocumentedCall['method'],
  path: string,
  summary: string,
  more: Partial<DocumentedCall> = {},
): DocumentedCall => ({ method, path, summary, access: 'session', who: ROOT, ...more });

export const INTERNAL_CALLS: readonly DocumentedCall[] = [
  root('get', '/api/internal/companies', 'Companies', {
    query: internalCompanyQuerySchema,
    response: internalCompanyListSchema,
  }),
  root('post', '/api/internal/companies', 'Create a company', {
    body: internalCompanyBodySchema,
    response: internalCompanySchema,
    status: 201,
  }),
  root('put', '/api/internal/companies/{id}', 'Change a company', {
    body: internalCompanyBodySchema,
    response: internalCompanySchema,
  }),
  root('put', '/api/internal/companies/{id}/muted', 'Mute or unmute a company’s e-mails', {
    body: internalCompanyMutedSchema,
    response: internalCompanySchema,
  }),
  root('get', '/api/internal/machines', 'Machines of every company', {
    query: internalMachineQuerySchema,
    response: internalMachinePageSchema,
  }),
  root('put', '/api/internal/machines/{id}', 'Change any company’s machine', {
    body: internalMachinePatchSchema,
    status: 204,
  }),
  root('get', '/api/internal/system/version', 'System version and revisions', {
    response: systemVersionSchema,
  }),
  root('post', '/api/internal/system/version/increment', 'Increment a revision (apps reload)', {
    body: versionIncrementSchema,
    optionalBody: true,
  }),
  root('post', '/api/internal/system/tablets/refresh-all', 'Reload every tablet of every company', {
    response: tabletRefreshAllSchema,
  }),
  root('post', '/api/internal/system/tablets/purge', 'Remove stale tablets of every company'),
  // Gateways (reports-admin §2 Gateways).
  {
    method: 'get',
    path: '/api/gateways/status',
    summary: 'Status of the company’s gateways',
    access: 'session',
    who: ADMINS,
  },
  root('get', '/api/gateways', 'Gateways', { query: listQuery }),
  root('get', '/api/gateways/companies', 'Companies a gateway may serve'),
  root('get', '/api/gateways/{id}', 'One gateway'),
  root('post', '/api/gateways', 'Create a gateway (its token is in this answer only)', {
    body: createBody,
    status: 201,
  }),
  root('put', '/api/gateways/{id}', 'Change a gateway', { body: updateBody }),
  root('delete', '/api/gateways/{id}', 'Delete a gateway', { status: 204 }),
  root('post', '/api/gateways/{id}/enable', 'Enable a gateway'),
  root('post', '/api/gateways/{id}/disable', 'Disable a gateway'),
  root('post', '/api/gateways/{id}/reset', 'Reset a gateway’s token'),
  root('post', '/api/gateways/{id}/deregister', 'Deregister a gateway'),
  root('post', '/api/gateways/{id}/pusher-update', 'Ask a gateway to update its pusher', {
    body: pusherUpdateBody,
  }),
  root('post', '/api/gateways/{id}/machines', 'Bind a machine to a gateway', { body: bindBody, status: 201 }),
  root('delete', '/api/gateways/{id}/machines/{machineId}', 'Unbind a machine from a gateway', {
    status: 204,
  }),
  // Adapters (reports-admin §2 Adapters): admins read their company's, root users change them.
  {
    method: 'get',
    path: '/api/adapters',
    summary: 'Adapters',
    access: 'session',
    who: ADMINS,
    query: companyChoice,
  },
  {
    method: 'get',
    path: '/api/adapters/types',
    summary: 'Adapter types',
    access: 'session',
    who: ADMINS,
    query: companyChoice,
  },
  root('get', '/api/adapters/data-items', 'MTConnect data items an adapter field may map', {
    query: companyChoice,
  }),
  root('post', '/api/adapters/import', 'Import adapters', { query: companyChoice, body: importBody }),
  {
    method: 'get',
    path: '/api/adapters/{id}',
    summary: 'One adapter',
    access: 'session',
    who: ADMINS,
    query: companyChoice,
  },
  root('post', '/api/adapters', 'Create an adapter', {
    query: companyChoice,
    body: adapterBody,
    status: 201,
  }),
  root('put', '/api/adapters/{id}', 'Change an adapter', { query: companyChoice, body: adapterPatch }),
  root('delete', '/api/adapters/{id}', 'Delete an adapter', { query: companyChoice, status: 204 }),
  root('post', '/api/adapters/{id}/clone', 'Copy an adapter', {
    query: companyChoice,
    body: cloneBody,
    status: 201,
  }),
];
