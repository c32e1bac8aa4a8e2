import type { Context, MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { HEARTBEAT_TIMEOUT_MS, queryBool } from '@takt/domain';
import {
  conditionText,
  decidePush,
  pushKeyKinds,
  EDGE_HEALTH_LABEL,
  EDGE_HEALTH_TONE,
  bufferTone,
  edgeHealth,
  lastResponseTone,
  supervisorHeartbeat,
  validatePushBatch,
} from '@takt/ingest';
import type { PushProblem } from '@takt/ingest';
import { bearerToken, hashToken, looksLikeGatewayToken, newGatewayToken } from '../auth/tokens';
import type { IngestInboxTable, ObservationsTable } from '../db/schema';
import { companyScope } from '../db/scope';
import type { AppEnv } from '../http/context';
import { ApiError, forbidden, notFound } from '../http/errors';
import { requireAdmin } from '../http/permissions';
import { jsonBody, queryParams } from '../http/validate';
import { getCompany } from '../repositories/companies';
import { getMachine } from '../repositories/machines';
import type { Gateway, GatewayMachine, PusherConfig, SupervisorConfig } from '../repositories/gateways';
import {
  DEFAULT_PUSHER,
  DEFAULT_SUPERVISOR,
  SUPERVISOR_MODES,
  addSourceStats,
  bindGatewayMachine,
  companyExists,
  deleteGateway,
  findGatewayByTokenHash,
  gatewayMachines,
  gatewaySourceByRef,
  getGateway,
  insertGateway,
  insertInbox,
  insertObservations,
  listCompanyGateways,
  listGatewayBindings,
  listGatewayRows,
  lockGatewayForPush,
  pushTargets,
  unbindGatewayMachine,
  unbindGatewaySources,
  updateGateway,
} from '../repositories/gateways';
import type { Insertable } from 'kysely';

// ---------------------------------------------------------------------------------------------
// Views

type MachineLink = 'CONNECTED' | 'DISCONNECTED' | 'UNKNOWN';

/** A machine behind a gateway, for edge health: no live row yet is unknown; a stale heartbeat is disconnected. */
function machineLink(m: GatewayMachine, now: number): MachineLink {
  if (m.connection === null) return 'UNKNOWN';
  const fresh = m.lastHeartbeat !== null && now - m.lastHeartbeat <= HEARTBEAT_TIMEOUT_MS;
  return m.connection === 'CONNECTED' && fresh ? 'CONNECTED' : 'DISCONNECTED';
}

/** reports-admin §4 edge health and §9 tones, computed at `now`. */
function healthOf(g: Gateway, machines: readonly GatewayMachine[], now: number) {
  const status = edgeHealth(
    { lastResponse: g.lastResponse, machines: machines.map((m) => machineLink(m, now)) },
    now,
  );
  return {
    health: { status, label: EDGE_HEALTH_LABEL[status], tone: EDGE_HEALTH_TONE[status] },
    bufferTone: bufferTone(g.bufferedRecords),
    lastResponseTone: lastResponseTone(g.lastResponse, now),
  };
}

/** reports-admin §2 internal gateway modal: active allows reset, disable, deregister; otherwise enable. */
const actionsOf = (g: Gateway) =>
  g.state === 'active' ? (['reset', 'disable', 'deregister'] as const) : (['enable'] as const);

/**
 * reports-admin §3 activation: the push token issued at create or reset, identified by `id` and by `token`,
 * the token masked (never the token: only its hash is stored); `activatedAt` is the edge's first accepted
 * push with it. Null when no token is issued (deregistered). docs/decisions/0401.
 */
const activationOf = (g: Gateway) =>
  g.activationId === null
    ? null
    : {
        id: g.activationId,
        status: g.activationStatus,
        token: g.activationTokenHint,
        issuedAt: g.activationIssuedAt,
        activatedAt: g.activatedAt,
      };

/** A gateway as the internal list and modal show it (reports-admin §2, §3 Agent/gateway). */
function gatewayView(
  g: Gateway,
  companyName: string | null,
  machines: readonly GatewayMachine[],
  now: number,
) {
  return {
    id: g.id,
    name: g.name,
    assetSerial: g.assetSerial,
    edgeRef: g.edgeRef,
    company: g.companyId ? { id: g.companyId, name: companyName ?? '' } : null,
    nonRootMachineCount: machines.filter((m) => !m.rootMachine).length,
    rootMachineCount: machines.filter((m) => m.rootMachine).length,
    resinUUID: null,
    activation: activationOf(g),
    ingestMultiplier: g.ingestMultiplier,
    state: g.state,
    activationStatus: g.activationStatus,
    activationId: g.activationId,
    activationToken: g.activationTokenHint,
    activationTimestamp: g.activatedAt,
    pusher: g.pusher,
    supervisor: g.supervisor,
    lastSequence: g.lastSequence,
    lastResponse: g.lastResponse,
    bufferedRecords: g.bufferedRecords,
    lastShdr: g.lastShdr,
    supervisorLastJoin: g.supervisorLastJoin,
    supervisorHeartbeat: supervisorHeartbeat(g.supervisorLastJoin, now),
    createdAt: g.createdAt,
    actions: actionsOf(g),
    ...healthOf(g, machines, now),
  };
}
export type GatewayView = ReturnType<typeof gatewayView>;

// reports-admin §2 gateway list: sortable columns.
const SORTS = {
  company: (v: GatewayView) => v.company?.name ?? '',
  name: (v: GatewayView) => v.name,
  assetSerial: (v: GatewayView) => v.assetSerial ?? '',
  id: (v: GatewayView) => v.id,
  edgeRef: (v: GatewayView) => v.edgeRef ?? '',
  machines: (v: GatewayView) => v.nonRootMachineCount,
  rootMachines: (v: GatewayView) => v.rootMachineCount,
  balena: (v: GatewayView) => v.resinUUID ?? '',
  supervisorVersion: (v: GatewayView) => v.supervisor.version ?? '',
  bufferSize: (v: GatewayView) => v.bufferedRecords ?? -1,
  supervisorLastJoin: (v: GatewayView) => v.supervisorLastJoin ?? -1,
  lastShdr: (v: GatewayView) => v.lastShdr ?? -1,
} as const;

const listQuery = z.object({
  sort: z.enum(Object.keys(SORTS) as [keyof typeof SORTS, ...Array<keyof typeof SORTS>]).default('company'),
  direction: z.enum(['asc', 'desc']).default('asc'),
  /** reports-admin §2 filter "Unactivated Edges": only gateways that never pushed (or were deregistered). */
  unactivated: queryBool.optional(),
  company: z.string().min(1).optional(),
});

function compareBy(key: keyof typeof SORTS, direction: 'asc' | 'desc') {
  const get = SORTS[key];
  const sign = direction === 'asc' ? 1 : -1;
  return (a: GatewayView, b: GatewayView) => {
    const x = get(a);
    const y = get(b);
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return sign * c || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
  };
}

// ---------------------------------------------------------------------------------------------
// Bodies (reports-admin §5)

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

const createBody = z.object({
  name,
  companyId: z.string().min(1).nullish(),
  assetSerial: optionalText,
  edgeRef: optionalText,
  ingestMultiplier: ingestMultiplier.optional(),
  pusher: pusherInput.optional(),
  supervisor: supervisorInput.optional(),
});
const updateBody = createBody.partial();
const bindBody = z.object({
  machineId: z.string({ error: 'Missing required field: Machine' }).min(1, 'Missing required field: Machine'),
  machineRef: z
    .string({ error: 'Missing required field: Machine Ref' })
    .trim()
    .min(1, 'Missing required field: Machine Ref')
    .max(128),
});
const pusherUpdateBody = z.object({
  version: z
    .string()
    .trim()
    .regex(/^\d+\.\d+\.\d+$/, 'Version must be x.y.z'),
});

const stateConflict = (message: string) => new ApiError(409, 'GATEWAY_STATE', message);
/** reports-admin §5 MissingField for actions that need a company (reset, deregister). */
const needsCompany = () =>
  new ApiError(400, 'VALIDATION_ERROR', 'Missing required field: Company', [
    { field: 'company', code: 'missing_field', message: 'Missing required field: Company' },
  ]);
const unknownCompany = () =>
  new ApiError(400, 'VALIDATION_ERROR', 'Company not found.', [
    { field: 'companyId', code: 'not_found', message: 'Company not found.' },
  ]);

/** reports-admin §9: pusher update allowed for version 3.0.0 and later. */
export const PUSHER_UPDATE_MIN_VERSION = [3, 0, 0] as const;
export function pusherUpdatable(version: string | null): boolean {
  const m = version ? /^(\d+)\.(\d+)\.(\d+)/.exec(version) : null;
  if (!m) return false;
  const v = [Number(m[1]), Number(m[2]), Number(m[3])];
  for (let i = 0; i < 3; i++) {
    const d = (v[i] ?? 0) - PUSHER_UPDATE_MIN_VERSION[i]!;
    if (d !== 0) return d > 0;
  }
  return true;
}

/** Internal screens are for root users (reports-admin §6); anyone else gets 403. */
const requireRoot: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.caller.user.isRoot) throw forbidden();
  await next();
};

