// Benchmark (issue 2 point 9, issue 4 point 11a): observations/s of our ingest path (SHDR parsing, derivation
// by the domain engine, batched writes of observations, derived records and the live row) against a raw
// batched insert of the same rows, on SQLite and on PostgreSQL, in the same run. Prints ratios, not a test.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '@takt/api/db';
import { migrateToLatest, openDb } from '@takt/api/db';
import { MachinePipeline, parseShdrLine, writeBatch } from '@takt/ingest';
import type { ObservationRow } from '@takt/ingest';
import { freshDb } from '../services/api/src/testing/db';

const FILE = new URL('../../shared/data/mtconnect/nist_2-1-2017-Hurco04-Clean.shdr.txt', import.meta.url);
const BATCH = 2000;
const COMPANY = 'bench-company';
const MACHINE = 'bench-machine';
const RECEIVED_AT = Date.UTC(2017, 1, 1, 21);

async function seed(db: Kysely<Database>) {
  await db
    .insertInto('companies')
    .values({
      id: COMPANY,
      name: 'Bench',
      timezone: 'UTC',
      locale: 'en-US',
      product_tier: 'full',
      is_demo: 0,
      created_at: 0,
    })
    .execute();
  await db
    .insertInto('machines')
    .values({
      id: MACHINE,
      company_id: COMPANY,
      name: 'Hurco04',
      workcenter_type: 'machine',
      sort_order: 0,
      downtime_failure_delay: 5,
      autostart_behavior: 'disabled',
      adapter_id: null,
      decommissioned_at: null,
      created_at: 0,
    })
    .execute();
}

/** Our path: parse each line, derive, write batches through the ingest store. Returns ms. */
async function ours(db: Kysely<Database>, lines: string[]): Promise<number> {
  const fields = new Map(
    [
      ['Program_Status', 'EXECUTION'],
      ['Part_Count', 'PART_COUNT'],
      ['avail', 'AVAILABILITY'],
      ['Program_Name_Running', 'PROGRAM'],
      ['Spindle_Speed', 'ROTARY_VELOCITY'],
      ['Feed_Rate', 'PATH_FEEDRATE'],
    ].map(([k, type]) => [k!, { type: type!, subType: null }]),
  );
  const pipeline = new MachinePipeline(COMPANY, MACHINE, fields, 'part_count', RECEIVED_AT);
  let connected = false;
  let buffer: ObservationRow[] = [];
  const flush = async () => {
    const taken = pipeline.take(RECEIVED_AT);
    await writeBatch(db, {
      observations: buffer,
      derived: taken ? [{ companyId: COMPANY, machineId: MACHINE, ...taken }] : [],
      live: [pipeline.liveRow(RECEIVED_AT, taken?.result)],
      stats: [],
    });
    pipeline.stored(RECEIVED_AT);
    buffer = [];
  };
  const started = performance.now();
  for (const line of lines) {
    const parsed = parseShdrLine(line, RECEIVED_AT);
    if (parsed.type !== 'data') continue;
    if (!connected) {
      // As the replay command does: the link opened with the log's first line. (Connecting at RECEIVED_AT,
      // after the whole log, made every observation late data that refolds from a checkpoint.)
      pipeline.setConnection('CONNECTED', parsed.ts);
      connected = true;
    }
    for (const o of parsed.observations)
      buffer.push({ company_id: COMPANY, machine_id: MACHINE, ts: o.ts, key: o.key, value: o.value });
    pipeline.pushRaw(parsed.observations, RECEIVED_AT);
    if (buffer.length >= BATCH) await flush();
  }
  await flush();
  return performance.now() - started;
}

const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
const fmt = (n: number) => n.toLocaleString('en-US');

async function main() {
  const lines = readFileSync(FILE, 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.length > 0);
  const rows: ObservationRow[] = [];
  for (const line of lines) {
    const parsed = parseShdrLine(line, RECEIVED_AT);
    if (parsed.type !== 'data') continue;
    for (const o of parsed.observations)
      rows.push({ company_id: COMPANY, machine_id: MACHINE, ts: o.ts, key: o.key, value: o.value });
  }
  console.log(
    `ingest-insert: ${fmt(rows.length)} observations from ${fmt(lines.length)} SHDR lines (NIST Hurco04), batches of ${BATCH}`,
  );

  // SQLite: a prepared INSERT per row, one transaction per batch, straight on better-sqlite3.
  {
    const dir = mkdtempSync(join(tmpdir(), 'takt-bench-'));
    const rawDb = openDb(join(dir, 'raw.db'));
    await migrateToLatest(rawDb.db);
    await seed(rawDb.db);
    await rawDb.close();
    const sqlite = new SQLite(join(dir, 'raw.db'));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    const insert = sqlite.prepare(
      'INSERT INTO observations (company_id, machine_id, ts, key, value) VALUES (?, ?, ?, ?, ?)',
    );
    const many = sqlite.transaction((batch: ObservationRow[]) => {
      for (const r of batch) insert.run(r.company_id, r.machine_id, r.ts, r.key, r.value);
    });
    let t = performance.now();
    for (let i = 0; i < rows.length; i += BATCH) many(rows.slice(i, i + BATCH));
    const rawMs = performance.now() - t;
    sqlite.close();
    const db = openDb(join(dir, 'ours.db'));
    await migrateToLatest(db.db);
    await seed(db.db);
    t = await ours(db.db, lines);
    await db.close();
    rmSync(dir, { recursive: true, force: true });
    console.log(
      `  SQLite     raw batched insert ${fmt(rate(rows.length, rawMs))}/s · takt ingest path ${fmt(rate(rows.length, t))}/s · ratio ${(rawMs / t).toFixed(2)}`,
    );
  }

  // PostgreSQL: multi-row INSERTs of the same batches in one transaction each, straight on pg.
  {
    const raw = await freshDb('postgres');
    await seed(raw.db);
    const client = new pg.Client({ connectionString: raw.url });
    await client.connect();
    let t = performance.now();
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH);
      for (let j = 0; j < batch.length; j += 1000) {
        const part = batch.slice(j, j + 1000);
        const values = part
          .map((_, k) => `($${k * 5 + 1},$${k * 5 + 2},$${k * 5 + 3},$${k * 5 + 4},$${k * 5 + 5})`)
          .join(',');
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO observations (company_id, machine_id, ts, key, value) VALUES ${values}`,
          part.flatMap((r) => [r.company_id, r.machine_id, r.ts, r.key, r.value]),
        );
        await client.query('COMMIT');
      }
    }
    const rawMs = performance.now() - t;
    await client.end();
    await raw.cleanup();
    const db = await freshDb('postgres');
    await seed(db.db);
    t = await ours(db.db, lines);
    await db.cleanup();
    console.log(
      `  PostgreSQL raw batched insert ${fmt(rate(rows.length, rawMs))}/s · takt ingest path ${fmt(rate(rows.length, t))}/s · ratio ${(rawMs / t).toFixed(2)}`,
    );
  }
}

await main();
