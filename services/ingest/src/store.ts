import type { Kysely } from 'kysely';
import type { Database, MachineLiveTable } from '@takt/api/db';

// Ingest writes for every company, so it takes the bare database and sets company_id on each row itself.

export interface SourceRow {
  sourceId: string;
  companyId: string;
  machineId: string;
  machineName: string;
  host: string;
  port: number;
}

/** Enabled SHDR sources of machines in service, across all companies. */
export async function loadShdrSources(db: Kysely<Database>): Promise<SourceRow[]> {
  const rows = await db
    .selectFrom('machine_sources as s')
    .innerJoin('machines as m', 'm.id', 's.machine_id')
    .select([
      's.id as sourceId',
      's.company_id as companyId',
      's.machine_id as machineId',
      'm.name as machineName',
      's.host',
      's.port',
    ])
    .where('s.kind', '=', 'shdr')
    .where('s.enabled', '=', 1)
    .where('m.decommissioned_at', 'is', null)
    .execute();
  return rows;
}

/** Adapter field mapping of each machine: SHDR key → MTConnect data item type (upper case). */
export async function loadFieldMaps(
  db: Kysely<Database>,
  machineIds: string[],
): Promise<Map<string, Map<string, string>>> {
  const maps = new Map<string, Map<string, string>>();
  if (machineIds.length === 0) return maps;
  const rows = await db
    .selectFrom('machines as m')
    .innerJoin('adapter_fields as f', 'f.adapter_id', 'm.adapter_id')
    .select(['m.id as machineId', 'f.name', 'f.data_item_type as type'])
    .where('m.id', 'in', machineIds)
    .execute();
  for (const r of rows) {
    let map = maps.get(r.machineId);
    if (!map) maps.set(r.machineId, (map = new Map()));
    map.set(r.name, r.type.toUpperCase());
  }
  return maps;
}

export async function loadLiveRows(
  db: Kysely<Database>,
  machineIds: string[],
): Promise<Map<string, MachineLiveTable>> {
  if (machineIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('machine_live')
    .selectAll()
    .where('machine_id', 'in', machineIds)
    .execute();
  return new Map(rows.map((r) => [r.machine_id, r]));
}

export interface ObservationRow {
  company_id: string;
  machine_id: string;
  ts: number;
  key: string;
  value: string | null;
}

export interface StateChange {
  companyId: string;
  machineId: string;
  at: number;
  state: string;
}

export interface SourceStats {
  sourceId: string;
  lines: number;
  observations: number;
  rejected: number;
  lastLineAt: number | null;
}

export interface IngestBatch {
  observations: ObservationRow[];
  stateChanges: StateChange[];
  live: MachineLiveTable[];
  stats: SourceStats[];
}

const OBSERVATION_CHUNK = 1000; // 5 parameters a row stays far below both dialects' bind limits

/**
 * Write one batch in one transaction: observations, state interval changes (close the open interval, open
 * the next), the live rows and the per-source counters. Either all of it is stored or none.
 */
export async function writeBatch(db: Kysely<Database>, batch: IngestBatch): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < batch.observations.length; i += OBSERVATION_CHUNK) {
      await trx
        .insertInto('observations')
        .values(batch.observations.slice(i, i + OBSERVATION_CHUNK))
        .execute();
    }
    for (const ch of batch.stateChanges) {
      await trx
        .updateTable('state_intervals')
        .set({ end_at: ch.at })
        .where('machine_id', '=', ch.machineId)
        .where('end_at', 'is', null)
        .execute();
      await trx
        .insertInto('state_intervals')
        .values({
          company_id: ch.companyId,
          machine_id: ch.machineId,
          start_at: ch.at,
          end_at: null,
          state: ch.state,
        })
        // The same start twice (a restart inside one millisecond) keeps the later state.
        .onConflict((oc) =>
          oc.columns(['machine_id', 'start_at']).doUpdateSet({ state: ch.state, end_at: null }),
        )
        .execute();
    }
    for (const row of batch.live) {
      const { machine_id: _id, ...rest } = row;
      await trx
        .insertInto('machine_live')
        .values(row)
        .onConflict((oc) => oc.column('machine_id').doUpdateSet(rest))
        .execute();
    }
    for (const s of batch.stats) {
      await trx
        .updateTable('machine_sources')
        .set((eb) => ({
          stat_lines: eb('stat_lines', '+', s.lines),
          stat_observations: eb('stat_observations', '+', s.observations),
          stat_rejected: eb('stat_rejected', '+', s.rejected),
          last_line_at: s.lastLineAt,
        }))
        .where('id', '=', s.sourceId)
        .execute();
    }
  });
}
