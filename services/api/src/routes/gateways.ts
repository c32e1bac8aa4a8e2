import { Hono } from 'hono';
import { z } from 'zod';
import { queryBool } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireAdmin, requireRoot } from '../http/permissions';
import { jsonBody, queryParams } from '../http/validate';
import { SUPERVISOR_MODES } from '../repositories/gateways';
import type { GatewaySort } from '../services/gateways';
import {
  GATEWAY_SORTS,
  bindMachine,
  companyGatewayStatus,
  createGateway,
  deregisterGateway,
  disableGateway,
  editGateway,
  enableGateway,
  gatewayCompanyOptions,
  gatewayDetail,
  listGateways,
  removeGateway,
  requestPusherUpdate,
  resetGateway,
  unbindMachine,
} from '../services/gateways';

// ---------------------------------------------------------------------------------------------
// Bodies (reports-admin §2 list, §5 fields)

export const listQuery = z.object({
  sort: z.enum(Object.keys(GATEWAY_SORTS) as [GatewaySort, ...GatewaySort[]]).default('company'),
  direction: z.enum(['asc', 'desc']).default('asc'),
  /** reports-admin §2 filter "Unactivated Edges": only gateways that never pushed (or were deregistered). */
  unactivated: queryBool.optional(),
  /** reports-admin §2 filter "Inactive Companies": only gateways of companies without a machine in service. */
  inactiveCompanies: queryBool.optional(),
  company: z.string().min(1).optional(),
});

const name = z
  .string({ error: 'Missing required field: Name' })
  .trim()
  .min(1, 'Missing required field: Name')
  .max(250, 'Name must be at most 250 characters');
/** reports-admin §5: ingest multiplier min 0.1, max 100, step 0.1. */
const ingestMultiplier = z
  .number({ error: 'Ingest multiplier must be a number' })
  .min(0.1, 'Ingest multiplier must be at least 0.1')
  .max(100, 'Ingest multiplier must be at most 100')
  .refine((v) => Math.abs(v * 10 - Math.round(v * 10)) < 1e-6, 'Ingest multiplier must be a multiple of 0.1');
const optionalText = z.string().trim().max(250).nullish();
const pusherInput = z
  .object({
    drainCount: z.number().int().nonnegative(),
    drainInterval: z.number().int().positive(),
    packedRecordCount: z.number().int().positive(),
    pushInterval: z.number().int().positive(),
  })
  .partial()
  .strict();
const supervisorInput = z.object({ mode: z.enum(SUPERVISOR_MODES) }).strict();

export const createBody = z.object({
  name,
  companyId: z.string().min(1).nullish(),
  assetSerial: optionalText,
  edgeRef: optionalText,
  ingestMultiplier: ingestMultiplier.optional(),
  pusher: pusherInput.optional(),
  supervisor: supervisorInput.optional(),
});
export const updateBody = createBody.partial();
export const bindBody = z.object({
  machineId: z.string({ error: 'Missing required field: Machine' }).min(1, 'Missing required field: Machine'),
  machineRef: z
    .string({ error: 'Missing required field: Machine Ref' })
    .trim()
    .min(1, 'Missing required field: Machine Ref')
    .max(128),
});
export const pusherUpdateBody = z.object({
  version: z
    .string()
    .trim()
    .regex(/^\d+\.\d+\.\d+$/, 'Version must be x.y.z'),
});

// ---------------------------------------------------------------------------------------------
// /api/gateways: root administration, and the company admins' status (services/gateways.ts)

export const gatewaysRoutes = new Hono<AppEnv>()
  .get('/status', requireAdmin, async (c) =>
    c.json(await companyGatewayStatus(c.var.scope, c.var.deps.now())),
  )
  .get('/', requireRoot, async (c) => {
    const q = queryParams(c, listQuery);
    return c.json(await listGateways(c.var.deps.db, q, c.var.deps.now()));
  })
  .get('/companies', requireRoot, async (c) => c.json(await gatewayCompanyOptions(c.var.deps.db)))
  .get('/:id', requireRoot, async (c) =>
    c.json(await gatewayDetail(c.var.deps.db, c.req.param('id'), c.var.deps.now())),
  )
  .post('/', requireRoot, async (c) => {
    const input = await jsonBody(c, createBody);
    return c.json(await createGateway(c.var.deps.db, input, c.var.deps.now()), 201);
  })
  .put('/:id', requireRoot, async (c) => {
    const input = await jsonBody(c, updateBody);
    return c.json(await editGateway(c.var.deps.db, c.req.param('id'), input, c.var.deps.now()));
  })
  .delete('/:id', requireRoot, async (c) => {
    await removeGateway(c.var.deps.db, c.req.param('id'));
    return c.body(null, 204);
  })
  .post('/:id/enable', requireRoot, async (c) =>
    c.json(await enableGateway(c.var.deps.db, c.req.param('id'), c.var.deps.now())),
  )
  .post('/:id/disable', requireRoot, async (c) =>
    c.json(await disableGateway(c.var.deps.db, c.req.param('id'), c.var.deps.now())),
  )
  .post('/:id/reset', requireRoot, async (c) =>
    c.json(await resetGateway(c.var.deps.db, c.req.param('id'), c.var.deps.now())),
  )
  .post('/:id/deregister', requireRoot, async (c) =>
    c.json(await deregisterGateway(c.var.deps.db, c.req.param('id'), c.var.deps.now())),
  )
  .post('/:id/pusher-update', requireRoot, async (c) => {
    const { version } = await jsonBody(c, pusherUpdateBody);
    return c.json(await requestPusherUpdate(c.var.deps.db, c.req.param('id'), version, c.var.deps.now()));
  })
  .post('/:id/machines', requireRoot, async (c) => {
    const input = await jsonBody(c, bindBody);
    return c.json(await bindMachine(c.var.deps.db, c.req.param('id'), input, c.var.deps.now()), 201);
  })
  .delete('/:id/machines/:machineId', requireRoot, async (c) => {
    await unbindMachine(c.var.deps.db, c.req.param('id'), c.req.param('machineId'));
    return c.body(null, 204);
  });