/** The push token masked for screens: enough to tell which token an edge holds, useless to push with. */
const tokenHint = (token: string) => `${token.slice(0, 4)}...${token.slice(-6)}`;

/**
 * A new push token (for the answer, once) and the columns of the activation it starts (no write here),
 * pending until the edge's first accepted push (create and reset).
 */
function issueActivation(now: number) {
  const token = newGatewayToken();
  return {
    token,
    columns: {
      token_hash: hashToken(token),
      activation_status: 'pending' as const,
      activation_id: crypto.randomUUID(),
      activation_token_hint: tokenHint(token),
      activation_issued_at: now,
      activated_at: null,
    },
  };
}

async function viewOf(c: Context<AppEnv>, id: string): Promise<GatewayView> {
  const { db, now } = c.var.deps;
  const g = await getGateway(db, id);
  if (!g) throw notFound('Gateway');
  const companyName = g.companyId ? ((await getCompany(db, g.companyId))?.name ?? null) : null;
  return gatewayView(g, companyName, await gatewayMachines(db, [g.id]), now());
}

async function mustGet(c: Context<AppEnv>, id: string): Promise<Gateway> {
  const g = await getGateway(c.var.deps.db, id);
  if (!g) throw notFound('Gateway');
  return g;
}

// ---------------------------------------------------------------------------------------------
// /api/gateways: root administration, and the company admins' status

