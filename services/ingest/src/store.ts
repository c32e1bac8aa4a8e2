import { CompiledQuery } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database, MachineLiveTable } from '@takt/api/db';
import type { DerivationResult } from '@takt/domain';
import { markRollupsDirty } from '@takt/api/rollups';
import type { FieldMeaning } from './pipeline';

// Ingest writes for every company, so it takes the bare database and sets company_id on each row itself.

export interface SourceRow {
  sourceId: string;
  kind: 'shdr' | 'gateway' | 'mqtt' | 'agent';
  companyId: string;
  machineId: string;
  machineName: string;
  host: string;
  port: number;
  cycleSource: 'part_count' | 'execution';
  /** gateway and MQTT: the name the edge uses for the machine */
  machineRef: string | null;
  /** MQTT: the company's reference in topics */
  companyRef: string | null;
  baseUrl: string | null;
  pollIntervalMs: number | null;
  agentInstanceId: string | null;
  agentNextSequence: number | null;
}

/** Enabled sources of machines in service, across all companies. */
export async function loadSources(db: Kysely<Database>): Promise<SourceRow[]> {
  return db
    .selectFrom('machine_sources as s')
    .innerJoin('machines as m', 'm.id', 's.machine_id')
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
      's.base_url as baseUrl',
      's.poll_interval_ms as pollIntervalMs',
      's.agent_instance_id as agentInstanceId',
      's.agent_next_sequence as agentNextSequence',
    ])
    .where('s.enabled', '=', 1)
    .where('m.decommissioned_at', 'is', null)
    .execute();
}

