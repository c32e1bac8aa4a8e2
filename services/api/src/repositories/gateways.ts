import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DialectName, GatewaysTable, CompanyScope, Executor } from '@takt/db';
import { sourcesInService } from '@takt/db';
import { machineSourceRow } from './machine-sources';

// Gateways (reports-admin §3 Agent/gateway) and the storage side of the gateway push
// (ARCHITECTURE.md "Ingest contract": exactly-once in storage).
// Gateways are administered by root users across companies (internal routes) and authenticate with their
// own token, so most functions here take the bare database; the company admins' status view takes a scope.

export const SUPERVISOR_MODES = ['Active', 'Dry Run', 'Standby'] as const;
export type SupervisorMode = (typeof SUPERVISOR_MODES)[number];

/** reports-admin §3 pusher config; `version` is what the pusher reported, `requestedVersion` an update asked for. */
export interface PusherConfig {
  drainCount: number;
  drainInterval: number;
  packedRecordCount: number;
  pushInterval: number;
  version: string | null;
  requestedVersion: string | null;
}

/** reports-admin §3 supervisor config; `version` is what the supervisor reported. */
export interface SupervisorConfig {
  mode: SupervisorMode;
  version: string | null;
}

export const DEFAULT_PUSHER: Readonly<PusherConfig> = {
  drainCount: 1000,
  drainInterval: 1000,
  packedRecordCount: 100,
  pushInterval: 1000,
  version: null,
  requestedVersion: null,
};
export const DEFAULT_SUPERVISOR: Readonly<SupervisorConfig> = { mode: 'Active', version: null };

export interface Gateway {
  id: string;
  companyId: string | null;
  name: string;
  assetSerial: string | null;
  edgeRef: string | null;
  state: GatewaysTable['state'];
  activationStatus: GatewaysTable['activation_status'];
  ingestMultiplier: number;
  pusher: PusherConfig;
  supervisor: SupervisorConfig;
  lastSequence: number | null;
  lastResponse: number | null;
  bufferedRecords: number | null;
  lastShdr: number | null;
  supervisorLastJoin: number | null;
  createdAt: number;
  /** The current activation (docs/decisions/0401-adapter-types-and-gateway-activation.md); null: no token. */
  activationId: string | null;
  /** The issued token masked (`tgw_...` + last 6 characters); the token itself is never stored. */
  activationTokenHint: string | null;
  activationIssuedAt: number | null;
  /** The edge's first accepted push with the current token. */
  activatedAt: number | null;
}

function parseJsonObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** Stored JSON → config; a damaged or older document falls back to the defaults field by field. */
export function readPusherConfig(text: string): PusherConfig {
  const o = parseJsonObject(text);
  return {
    drainCount: num(o.drainCount, DEFAULT_PUSHER.drainCount),
    drainInterval: num(o.drainInterval, DEFAULT_PUSHER.drainInterval),
    packedRecordCount: num(o.packedRecordCount, DEFAULT_PUSHER.packedRecordCount),
    pushInterval: num(o.pushInterval, DEFAULT_PUSHER.pushInterval),
    version: str(o.version),
    requestedVersion: str(o.requestedVersion),
  };
}

export function readSupervisorConfig(text: string): SupervisorConfig {
  const o = parseJsonObject(text);
  const mode = SUPERVISOR_MODES.find((m) => m === o.mode) ?? DEFAULT_SUPERVISOR.mode;
  return { mode, version: str(o.version) };
}

export const toGateway = (r: Selectable<GatewaysTable>): Gateway => ({
  id: r.id,
  companyId: r.company_id,
  name: r.name,
  assetSerial: r.asset_serial,
  edgeRef: r.edge_ref,
  state: r.state,
  activationStatus: r.activation_status,
  ingestMultiplier: r.ingest_multiplier,
  pusher: readPusherConfig(r.pusher_config),
  supervisor: readSupervisorConfig(r.supervisor_config),
  lastSequence: r.last_sequence,
  lastResponse: r.last_response,
  bufferedRecords: r.buffered_records,
  lastShdr: r.last_shdr,
  supervisorLastJoin: r.supervisor_last_join,
  createdAt: r.created_at,
  activationId: r.activation_id,
  activationTokenHint: r.activation_token_hint,
  activationIssuedAt: r.activation_issued_at,
  activatedAt: r.activated_at,
});

// ---------------------------------------------------------------------------------------------
// Internal (root) administration: bare database

export async function getGateway(db: Executor, id: string): Promise<Gateway | undefined> {
  const row = await db.selectFrom('gateways').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toGateway(row);
}

