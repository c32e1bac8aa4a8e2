import { sql } from 'kysely';
import type { CompanyScope } from '@takt/db';
import { companyObservations } from '@takt/db';

// The machine diagnostics page (live-operations §4 live connection status, §9): the latest
// value of each key, the adapter's mapping, the live heartbeat and the per-source counters.

/** The machine's adapter fields by key (empty when it has no adapter, or an adapter without fields). */
export async function adapterFieldTypes(
  scope: CompanyScope,
  machineId: string,
): Promise<Map<string, { dataItemType: string; dataItemSubtype: string | null }>> {
  const rows = await scope
    .selectFrom('machines')
    .innerJoin('adapter_fields as f', 'f.adapter_id', 'machines.adapter_id')
    .select(['f.name', 'f.data_item_type', 'f.data_item_subtype'])
    .where('machines.id', '=', machineId)
    // The join reaches fields through a scoped machine; the fields' own company must agree too.
    .where('f.company_id', '=', scope.companyId)
    .execute();
  return new Map(
    rows.map((r) => [r.name, { dataItemType: r.data_item_type, dataItemSubtype: r.data_item_subtype }]),
  );
}

export interface LatestValue {
  key: string;
  value: string | null;
  ts: number;
}

/**
 * The latest observation of every key seen since `since`. The observations table is the largest there is,
 * so the scan is bounded by time and runs on the (machine_id, ts) index range; one window function (on both
 * dialects) keeps the newest row per key, so the window is read once and nothing but one row per key
 * leaves the database.
 */
export function latestPerKeyQuery(scope: CompanyScope, machineId: string, since: number) {
  // By the packs' time bounds (decision 1184); the newest of a millisecond's rows is the one stored last.
  const ranked = companyObservations(scope, [machineId], since)
    .select([
      'observations.key',
      'observations.value',
      'observations.ts',
      sql<number>`row_number() over (partition by ${sql.ref('observations.key')} order by ${sql.ref('observations.ts')} desc, ${sql.ref('observations.seq')} desc)`.as(
        'rn',
      ),
    ])
    .as('o');
  return scope.db
    .selectFrom(ranked)
    .select(['o.key', 'o.value', 'o.ts'])
    .where('o.rn', '=', 1)
    .orderBy('o.key');
}

export async function latestPerKey(
  scope: CompanyScope,
  machineId: string,
  since: number,
): Promise<LatestValue[]> {
  const rows = await latestPerKeyQuery(scope, machineId, since).execute();
  return rows.map((r) => ({ key: r.key, value: r.value, ts: Number(r.ts) }));
}

export async function lastHeartbeat(scope: CompanyScope, machineId: string): Promise<number | null> {
  const row = await scope
    .selectFrom('machine_live')
    .select('last_heartbeat')
    .where('machine_id', '=', machineId)
    .executeTakeFirst();
  return row?.last_heartbeat ?? null;
}

/**
 * Lines, observations and rejected lines (ARCHITECTURE.md "Ingest contract": a malformed line is counted
 * against its adapter) of all the machine's sources, and the last line.
 */
export async function sourceCounters(
  scope: CompanyScope,
  machineId: string,
): Promise<{ lines: number; observations: number; rejected: number; lastLineAt: number | null }> {
  const row = await scope
    .selectFrom('machine_sources')
    .select((eb) => [
      eb.fn.sum<number>('stat_lines').as('lines'),
      eb.fn.sum<number>('stat_observations').as('observations'),
      eb.fn.sum<number>('stat_rejected').as('rejected'),
      eb.fn.max<number | null>('last_line_at').as('last_line_at'),
    ])
    .where('machine_id', '=', machineId)
    .executeTakeFirst();
  return {
    lines: Number(row?.lines ?? 0),
    observations: Number(row?.observations ?? 0),
    rejected: Number(row?.rejected ?? 0),
    lastLineAt: row?.last_line_at == null ? null : Number(row.last_line_at),
  };
}

/** The machine's raw observations after `cursor` up to `until`, oldest first, at most `limit`. */
export async function observationsAfter(
  scope: CompanyScope,
  machineId: string,
  cursor: number,
  until: number,
  limit: number,
) {
  return companyObservations(scope, [machineId], cursor + 1, until + 1)
    .select(['ts', 'key', 'value'])
    .orderBy('ts')
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/**
 * The machine's observations of one key in [start, end], oldest first: the newest `limit` of them, so a
 * chart of a chatty field keeps its recent end (the conditions page's `temp_timeline` samples).
 */
export async function observationsOfKey(
  scope: CompanyScope,
  machineId: string,
  key: string,
  range: { start: number; end: number },
  limit: number,
): Promise<Array<{ ts: number; value: string | null }>> {
  const rows = await companyObservations(scope, [machineId], range.start, range.end + 1)
    .select(['ts', 'value'])
    .where('key', '=', key)
    .orderBy('ts', 'desc')
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((r) => ({ ts: Number(r.ts), value: r.value }));
}
