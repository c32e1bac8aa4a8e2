import type { Kysely } from 'kysely';
import { edgeMachineLink } from '@takt/domain';
import {
  EDGE_HEALTH_LABEL,
  EDGE_HEALTH_TONE,
  bufferTone,
  edgeHealth,
  lastResponseTone,
  supervisorHeartbeat,
} from '@takt/domain';
import type { CompanyScope, Database } from '@takt/db';
import { companyScope } from '@takt/db';
import { hashToken, newGatewayToken } from '../auth/tokens';
import { ApiError, notFound } from '../http/errors';
import { getCompany } from '../repositories/company';
import { getMachine } from '../repositories/machines';
import type { Gateway, GatewayMachine, PusherConfig, SupervisorConfig } from '../repositories/gateways';
import {
  DEFAULT_PUSHER,
  DEFAULT_SUPERVISOR,
  bindGatewayMachine,
  companyExists,
  deleteGateway,
  gatewayMachines,
  gatewaySourceByRef,
  getGateway,
  insertGateway,
  listCompanyGateways,
  listGatewayBindings,
  listCompanyOptions,
  listGatewayRows,
  unbindGatewayMachine,
  unbindGatewaySources,
  updateGateway,
} from '../repositories/gateways';

// Gateways: the internal (root) administration of reports-admin §2, §3, §5, §9 and the company admins'
// gateway status of reports-admin §7. Root actions run on the bare database (they cross companies by
// design); the status runs in the caller's company scope.

type Db = Kysely<Database>;

// ---------------------------------------------------------------------------------------------
// Views