/**
 * All gateways with their company's name and whether that company is active: it has a machine in service
 * (reports-admin §2 filter "Inactive Companies", docs/decisions/0926).
 */
export async function listGatewayRows(
  db: Executor,
): Promise<Array<Gateway & { companyName: string | null; companyActive: boolean }>> {
  const rows = await db
    .selectFrom('gateways as g')
    .leftJoin('companies as c', 'c.id', 'g.company_id')
    .selectAll('g')
    .select('c.name as company_name')
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('machines as m')
            .select('m.id')
            .whereRef('m.company_id', '=', 'g.company_id')
            .where('m.decommissioned_at', 'is', null),
        )
        .as('company_active'),
    )
    .orderBy('g.created_at')
    .orderBy('g.id')
    .execute();
  // SQLite answers EXISTS with 0 or 1, PostgreSQL with a boolean.
  return rows.map((r) => ({
    ...toGateway(r),
    companyName: r.company_name,
    companyActive: Boolean(Number(r.company_active)),
  }));
}

/** Every company by name, for the gateway modal's company choice (root only). */
export async function listCompanyOptions(db: Executor): Promise<Array<{ id: string; name: string }>> {
  return db.selectFrom('companies').select(['id', 'name']).orderBy('name').orderBy('id').execute();
}

export interface GatewayMachine {
  gatewayId: string;
  machineId: string;
  rootMachine: boolean;
  connection: string | null;
  lastHeartbeat: number | null;
}

/** Machines in service bound to gateways (all gateways, or those given), with their live connection. */
export async function gatewayMachines(
  db: Executor,
  gatewayIds?: readonly string[],
): Promise<GatewayMachine[]> {
  if (gatewayIds && gatewayIds.length === 0) return [];
  let q = sourcesInService(db)
    .leftJoin('machine_live as l', (j) =>
      j.onRef('l.machine_id', '=', 's.machine_id').onRef('l.company_id', '=', 's.company_id'),
    )
    .select([
      's.gateway_id',
      's.machine_id',
      'm.root_machine',
      'l.connection as connection',
      'l.last_heartbeat as last_heartbeat',
    ])
    .where('s.kind', '=', 'gateway')
    .where('s.gateway_id', 'is not', null);
  if (gatewayIds) q = q.where('s.gateway_id', 'in', gatewayIds);
  const rows = await q.execute();
  return rows.map((r) => ({
    gatewayId: r.gateway_id as string,
    machineId: r.machine_id,
    rootMachine: r.root_machine === 1,
    connection: r.connection ?? null,
    lastHeartbeat: r.last_heartbeat ?? null,
  }));
}

export async function insertGateway(db: Executor, row: Insertable<GatewaysTable>): Promise<void> {
  await db.insertInto('gateways').values(row).execute();
}