export const gatewaysRoutes = new Hono<AppEnv>()
  // reports-admin §7 "gateway status" (polled every 15 s): a company admin's own gateways and their health.
  .get('/status', requireAdmin, async (c) => {
    const now = c.var.deps.now();
    const gateways = await listCompanyGateways(c.var.scope);
    const machines = await gatewayMachines(
      c.var.scope.db,
      gateways.map((g) => g.id),
    );
    return c.json(
      gateways.map((g) => {
        const mine = machines.filter((m) => m.gatewayId === g.id);
        return {
          id: g.id,
          name: g.name,
          edgeRef: g.edgeRef,
          state: g.state,
          activationStatus: g.activationStatus,
          machineCount: mine.length,
          lastResponse: g.lastResponse,
          bufferedRecords: g.bufferedRecords,
          lastShdr: g.lastShdr,
          ...healthOf(g, mine, now),
        };
      }),
    );
  })
  .get('/', requireRoot, async (c) => {
    const q = queryParams(c, listQuery);
    const { db, now } = c.var.deps;
    const at = now();
    const [rows, machines] = await Promise.all([listGatewayRows(db), gatewayMachines(db)]);
    const views = rows
      .filter((g) => !q.unactivated || g.activationStatus !== 'activated')
      .filter((g) => !q.company || g.companyId === q.company)
      .map((g) =>
        gatewayView(
          g,
          g.companyName,
          machines.filter((m) => m.gatewayId === g.id),
          at,
        ),
      );
    return c.json(views.sort(compareBy(q.sort, q.direction)));
  })
  .get('/:id', requireRoot, async (c) => {
    const id = c.req.param('id');
    const view = await viewOf(c, id);
    return c.json({ ...view, machines: await listGatewayBindings(c.var.deps.db, id) });
  })
  // Create: the token is in this answer only; the database keeps its hash.
  .post('/', requireRoot, async (c) => {
    const input = await jsonBody(c, createBody);
    const { db, now } = c.var.deps;
    if (input.companyId && !(await companyExists(db, input.companyId))) throw unknownCompany();
    const id = crypto.randomUUID();
    const at = now();
    const { token, columns } = issueActivation(at);
    const pusher: PusherConfig = { ...DEFAULT_PUSHER, ...input.pusher };
    const supervisor: SupervisorConfig = { ...DEFAULT_SUPERVISOR, ...input.supervisor };
    await insertGateway(db, {
      id,
      company_id: input.companyId ?? null,
      name: input.name,
      asset_serial: input.assetSerial ?? null,
      edge_ref: input.edgeRef ?? null,
      state: 'active',
      ingest_multiplier: input.ingestMultiplier ?? 1,
      pusher_config: JSON.stringify(pusher),
      supervisor_config: JSON.stringify(supervisor),
      created_at: at,
      ...columns,
    });
    return c.json({ gateway: await viewOf(c, id), token }, 201);
  })
  .put('/:id', requireRoot, async (c) => {
    const id = c.req.param('id');
    const input = await jsonBody(c, updateBody);
    const { db } = c.var.deps;
    const g = await mustGet(c, id);
    if (input.companyId && !(await companyExists(db, input.companyId))) throw unknownCompany();
    const companyChanges = input.companyId !== undefined && (input.companyId ?? null) !== g.companyId;
    await db.transaction().execute(async (trx) => {
      // Machines belong to the old company: a gateway moving to another company leaves them behind.
      if (companyChanges) await unbindGatewaySources(trx, id);
      await updateGateway(trx, id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.assetSerial !== undefined ? { asset_serial: input.assetSerial } : {}),
        ...(input.edgeRef !== undefined ? { edge_ref: input.edgeRef } : {}),
        ...(input.ingestMultiplier !== undefined ? { ingest_multiplier: input.ingestMultiplier } : {}),
        ...(input.pusher ? { pusher_config: JSON.stringify({ ...g.pusher, ...input.pusher }) } : {}),
        ...(input.supervisor
          ? { supervisor_config: JSON.stringify({ ...g.supervisor, ...input.supervisor }) }
          : {}),
        ...(companyChanges ? { company_id: input.companyId ?? null } : {}),
      });
    });
    return c.json(await viewOf(c, id));
  })
  .delete('/:id', requireRoot, async (c) => {
    const id = c.req.param('id');
    await mustGet(c, id);
    await c.var.deps.db.transaction().execute((trx) => deleteGateway(trx, id));
    return c.body(null, 204);
  })
  .post('/:id/enable', requireRoot, async (c) => {
    const id = c.req.param('id');
    const g = await mustGet(c, id);
    if (g.state === 'active') throw stateConflict('The gateway is already active.');
    await updateGateway(c.var.deps.db, id, { state: 'active' });
    return c.json(await viewOf(c, id));
  })
  .post('/:id/disable', requireRoot, async (c) => {
    const id = c.req.param('id');
    const g = await mustGet(c, id);
    if (g.state !== 'active') throw stateConflict('Only an active gateway can be disabled.');
    await updateGateway(c.var.deps.db, id, { state: 'inactive' });
    return c.json(await viewOf(c, id));
  })
  // Reset: the edge was re-imaged or replaced. It gets a new token (shown once), so a new activation that is
  // pending until its first push, and its sequence starts over, so a gateway counting from 0 again is not
  // taken for a redelivery. Stored data stays.
  .post('/:id/reset', requireRoot, async (c) => {
    const id = c.req.param('id');
    const g = await mustGet(c, id);
    if (g.state !== 'active') throw stateConflict('Only an active gateway can be reset.');
    if (!g.companyId) throw needsCompany();
    const { token, columns } = issueActivation(c.var.deps.now());
    await updateGateway(c.var.deps.db, id, {
      ...columns,
      last_sequence: null,
      last_response: null,
      buffered_records: null,
      last_shdr: null,
      supervisor_last_join: null,
    });
    return c.json({ gateway: await viewOf(c, id), token });
  })
  // Deregister: the edge leaves its company. Its token stops working (so its activation ends), its machines
  // stop taking its data.
  .post('/:id/deregister', requireRoot, async (c) => {
    const id = c.req.param('id');
    const g = await mustGet(c, id);
    if (g.state !== 'active') throw stateConflict('Only an active gateway can be deregistered.');
    if (!g.companyId) throw needsCompany();
    await c.var.deps.db.transaction().execute(async (trx) => {
      await unbindGatewaySources(trx, id);
      await updateGateway(trx, id, {
        company_id: null,
        token_hash: null,
        state: 'inactive',
        activation_status: 'deregistered',
        activation_id: null,
        activation_token_hint: null,
        activation_issued_at: null,
        activated_at: null,
        last_sequence: null,
        buffered_records: null,
      });
    });
    return c.json(await viewOf(c, id));
  })
  // reports-admin §2 "update pusher", §9: only for a pusher that reported 3.0.0 or later.
  .post('/:id/pusher-update', requireRoot, async (c) => {
    const id = c.req.param('id');
    const { version } = await jsonBody(c, pusherUpdateBody);
    const g = await mustGet(c, id);
    if (!pusherUpdatable(g.pusher.version))
      throw new ApiError(409, 'PUSHER_TOO_OLD', 'Pusher update needs pusher version 3.0.0 or later.');
    await updateGateway(c.var.deps.db, id, {
      pusher_config: JSON.stringify({ ...g.pusher, requestedVersion: version }),
    });
    return c.json(await viewOf(c, id));
  })
  // The machines a gateway feeds: `machineRef` is the name the gateway uses for the machine in its records.
  .post('/:id/machines', requireRoot, async (c) => {
    const id = c.req.param('id');
    const input = await jsonBody(c, bindBody);
    const { db, now } = c.var.deps;
    const g = await mustGet(c, id);
    if (!g.companyId) throw needsCompany();
    const scope = companyScope(db, g.companyId);
    // The machine must be in the gateway's company: another company's machine is not found.
    if (!(await getMachine(scope, input.machineId))) throw notFound('Machine');
    if (await gatewaySourceByRef(db, id, input.machineRef))
      throw new ApiError(
        409,
        'MACHINE_REF_TAKEN',
        `The gateway already sends ${input.machineRef} to a machine.`,
      );
    const sourceId = await bindGatewayMachine(scope, { gatewayId: id, ...input }, now());
    return c.json({ sourceId, machineId: input.machineId, machineRef: input.machineRef }, 201);
  })
  .delete('/:id/machines/:machineId', requireRoot, async (c) => {
    const id = c.req.param('id');
    await mustGet(c, id);
    const n = await unbindGatewayMachine(c.var.deps.db, id, c.req.param('machineId'));
    if (n === 0) throw notFound('Machine');
    return c.body(null, 204);
  });