/** reports-admin §4 edge health and §9 tones, computed at `now`. */
function healthOf(g: Gateway, machines: readonly GatewayMachine[], now: number) {
  const status = edgeHealth(
    { lastResponse: g.lastResponse, machines: machines.map((m) => edgeMachineLink(m, now)) },
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
export const GATEWAY_SORTS = {
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
export type GatewaySort = keyof typeof GATEWAY_SORTS;

function compareBy(key: GatewaySort, direction: 'asc' | 'desc') {
  const get = GATEWAY_SORTS[key];
  const sign = direction === 'asc' ? 1 : -1;
  return (a: GatewayView, b: GatewayView) => {
    const x = get(a);
    const y = get(b);
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return sign * c || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
  };
}

// ---------------------------------------------------------------------------------------------
// Errors (reports-admin §5)

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
const PUSHER_UPDATE_MIN_VERSION = [3, 0, 0] as const;
function pusherUpdatable(version: string | null): boolean {
  const m = version ? /^(\d+)\.(\d+)\.(\d+)/.exec(version) : null;
  if (!m) return false;
  const v = [Number(m[1]), Number(m[2]), Number(m[3])];
  for (let i = 0; i < 3; i++) {
    const d = (v[i] ?? 0) - PUSHER_UPDATE_MIN_VERSION[i]!;
    if (d !== 0) return d > 0;
  }
  return true;
}

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

async function mustGet(db: Db, id: string): Promise<Gateway> {
  const g = await getGateway(db, id);
  if (!g) throw notFound('Gateway');
  return g;
}

export async function gatewayViewOf(db: Db, id: string, now: number): Promise<GatewayView> {
  const g = await mustGet(db, id);
  const companyName = g.companyId ? ((await getCompany(db, g.companyId))?.name ?? null) : null;
  return gatewayView(g, companyName, await gatewayMachines(db, [g.id]), now);
}

// ---------------------------------------------------------------------------------------------
// Reads

/** reports-admin §7 "gateway status" (polled every 15 s): a company admin's own gateways and their health. */
export async function companyGatewayStatus(scope: CompanyScope, now: number) {
  const gateways = await listCompanyGateways(scope);
  const machines = await gatewayMachines(
    scope.db,
    gateways.map((g) => g.id),
  );
  return gateways.map((g) => {
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
  });
}

export interface GatewayListQuery {
  sort: GatewaySort;
  direction: 'asc' | 'desc';
  /** reports-admin §2 filter "Unactivated Edges": only gateways that never pushed (or were deregistered). */
  unactivated?: boolean | undefined;
  /**
   * reports-admin §2 filter "Inactive Companies": only gateways whose company has no machine in service
   * (docs/decisions/0926).
   */
  inactiveCompanies?: boolean | undefined;
  company?: string | undefined;
}

/** reports-admin §2 internal gateway list, filtered and sorted. */
export async function listGateways(db: Db, q: GatewayListQuery, now: number): Promise<GatewayView[]> {
  const [rows, machines] = await Promise.all([listGatewayRows(db), gatewayMachines(db)]);
  const views = rows
    .filter((g) => !q.unactivated || g.activationStatus !== 'activated')
    .filter((g) => !q.inactiveCompanies || (g.companyId !== null && !g.companyActive))
    .filter((g) => !q.company || g.companyId === q.company)
    .map((g) =>
      gatewayView(
        g,
        g.companyName,
        machines.filter((m) => m.gatewayId === g.id),
        now,
      ),
    );
  return views.sort(compareBy(q.sort, q.direction));
}

/** The companies a gateway can belong to (the modal's company choice). */
export const gatewayCompanyOptions = (db: Db) => listCompanyOptions(db);

export async function gatewayDetail(db: Db, id: string, now: number) {
  const view = await gatewayViewOf(db, id, now);
  return { ...view, machines: await listGatewayBindings(db, id) };
}

// ---------------------------------------------------------------------------------------------
// Writes (root)

export interface GatewayInput {
  name: string;
  companyId?: string | null | undefined;
  assetSerial?: string | null | undefined;
  edgeRef?: string | null | undefined;
  ingestMultiplier?: number | undefined;
  pusher?: Partial<Pick<PusherConfig, 'drainCount' | 'drainInterval' | 'packedRecordCount' | 'pushInterval'>>;
  supervisor?: Pick<SupervisorConfig, 'mode'> | undefined;
}

/** Create: the token is in this answer only; the database keeps its hash. */
export async function createGateway(db: Db, input: GatewayInput, now: number) {
  if (input.companyId && !(await companyExists(db, input.companyId))) throw unknownCompany();
  const id = crypto.randomUUID();
  const { token, columns } = issueActivation(now);
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
    created_at: now,
    ...columns,
  });
  return { gateway: await gatewayViewOf(db, id, now), token };
}

export async function editGateway(db: Db, id: string, input: Partial<GatewayInput>, now: number) {
  const g = await mustGet(db, id);
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
  return gatewayViewOf(db, id, now);
}

export async function removeGateway(db: Db, id: string): Promise<void> {
  await mustGet(db, id);
  await db.transaction().execute((trx) => deleteGateway(trx, id));
}

export async function enableGateway(db: Db, id: string, now: number) {
  const g = await mustGet(db, id);
  if (g.state === 'active') throw stateConflict('The gateway is already active.');
  await updateGateway(db, id, { state: 'active' });
  return gatewayViewOf(db, id, now);
}

export async function disableGateway(db: Db, id: string, now: number) {
  const g = await mustGet(db, id);
  if (g.state !== 'active') throw stateConflict('Only an active gateway can be disabled.');
  await updateGateway(db, id, { state: 'inactive' });
  return gatewayViewOf(db, id, now);
}

/**
 * Reset: the edge was re-imaged or replaced. It gets a new token (shown once), so a new activation that is
 * pending until its first push, and its sequence starts over, so a gateway counting from 0 again is not
 * taken for a redelivery. Stored data stays.
 */
export async function resetGateway(db: Db, id: string, now: number) {
  const g = await mustGet(db, id);
  if (g.state !== 'active') throw stateConflict('Only an active gateway can be reset.');
  if (!g.companyId) throw needsCompany();
  const { token, columns } = issueActivation(now);
  await updateGateway(db, id, {
    ...columns,
    last_sequence: null,
    sequence_gaps: null,
    last_response: null,
    buffered_records: null,
    last_shdr: null,
    supervisor_last_join: null,
  });
  return { gateway: await gatewayViewOf(db, id, now), token };
}

/**
 * Deregister: the edge leaves its company. Its token stops working (so its activation ends), its machines
 * stop taking its data.
 */
export async function deregisterGateway(db: Db, id: string, now: number) {
  const g = await mustGet(db, id);
  if (g.state !== 'active') throw stateConflict('Only an active gateway can be deregistered.');
  if (!g.companyId) throw needsCompany();
  await db.transaction().execute(async (trx) => {
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
      sequence_gaps: null,
      buffered_records: null,
    });
  });
  return gatewayViewOf(db, id, now);
}

/** reports-admin §2 "update pusher", §9: only for a pusher that reported 3.0.0 or later. */
export async function requestPusherUpdate(db: Db, id: string, version: string, now: number) {
  const g = await mustGet(db, id);
  if (!pusherUpdatable(g.pusher.version))
    throw new ApiError(409, 'PUSHER_TOO_OLD', 'Pusher update needs pusher version 3.0.0 or later.');
  await updateGateway(db, id, { pusher_config: JSON.stringify({ ...g.pusher, requestedVersion: version }) });
  return gatewayViewOf(db, id, now);
}

/** The machines a gateway feeds: `machineRef` is the name the gateway uses for the machine in its records. */
export async function bindMachine(
  db: Db,
  id: string,
  input: { machineId: string; machineRef: string },
  now: number,
) {
  const g = await mustGet(db, id);
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
  const sourceId = await bindGatewayMachine(scope, { gatewayId: id, ...input }, now);
  return { sourceId, machineId: input.machineId, machineRef: input.machineRef };
}

export async function unbindMachine(db: Db, id: string, machineId: string): Promise<void> {
  await mustGet(db, id);
  const n = await unbindGatewayMachine(db, id, machineId);
  if (n === 0) throw notFound('Machine');
}
