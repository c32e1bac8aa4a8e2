import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { CONNECTION_KEY, observationsBetween, sourcesInService } from '@takt/db';
import type { FieldMeaning, SourceRow } from '../sources/source';
import { keyKindsFromFields } from '../sources/devices/devices';
import type { KeyKinds } from '../sources/shdr/shdr';

// What the ingest worker reads (store.ts holds its writes): sources, field maps, gateways' liveness, the job runs'
// setup events and stored observations for re-deriving. Ingest reads every company's rows, so it takes the bare
// database.

export type { SourceRow } from '../sources/source';

/** Enabled sources of machines in service, across all companies. */
export async function loadSources(db: Kysely<Database>): Promise<SourceRow[]> {
  return sourcesInService(db)
    .innerJoin('companies as c', 'c.id', 's.company_id')
    .select([
      's.id as sourceId',
      's.kind',
      's.company_id as companyId',
      's.machine_id as machineId',
      'm.name as machineName',
      's.host',
      's.port',
      'm.cycle_source as cycleSource',
      's.machine_ref as machineRef',
      'c.mqtt_ref as companyRef',
      's.gateway_id as gatewayId',
      's.base_url as baseUrl',
      's.poll_interval_ms as pollIntervalMs',
      's.agent_instance_id as agentInstanceId',
      's.agent_next_sequence as agentNextSequence',
      's.created_at as createdAt',
    ])
    .execute();
}

/** Each gateway's last push or ping (reports-admin §3 lastResponse), null when it never reported. */
export async function gatewayLastResponses(
  db: Kysely<Database>,
  gatewayIds: readonly string[],
): Promise<Map<string, number | null>> {
  if (gatewayIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('gateways')
    .select(['id', 'last_response'])
    .where('id', 'in', gatewayIds)
    .execute();
  return new Map(rows.map((r) => [r.id, r.last_response]));
}

/** Adapter field mapping of each machine: SHDR key → MTConnect data item type and subtype. */
export async function loadFieldMaps(
  db: Kysely<Database>,
  machineIds: string[],
): Promise<Map<string, Map<string, FieldMeaning>>> {
  const maps = new Map<string, Map<string, FieldMeaning>>();
  if (machineIds.length === 0) return maps;
  const rows = await db
    .selectFrom('machines as m')
    .innerJoin('adapter_fields as f', 'f.adapter_id', 'm.adapter_id')
    .select(['m.id as machineId', 'f.name', 'f.data_item_type as type', 'f.data_item_subtype as subType'])
    .where('m.id', 'in', machineIds)
    .execute();
  for (const r of rows) {
    let map = maps.get(r.machineId);
    if (!map) maps.set(r.machineId, (map = new Map()));
    map.set(r.name, { type: r.type.toUpperCase(), subType: r.subType });
  }
  return maps;
}

/**
 * For decidePush: what each key is, per machineRef of a gateway's push targets, from each machine's adapter
 * field mapping (the same KeyKinds the worker reads the inbox with, so both parse a line alike).
 */
export async function pushKeyKinds(
  db: Kysely<Database>,
  targets: ReadonlyMap<string, { machineId: string }>,
): Promise<(machineRef: string) => KeyKinds | undefined> {
  const maps = await loadFieldMaps(
    db,
    [...targets.values()].map((t) => t.machineId),
  );
  const kinds = new Map([...maps].map(([machineId, fields]) => [machineId, keyKindsFromFields(fields)]));
  return (machineRef) => {
    const target = targets.get(machineRef);
    return target ? kinds.get(target.machineId) : undefined;
  };
}

/** Setup events of the machines' job runs: START at a run's start in setup, END when production began. */
export async function loadSetupEvents(
  db: Kysely<Database>,
  machineIds: string[],
  since: number,
): Promise<Map<string, Array<{ at: number; value: 'START' | 'END' }>>> {
  const out = new Map<string, Array<{ at: number; value: 'START' | 'END' }>>();
  if (machineIds.length === 0) return out;
  const runs = await db
    .selectFrom('job_runs')
    .select(['machine_id', 'start_at', 'end_at', 'setup_end'])
    .where('machine_id', 'in', machineIds)
    .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>=', since)]))
    .execute();
  for (const r of runs) {
    // A run started in production has setup_end = start_at: no setup period.
    if (r.setup_end != null && r.setup_end <= r.start_at) continue;
    const list = out.get(r.machine_id) ?? [];
    list.push({ at: r.start_at, value: 'START' });
    const end = r.setup_end ?? r.end_at;
    if (end != null) list.push({ at: end, value: 'END' });
    out.set(r.machine_id, list);
  }
  return out;
}

/**
 * The company's machine's latest stored connection change in [floor, at]; null when there is none. Rows another
 * company stored under the same id are another machine's (decision 1130).
 */
export async function lastConnectionChange(
  db: Kysely<Database>,
  companyId: string,
  machineId: string,
  at: number,
  floor: number,
): Promise<number | null> {
  // Packed rows too, by the packs' time bounds (decision 1184).
  const row = await db
    .selectFrom(observationsBetween(db, { companyId, machineIds: [machineId], from: floor, to: at + 1 }))
    .select('ts')
    .where('key', '=', CONNECTION_KEY)
    .orderBy('ts', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.ts ?? null;
}

/**
 * The company's machine's stored observations from `from` on, in time order, a millisecond's in the order they were
 * stored (re-deriving history after late data; packed rows too, decision 1184); never another company's of the same
 * id (decision 1130).
 */
export async function loadObservationsSince(
  db: Kysely<Database>,
  companyId: string,
  machineId: string,
  from: number,
) {
  return db
    .selectFrom(observationsBetween(db, { companyId, machineIds: [machineId], from }))
    .select(['ts', 'key', 'value'])
    .orderBy('ts')
    .orderBy('seq')
    .execute();
}