// ---------------------------------------------------------------------------------------------
// /api/gateway-push: the edge's own calls, authenticated by gateway token (no session cookie)

/** Largest push body: MAX_PUSH_RECORDS short lines fit easily; a runaway body is refused before parsing. */
export const MAX_PUSH_BYTES = 32 * 1024 * 1024;
/** Header alternative to the body's `bufferedRecords` (the body wins when both are sent). */
export const BUFFERED_RECORDS_HEADER = 'X-Buffered-Records';

const unknownToken = () => new ApiError(401, 'NOT_AUTHENTICATED', 'Unknown gateway token.');

async function authenticateGateway(c: Context<AppEnv>): Promise<{ gateway: Gateway; tokenHash: string }> {
  const token = bearerToken(c.req.header('authorization'));
  if (!token || !looksLikeGatewayToken(token)) throw unknownToken();
  const tokenHash = hashToken(token);
  const gateway = await findGatewayByTokenHash(c.var.deps.db, tokenHash);
  if (!gateway) throw unknownToken();
  return { gateway, tokenHash };
}

function pushProblems(problems: PushProblem[]): ApiError {
  const issues = problems.map((p) => ({ field: p.path || '(body)', code: 'invalid', message: p.message }));
  const message = issues.map((i) => `${i.field}: ${i.message}`).join('; ');
  return new ApiError(400, 'VALIDATION_ERROR', message || 'The push is not valid.', issues);
}