/** Pushed gateway lines waiting for derivation (stored by the push; the worker only derives them). */
export async function takeInbox(db: Kysely<Database>, machineIds: readonly string[], limit: number) {
  if (machineIds.length === 0) return [];
  return db
    .selectFrom('ingest_inbox')
    .selectAll()
    .where('machine_id', 'in', machineIds)
    .orderBy('received_at')
    .orderBy('seq')
    .orderBy('id')
    .limit(limit)
    .execute();
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

export interface ObservationRow {
  company_id: string;
  machine_id: string;
  ts: number;
  key: string;
  value: string | null;
}

export interface SourceStats {
  sourceId: string;
  lines: number;
  observations: number;
  rejected: number;
  lastLineAt: number | null;
}

export interface IngestBatch {
  /** The worker's clock when the batch was built (marks dirty rollups). */
  now?: number;
  observations: ObservationRow[];
  /** Inbox lines derived in this batch: removed in the same transaction, so a crash repeats, never loses. */
  inboxDone?: string[];
  /** Agent positions reached by this batch's observations, saved with them. */
  agentPositions?: Array<{ sourceId: string; instanceId: string; nextSequence: number }>;
  derived: DerivedWrite[];
  live: MachineLiveTable[];
  stats: SourceStats[];
}

const OBSERVATION_CHUNK = 1000; // 5 parameters a row stays far below both dialects' bind limits

/** `INSERT INTO observations … VALUES (…), (…)` for `rows` rows, `$n` (PostgreSQL) or `?` (SQLite) placeholders. */
function observationInsertSql(numbered: boolean, rows: number): string {
  const tuples: string[] = [];
  for (let r = 0; r < rows; r++) {
    const p = numbered ? [1, 2, 3, 4, 5].map((c) => `$${r * 5 + c}`) : ['?', '?', '?', '?', '?'];
    tuples.push(`(${p.join(', ')})`);
  }
  return `insert into "observations" ("company_id", "machine_id", "ts", "key", "value") values ${tuples.join(', ')}`;
}

/** SQLite statement texts by row count: a few sizes only, so each is prepared once (openDb's cache). */
const sqliteInsertTexts = new Map<number, string>();

/**
 * Row counts of the INSERTs for n rows. PostgreSQL: chunks of OBSERVATION_CHUNK (it parses every statement
 * anyway). SQLite: full chunks, then the rest in powers of two, so any batch uses the same dozen statements.
 */
function insertSizes(n: number, numbered: boolean): number[] {
  const sizes: number[] = [];
  let left = n;
  for (; left >= OBSERVATION_CHUNK; left -= OBSERVATION_CHUNK) sizes.push(OBSERVATION_CHUNK);
  if (numbered) return left > 0 ? [...sizes, left] : sizes;
  for (let p = 512; p >= 1; p >>= 1) {
    if (left < p) continue;
    sizes.push(p);
    left -= p;
  }
  return sizes;
}

/**
 * The hot write of ingest (issue 4 point 11a). The rows go straight into the parameter list of a statement
 * text made once per size, instead of through the query builder (which walks every row's object each time).
 */
async function insertObservations(trx: Kysely<Database>, rows: readonly ObservationRow[]): Promise<void> {
  if (rows.length === 0) return;
  const numbered = trx
    .selectFrom('observations')
    .select('ts')
    .where('ts', '=', 0)
    .compile()
    .sql.includes('$1');
  let at = 0;
  for (const n of insertSizes(rows.length, numbered)) {
    let text = numbered ? observationInsertSql(true, n) : sqliteInsertTexts.get(n);
    if (text === undefined) sqliteInsertTexts.set(n, (text = observationInsertSql(false, n)));
    const params: unknown[] = new Array(n * 5);
    for (let k = 0; k < n; k++, at++) {
      const r = rows[at] as ObservationRow;
      params[k * 5] = r.company_id;
      params[k * 5 + 1] = r.machine_id;
      params[k * 5 + 2] = r.ts;
      params[k * 5 + 3] = r.key;
      params[k * 5 + 4] = r.value;
    }
    await trx.executeQuery(CompiledQuery.raw(text, params));
  }
}

/**
 * Write one batch in one transaction: observations, the derived records that changed, the live rows and the
 * per-source counters. Either all of it is stored or none.
 */
export async function writeBatch(db: Kysely<Database>, batch: IngestBatch): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await insertObservations(trx, batch.observations);
    const done = batch.inboxDone ?? [];
    for (let i = 0; i < done.length; i += 500) {
      await trx
        .deleteFrom('ingest_inbox')
        .where('id', 'in', done.slice(i, i + 500))
        .execute();
    }
    for (const p of batch.agentPositions ?? []) {
      await trx
        .updateTable('machine_sources')
        .set({ agent_instance_id: p.instanceId, agent_next_sequence: p.nextSequence })
        .where('id', '=', p.sourceId)
        .execute();
    }
    for (const d of batch.derived) {
      await writeDerived(trx, d);
      // The rollup worker recomputes reports' buckets from here (late data included).
      await markRollupsDirty(trx, {
        companyId: d.companyId,
        machineId: d.machineId,
        from: d.from,
        now: batch.now ?? d.from,
      });
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

export interface DerivedWrite {
  companyId: string;
  machineId: string;
  /** Every stored record ending at or after this time (and every open one) is replaced. */
  from: number;
  result: DerivationResult;
  /** A new worker's first write: open records end here, and records starting at or after it are replaced. */
  takeOverAt?: number;
}

const DERIVED_TABLES = ['state_intervals', 'program_intervals', 'faults', 'flag_spans'] as const;

const openEnd = (r: { end: number; open?: boolean }) => (r.open ? null : r.end);

/**
 * Replace a machine's derived records from `from` on with the engine's latest result (issue 4 point 7):
 * state intervals, cycles, programs and sub-programs, faults, spindle and in-cut spans.
 */
export async function writeDerived(trx: Kysely<Database>, w: DerivedWrite): Promise<void> {
  const { companyId: company_id, machineId: machine_id, from, result } = w;
  const keep = <T extends { end: number; open?: boolean }>(rows: readonly T[]) =>
    rows.filter((r) => r.open || r.end >= from);
  if (w.takeOverAt != null) {
    const at = w.takeOverAt;
    for (const table of DERIVED_TABLES) {
      await trx.deleteFrom(table).where('machine_id', '=', machine_id).where('start_at', '>=', at).execute();
      await trx
        .updateTable(table)
        .set({ end_at: at })
        .where('machine_id', '=', machine_id)
        .where('end_at', 'is', null)
        .execute();
    }
    await trx.deleteFrom('cycles').where('machine_id', '=', machine_id).where('end_at', '>=', at).execute();
  }
  // Taking over already cleared everything from `at` on; the records it closed at `at` stay.
  const replacing = w.takeOverAt == null;

  if (replacing)
    await trx
      .deleteFrom('state_intervals')
      .where('machine_id', '=', machine_id)
      .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>=', from)]))
      .execute();
  const intervals = keep(result.intervals).map((i) => ({
    company_id,
    machine_id,
    start_at: i.start,
    end_at: openEnd(i),
    state: i.state,
    reason: i.reason,
  }));
  for (let k = 0; k < intervals.length; k += 500)
    await trx
      .insertInto('state_intervals')
      .values(intervals.slice(k, k + 500))
      .execute();

  if (replacing)
    await trx.deleteFrom('cycles').where('machine_id', '=', machine_id).where('end_at', '>=', from).execute();
  const cycles = result.cycles
    .filter((c) => c.end >= from)
    .map((c) => ({
      company_id,
      machine_id,
      start_at: c.start,
      end_at: c.end,
      duration: c.duration,
      count: c.count,
      source: c.source,
      setup: c.setup ? 1 : 0,
    }));
  for (let k = 0; k < cycles.length; k += 500)
    await trx
      .insertInto('cycles')
      .values(cycles.slice(k, k + 500))
      .execute();

  if (replacing)
    await trx
      .deleteFrom('program_intervals')
      .where('machine_id', '=', machine_id)
      .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>=', from)]))
      .execute();
  const programs = [
    ...keep(result.programs).map((p) => ({ p, sub: 0 })),
    ...keep(result.subprograms).map((p) => ({ p, sub: 1 })),
  ].map(({ p, sub }) => ({
    company_id,
    machine_id,
    sub,
    start_at: p.start,
    end_at: openEnd(p),
    name: p.name,
  }));
  for (let k = 0; k < programs.length; k += 500)
    await trx
      .insertInto('program_intervals')
      .values(programs.slice(k, k + 500))
      .execute();

  if (replacing)
    await trx
      .deleteFrom('faults')
      .where('machine_id', '=', machine_id)
      .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>=', from)]))
      .execute();
  const faults = keep(result.faults).map((f) => ({
    company_id,
    machine_id,
    item: f.item,
    start_at: f.start,
    end_at: openEnd(f),
    value: f.value,
    nativecode: f.nativecode,
    type: f.type,
  }));
  for (let k = 0; k < faults.length; k += 500)
    await trx
      .insertInto('faults')
      .values(faults.slice(k, k + 500))
      .execute();

  if (replacing)
    await trx
      .deleteFrom('flag_spans')
      .where('machine_id', '=', machine_id)
      .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>=', from)]))
      .execute();
  // Spans have no open flag: one reaching `now` may still grow, so store it open.
  const now = result.current.lastHeartbeat ?? 0;
  const spans = [
    ...result.spindle.filter((s) => s.end >= from).map((s) => ({ s, kind: 'spindle' as const })),
    ...result.inCut.filter((s) => s.end >= from).map((s) => ({ s, kind: 'incut' as const })),
  ].map(({ s, kind }) => ({
    company_id,
    machine_id,
    kind,
    start_at: s.start,
    end_at: s.end >= now && now > 0 ? null : s.end,
  }));
  for (let k = 0; k < spans.length; k += 500)
    await trx
      .insertInto('flag_spans')
      .values(spans.slice(k, k + 500))
      .execute();
}