/** Mutates the gateway's row. */
export async function updateGateway(
  db: Executor,
  id: string,
  patch: Updateable<GatewaysTable>,
): Promise<boolean> {
  const r = await db.updateTable('gateways').set(patch).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Machines stop taking data from the gateway; the sources stay (disabled) so their history keeps a home. */
export async function unbindGatewaySources(db: Executor, gatewayId: string): Promise<void> {
  await db
    .updateTable('machine_sources')
    .set({ gateway_id: null, enabled: 0 })
    .where('gateway_id', '=', gatewayId)
    .execute();
}

export async function deleteGateway(db: Executor, id: string): Promise<boolean> {
  await unbindGatewaySources(db, id);
  const r = await db.deleteFrom('gateways').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function companyExists(db: Executor, id: string): Promise<boolean> {
  const row = await db.selectFrom('companies').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** A gateway source on `machineId`: one name (`machineRef`) on one gateway. */
export async function bindGatewayMachine(
  scope: CompanyScope,
  input: { gatewayId: string; machineId: string; machineRef: string },
  now: number,
): Promise<string> {
  const row = machineSourceRow({
    machine_id: input.machineId,
    kind: 'gateway',
    created_at: now,
    gateway_id: input.gatewayId,
    machine_ref: input.machineRef,
  });
  await scope.insertInto('machine_sources', row).execute();
  return row.id;
}

export async function gatewaySourceByRef(
  db: Executor,
  gatewayId: string,
  machineRef: string,
): Promise<{ id: string; machineId: string } | undefined> {
  const row = await db
    .selectFrom('machine_sources')
    .select(['id', 'machine_id'])
    .where('gateway_id', '=', gatewayId)
    .where('machine_ref', '=', machineRef)
    .executeTakeFirst();
  return row && { id: row.id, machineId: row.machine_id };
}

export async function unbindGatewayMachine(
  db: Executor,
  gatewayId: string,
  machineId: string,
): Promise<number> {
  const r = await db
    .deleteFrom('machine_sources')
    .where('kind', '=', 'gateway')
    .where('gateway_id', '=', gatewayId)
    .where('machine_id', '=', machineId)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function listGatewayBindings(
  db: Executor,
  gatewayId: string,
): Promise<Array<{ sourceId: string; machineId: string; machineName: string; machineRef: string | null }>> {
  const rows = await db
    .selectFrom('machine_sources as s')
    .innerJoin('machines as m', 'm.id', 's.machine_id')
    .select(['s.id', 's.machine_id', 'm.name', 's.machine_ref'])
    .where('s.gateway_id', '=', gatewayId)
    .orderBy('s.machine_ref')
    .execute();
  return rows.map((r) => ({
    sourceId: r.id,
    machineId: r.machine_id,
    machineName: r.name,
    machineRef: r.machine_ref,
  }));
}

// ---------------------------------------------------------------------------------------------
// Company admins: their own gateways

export async function listCompanyGateways(scope: CompanyScope): Promise<Gateway[]> {
  const rows = await scope.selectFrom('gateways').selectAll().orderBy('name').orderBy('id').execute();
  return rows.map(toGateway);
}

// ---------------------------------------------------------------------------------------------
// The push (gateway token)

export async function findGatewayByTokenHash(db: Executor, tokenHash: string): Promise<Gateway | undefined> {
  const row = await db
    .selectFrom('gateways')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && toGateway(row);
}

/**
 * The gateway's row inside the push transaction, found by its token hash (a reset that committed meanwhile
 * makes the old token fail here). On PostgreSQL `FOR UPDATE` holds it until commit, so a
 * concurrent push of the same gateway waits and then reads the sequence this one stored. SQLite has one
 * writer at a time and Kysely runs one transaction per connection, so the read is already serialized.
 */
export async function lockGatewayForPush(
  trx: Executor,
  dialect: DialectName,
  tokenHash: string,
): Promise<Gateway | undefined> {
  let q = trx.selectFrom('gateways').selectAll().where('token_hash', '=', tokenHash);
  if (dialect === 'postgres') q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row && toGateway(row);
}

/** The gateway's sequence holes (decision 0981), as stored; a malformed value reads as none. */
export async function sequenceGapsOf(trx: Executor, gatewayId: string): Promise<Array<[number, number]>> {
  const row = await trx
    .selectFrom('gateways')
    .select('sequence_gaps')
    .where('id', '=', gatewayId)
    .executeTakeFirst();
  if (!row?.sequence_gaps) return [];
  try {
    const parsed = JSON.parse(row.sequence_gaps) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (g): g is [number, number] =>
        Array.isArray(g) && g.length === 2 && Number.isSafeInteger(g[0]) && Number.isSafeInteger(g[1]),
    );
  } catch {
    return [];
  }
}

export interface PushTarget {
  sourceId: string;
  machineId: string;
  companyId: string;
}

/** machineRef → the machine a gateway's records go to: enabled gateway sources of machines in service. */
export async function pushTargets(
  trx: Executor,
  gatewayId: string,
  companyId: string | null,
): Promise<Map<string, PushTarget>> {
  if (companyId === null) return new Map();
  const rows = await trx
    .selectFrom('machine_sources as s')
    .innerJoin('machines as m', 'm.id', 's.machine_id')
    .select(['s.id', 's.machine_id', 's.machine_ref', 's.company_id'])
    .where('s.kind', '=', 'gateway')
    .where('s.gateway_id', '=', gatewayId)
    .where('s.company_id', '=', companyId)
    .where('s.enabled', '=', 1)
    .where('m.decommissioned_at', 'is', null)
    .execute();
  const out = new Map<string, PushTarget>();
  for (const r of rows) {
    if (r.machine_ref !== null)
      out.set(r.machine_ref, { sourceId: r.id, machineId: r.machine_id, companyId: r.company_id });
  }
  return out;
}

export async function addSourceStats(
  trx: Executor,
  sourceId: string,
  delta: { lines: number; observations: number; rejected: number; lastLineAt: number },
): Promise<void> {
  await trx
    .updateTable('machine_sources')
    .set((eb) => ({
      stat_lines: eb('stat_lines', '+', delta.lines),
      stat_observations: eb('stat_observations', '+', delta.observations),
      stat_rejected: eb('stat_rejected', '+', delta.rejected),
      last_line_at: delta.lastLineAt,
    }))
    .where('id', '=', sourceId)
    .execute();
}