async function readJson(c: Context<AppEnv>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new ApiError(400, 'BAD_JSON', 'The request body must be valid JSON.');
  }
}

function bufferedFromHeader(c: Context<AppEnv>): number | null {
  const raw = c.req.header(BUFFERED_RECORDS_HEADER);
  if (raw === undefined) return null;
  if (!/^\d{1,15}$/.test(raw.trim()))
    throw pushProblems([{ path: BUFFERED_RECORDS_HEADER, message: 'must be a non-negative integer' }]);
  return Number(raw.trim());
}

const joinBody = z.object({
  supervisorVersion: z.string().trim().min(1).max(64).optional(),
  pusherVersion: z.string().trim().min(1).max(64).optional(),
});

export const gatewayPushRoutes = new Hono<AppEnv>()
  .use(
    '*',
    bodyLimit({
      maxSize: MAX_PUSH_BYTES,
      onError: (c) =>
        c.json(
          { error: { code: 'PAYLOAD_TOO_LARGE', message: 'The push is too large; send fewer records.' } },
          413,
        ),
    }),
  )
  /**
   * A batch of SHDR records `{ gatewayId, records: [{ seq, machineRef, line }], bufferedRecords? }`.
   * At-least-once from the edge, exactly-once in storage: in one transaction holding the gateway's row, only
   * records above the stored sequence are taken (decidePush); each one's observations go to `observations`
   * and its line to `ingest_inbox` for the worker that derives the machine; the answer acknowledges the
   * highest stored sequence. Records for a machineRef with no machine are acknowledged but not stored
   * (docs/decisions/0400-gateway-unknown-machines.md).
   */
  .post('/', async (c) => {
    const { gateway, tokenHash } = await authenticateGateway(c);
    if (gateway.state !== 'active')
      throw new ApiError(403, 'GATEWAY_DISABLED', 'The gateway is disabled; its records stay in its buffer.');
    const checked = validatePushBatch(await readJson(c));
    if (!checked.ok) throw pushProblems(checked.problems);
    const batch = checked.batch;
    if (batch.gatewayId !== gateway.id && batch.gatewayId !== gateway.edgeRef)
      throw pushProblems([{ path: 'gatewayId', message: 'does not match the gateway token' }]);
    const buffered = batch.bufferedRecords ?? bufferedFromHeader(c);
    const { db, dialect, now } = c.var.deps;
    const at = now();

    const answer = await db.transaction().execute(async (trx) => {
      // Re-read under the lock, by token: a reset or deregister that committed meanwhile wins.
      const g = await lockGatewayForPush(trx, dialect, tokenHash);
      if (!g) throw unknownToken();
      if (g.state !== 'active') throw new ApiError(403, 'GATEWAY_DISABLED', 'The gateway is disabled.');
      const targets = await pushTargets(trx, g.id, g.companyId);
      // Keys resolve through each machine's adapter fields, as the worker reads the same lines (issue 4 point 1).
      const decision = decidePush(batch, g.lastSequence, at, await pushKeyKinds(trx, targets));
      const observations: Insertable<ObservationsTable>[] = [];
      const inbox: IngestInboxTable[] = [];
      const stats = new Map<string, { lines: number; observations: number; rejected: number }>();
      const unknown = new Set<string>();
      let unknownRecords = 0;
      for (const r of decision.accepted) {
        const target = targets.get(r.machineRef);
        if (!target) {
          unknown.add(r.machineRef);
          unknownRecords++;
          continue;
        }
        const s = stats.get(target.sourceId) ?? { lines: 0, observations: 0, rejected: 0 };
        stats.set(target.sourceId, s);
        s.lines++;
        inbox.push({
          id: crypto.randomUUID(),
          company_id: target.companyId,
          machine_id: target.machineId,
          received_at: at,
          seq: r.seq,
          line: r.line,
        });
        if (r.parsed.type !== 'data') continue;
        // Rejected lines, as every source counts them (decision 0203).
        if (r.parsed.rejected > 0) s.rejected++;
        for (const o of r.parsed.observations) {
          if (o.kind === 'asset') continue;
          s.observations++;
          observations.push({
            company_id: target.companyId,
            machine_id: target.machineId,
            ts: o.ts,
            key: o.key,
            value: o.kind === 'condition' && o.condition ? conditionText(o.condition) : o.value,
          });
        }
      }
      await insertObservations(trx, observations);
      await insertInbox(trx, inbox);
      for (const [sourceId, s] of stats) await addSourceStats(trx, sourceId, { ...s, lastLineAt: at });
      await updateGateway(trx, g.id, {
        last_sequence: decision.ack,
        last_response: at,
        buffered_records: buffered ?? g.bufferedRecords,
        ...(inbox.length > 0 ? { last_shdr: at } : {}),
        // The first accepted push of a token activates the edge: reports-admin §3 activationTimestamp.
        ...(g.activationStatus !== 'activated'
          ? { activation_status: 'activated' as const, activated_at: at }
          : {}),
      });
      return {
        ack: decision.ack,
        accepted: decision.accepted.length,
        stored: decision.accepted.length - unknownRecords,
        duplicates: decision.duplicates,
        conflicts: decision.conflicts,
        skipped: decision.skipped,
        rejected: decision.rejected,
        unknownMachines: [...unknown].sort().slice(0, 100),
        unknownRecords,
      };
    });
    return c.json(answer);
  })
  /** The supervisor's join (reports-admin §2 "Supervisor Last Join"): reports versions, learns its config. */
  .post('/join', async (c) => {
    const { gateway } = await authenticateGateway(c);
    const body = joinBody.safeParse(await readJson(c));
    if (!body.success)
      throw pushProblems(body.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
    const { db, now } = c.var.deps;
    const pusher = {
      ...gateway.pusher,
      ...(body.data.pusherVersion ? { version: body.data.pusherVersion } : {}),
    };
    const supervisor = {
      ...gateway.supervisor,
      ...(body.data.supervisorVersion ? { version: body.data.supervisorVersion } : {}),
    };
    await updateGateway(db, gateway.id, {
      supervisor_last_join: now(),
      pusher_config: JSON.stringify(pusher),
      supervisor_config: JSON.stringify(supervisor),
    });
    return c.json({
      id: gateway.id,
      state: gateway.state,
      ingestMultiplier: gateway.ingestMultiplier,
      pusher,
      supervisor,
      lastSequence: gateway.lastSequence,
    });
  });
