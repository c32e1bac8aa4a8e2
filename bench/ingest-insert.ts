// Benchmark (issue 2 point 9): raw batched better-sqlite3 inserts of observations against our ingest path
// (SHDR parsing, live-state derivation and batched Kysely writes) on the same rows, in the same run.
// Prints observations/s for each and their ratio. Not a test: no thresholds.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { migrateToLatest, openDb } from '@takt/api/db';
import { MachinePipeline, parseShdrLine, writeBatch } from '@takt/ingest';
import type { ObservationRow } from '@takt/ingest';

const FILE = new URL('../../shared/data/mtconnect/nist_2-1-2017-Hurco04-Clean.shdr.txt', import.meta.url);
const BATCH = 2000;
const COMPANY = 'bench-company';
const MACHINE = 'bench-machine';

async function freshFile() {
  const dir = mkdtempSync(join(tmpdir(), 'takt-bench-'));
  const path = join(dir, 'bench.db');
  const db = openDb(path);
  await migrateToLatest(db.db);
  await db.db
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
  await db.db
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
  return { dir, path, db };
}

async function main() {
  const lines = readFileSync(FILE, 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.length > 0);
  const receivedAt = Date.UTC(2017, 1, 1, 21);
  // The rows both contenders store: every observation of the real Hurco log.
  const rows: ObservationRow[] = [];
  for (const line of lines) {
    const parsed = parseShdrLine(line, receivedAt);
    if (parsed.type !== 'data') continue;
    for (const o of parsed.observations)
      rows.push({ company_id: COMPANY, machine_id: MACHINE, ts: o.ts, key: o.key, value: o.value });
  }

  // Baseline: a prepared INSERT in one transaction per batch, straight on better-sqlite3.
  const raw = await freshFile();
  await raw.db.close();
  const sqlite = new SQLite(raw.path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  const insert = sqlite.prepare(
    'INSERT INTO observations (company_id, machine_id, ts, key, value) VALUES (?, ?, ?, ?, ?)',
  );
  const insertMany = sqlite.transaction((batch: ObservationRow[]) => {
    for (const r of batch) insert.run(r.company_id, r.machine_id, r.ts, r.key, r.value);
  });
  let started = performance.now();
  for (let i = 0; i < rows.length; i += BATCH) insertMany(rows.slice(i, i + BATCH));
  const rawMs = performance.now() - started;
  sqlite.close();
  rmSync(raw.dir, { recursive: true, force: true });

  // Ours: parse each line, derive live state, write batches through the ingest store.
  const ours = await freshFile();
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
  const pipeline = new MachinePipeline(COMPANY, MACHINE, fields, 'part_count', receivedAt);
  pipeline.setConnection('CONNECTED', receivedAt);
  let buffer: ObservationRow[] = [];
  let stored = 0;
  const flush = async () => {
    const taken = pipeline.take(receivedAt);
    await writeBatch(ours.db.db, {
      observations: buffer,
      derived: taken ? [{ companyId: COMPANY, machineId: MACHINE, ...taken }] : [],
      live: [pipeline.liveRow(receivedAt)],
      stats: [],
    });
    pipeline.stored(receivedAt);
    stored += buffer.length;
    buffer = [];
  };
  started = performance.now();
  for (const line of lines) {
    const parsed = parseShdrLine(line, receivedAt);
    if (parsed.type !== 'data') continue;
    for (const o of parsed.observations)
      buffer.push({ company_id: COMPANY, machine_id: MACHINE, ts: o.ts, key: o.key, value: o.value });
    pipeline.pushRaw(parsed.observations, receivedAt);
    if (buffer.length >= BATCH) await flush();
  }
  await flush();
  const oursMs = performance.now() - started;
  await ours.db.close();
  rmSync(ours.dir, { recursive: true, force: true });

  const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
  console.log(
    `ingest-insert: ${rows.length} observations from ${lines.length} SHDR lines (NIST Hurco04), batches of ${BATCH}`,
  );
  console.log(
    `  raw better-sqlite3 batched insert : ${rate(rows.length, rawMs).toLocaleString('en-US')} observations/s`,
  );
  console.log(
    `  takt ingest path (parse+derive+write): ${rate(stored, oursMs).toLocaleString('en-US')} observations/s`,
  );
  console.log(`  ratio takt / raw: ${(rate(stored, oursMs) / rate(rows.length, rawMs)).toFixed(2)}`);
}

await main();
