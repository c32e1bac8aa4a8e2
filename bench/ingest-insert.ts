// Benchmark: replay throughput, observations/s of the replay command's
// function (runReplay: SHDR parsing, derivation by the domain engine, batched writes of observations, derived
// records and the live row) against a raw batched insert of the same rows, on SQLite and on PostgreSQL, in the
// same run. Prints ratios, not a test.
//
// On PostgreSQL, where ingest stores observations with COPY (packages/db/src/copy.ts), the round also loads the
// same rows with one raw COPY (pg-copy-streams straight on pg: the fastest this server takes them) and through
// the ingest worker's store function alone (writeBatch, in the replay's batches of 5,000, without parsing and
// derivation), and prints both of ours as a ratio of that raw COPY.
//
// Several rounds, each on fresh databases, raw then ours back to back (the machine's load changes slowly, so
// a round's two figures are comparable even on a busy machine). Round 1 runs both paths cold (the JIT has
// not compiled our parser and engine yet; the raw path is native code); an ingest worker runs for days, so
// the headline is the median over the warm rounds. Both are printed. Pinned to one core (`taskset -c 0`), the
// optimizing compiler shares that core and our path reaches its steady rate only in round 3 or 4, hence 7 rounds. On SQLite all of the work is in this
// process, so its CPU time is printed too: on a machine shared with other jobs it is the steadier figure.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { finished } from 'node:stream/promises';
import type { Database } from '@takt/db';
import { copyField, copyStatement, migrateToLatest, openDb } from '@takt/db';
import { fileURLToPath } from 'node:url';
import { parseShdrLine } from '@takt/ingest';
import type { ObservationRow } from '@takt/ingest';
import { freshDb } from '@takt/db/testing';
import { runReplay } from '../services/ingest/src/replay/replay-cli';
import { writeBatch } from '../services/ingest/src/worker/store';

const FILE = new URL('../../shared/data/mtconnect/nist_2-1-2017-Hurco04-Clean.shdr.txt', import.meta.url);
const BATCH = 2000;
/**
 * The raw path's table: observations as text rows with a (machine_id, ts) index, the simplest a database takes them
 * (ours store the compact rows of decision 1130 behind the `observations` view, which takes no COPY).
 */
const RAW_TABLE = `create table raw_observations (company_id text not null, machine_id text not null, ts bigint not null,
  key text not null, value text); create index raw_observations_machine_ts on raw_observations (machine_id, ts)`;
/** The replay writes every 5,000 observations (runReplay's buffer). */
const REPLAY_BATCH = 5000;
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

/**
 * Our path: the replay command's own function (`npm run replay -- <file> --machine Hurco04 --cycles part_count`, as fast as it
 * goes): SHDR splitting and parsing, derivation by the domain engine, batched writes of observations, derived
 * records and the live row, and the summary read back. Returns ms; checks every row was stored.
 */
async function ours(db: Kysely<Database>, expected: number): Promise<number> {
  const started = performance.now();
  const result = await runReplay(
    db,
    { file: fileURLToPath(FILE), machine: 'Hurco04', speed: 'max', cycles: 'part_count', json: true },
    () => RECEIVED_AT,
  );
  const ms = performance.now() - started;
  if (result.observations !== expected || result.machineId !== MACHINE)
    throw new Error(`the replay stored ${result.observations} observations, the raw path ${expected}`);
  return ms;
}

const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
const fmt = (n: number) => n.toLocaleString('en-US');
const ROUNDS = 7;

interface Round {
  rawMs: number;
  oursMs: number;
  /** SQLite only: CPU time of this process (all of the work is in it), insensitive to other load. */
  rawCpuMs?: number;
  oursCpuMs?: number;
  /** PostgreSQL only: one raw COPY of every row, and ours through the ingest store function alone. */
  copyMs?: number;
  storeMs?: number;
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

/** SQLite: a prepared INSERT per row, one transaction per batch, straight on better-sqlite3; then ours. */
async function sqliteRound(rows: ObservationRow[]): Promise<Round> {
  const dir = mkdtempSync(join(tmpdir(), 'takt-bench-'));
  try {
    const rawDb = openDb(join(dir, 'raw.db'));
    await migrateToLatest(rawDb.db);
    await seed(rawDb.db);
    await rawDb.close();
    const sqlite = new SQLite(join(dir, 'raw.db'));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.exec(RAW_TABLE);
    const insert = sqlite.prepare(
      'INSERT INTO raw_observations (company_id, machine_id, ts, key, value) VALUES (?, ?, ?, ?, ?)',
    );
    const many = sqlite.transaction((batch: ObservationRow[]) => {
      for (const r of batch) insert.run(r.company_id, r.machine_id, r.ts, r.key, r.value);
    });
    const db = openDb(join(dir, 'ours.db'));
    await migrateToLatest(db.db);
    await seed(db.db);
    let cpu = process.cpuUsage();
    const t = performance.now();
    for (let i = 0; i < rows.length; i += BATCH) many(rows.slice(i, i + BATCH));
    const rawMs = performance.now() - t;
    const rawCpuMs = cpuMs(cpu);
    sqlite.close();
    cpu = process.cpuUsage();
    const oursMs = await ours(db.db, rows.length);
    const oursCpuMs = cpuMs(cpu);
    await db.close();
    return { rawMs, oursMs, rawCpuMs, oursCpuMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Raw COPY: every row in one COPY … FROM STDIN in one transaction, straight on pg and pg-copy-streams. */
async function rawCopy(url: string, rows: ObservationRow[]): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(RAW_TABLE);
  const t = performance.now();
  await client.query('BEGIN');
  const stream = client.query(
    copyFrom(copyStatement('raw_observations', ['company_id', 'machine_id', 'ts', 'key', 'value'])),
  );
  let data = '';
  for (const r of rows)
    data += `${copyField(r.company_id)}\t${copyField(r.machine_id)}\t${r.ts}\t${copyField(r.key)}\t${copyField(r.value)}\n`;
  stream.end(data);
  await finished(stream);
  await client.query('COMMIT');
  const ms = performance.now() - t;
  if (stream.rowCount !== rows.length)
    throw new Error(`raw COPY stored ${stream.rowCount} of ${rows.length} rows`);
  await client.end();
  return ms;
}

/** Ours without parsing and derivation: the ingest worker's store function, in the replay's batches. */
async function storeOnly(db: Kysely<Database>, rows: ObservationRow[]): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < rows.length; i += REPLAY_BATCH)
    await writeBatch(db, {
      observations: [],
      machineObservations: [
        { companyId: COMPANY, machineId: MACHINE, observations: rows.slice(i, i + REPLAY_BATCH) },
      ],
      derived: [],
      live: [],
      stats: [],
    });
  const ms = performance.now() - t;
  const { n } = await db
    .selectFrom('observations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(n) !== rows.length) throw new Error(`the store function stored ${n} of ${rows.length} rows`);
  return ms;
}

/**
 * PostgreSQL: multi-row INSERTs of the same batches in one transaction each, straight on pg; a raw COPY; then
 * ours: the store function alone and the whole replay.
 */
async function postgresRound(rows: ObservationRow[]): Promise<Round> {
  const raw = await freshDb('postgres');
  const db = await freshDb('postgres');
  const copied = await freshDb('postgres');
  const stored = await freshDb('postgres');
  try {
    for (const d of [raw, db, copied, stored]) await seed(d.db);
    const client = new pg.Client({ connectionString: raw.url });
    await client.connect();
    await client.query(RAW_TABLE);
    const t = performance.now();
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH);
      for (let j = 0; j < batch.length; j += 1000) {
        const part = batch.slice(j, j + 1000);
        const values = part
          .map((_, k) => `($${k * 5 + 1},$${k * 5 + 2},$${k * 5 + 3},$${k * 5 + 4},$${k * 5 + 5})`)
          .join(',');
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO raw_observations (company_id, machine_id, ts, key, value) VALUES ${values}`,
          part.flatMap((r) => [r.company_id, r.machine_id, r.ts, r.key, r.value]),
        );
        await client.query('COMMIT');
      }
    }
    const rawMs = performance.now() - t;
    await client.end();
    const copyMs = await rawCopy(copied.url, rows);
    const storeMs = await storeOnly(stored.db, rows);
    const oursMs = await ours(db.db, rows.length);
    return { rawMs, oursMs, copyMs, storeMs };
  } finally {
    for (const d of [raw, db, copied, stored]) await d.cleanup();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function report(name: string, n: number, rounds: Round[]) {
  const cpu = (r: Round) =>
    r.rawCpuMs !== undefined && r.oursCpuMs !== undefined
      ? ` · by CPU time: raw ${fmt(rate(n, r.rawCpuMs))}/s, takt ${fmt(rate(n, r.oursCpuMs))}/s, ratio ${(r.rawCpuMs / r.oursCpuMs).toFixed(2)}`
      : '';
  const line = (r: Round) =>
    `raw ${fmt(rate(n, r.rawMs))}/s · takt ${fmt(rate(n, r.oursMs))}/s · ratio ${(r.rawMs / r.oursMs).toFixed(2)}${cpu(r)}`;
  const [cold, ...warm] = rounds;
  console.log(`  ${name}`);
  console.log(`    round 1 (cold JIT)  ${line(cold!)}`);
  warm.forEach((r, i) => console.log(`    round ${i + 2}          ${line(r)}`));
  console.log(
    `    warm median        raw batched insert ${fmt(Math.round(median(warm.map((r) => rate(n, r.rawMs)))))}/s · takt replay ${fmt(
      Math.round(median(warm.map((r) => rate(n, r.oursMs)))),
    )}/s · ratio ${median(warm.map((r) => r.rawMs / r.oursMs)).toFixed(2)}`,
  );
  if (warm.every((r) => r.copyMs !== undefined && r.storeMs !== undefined)) {
    const copyLine = (r: Round) =>
      `raw COPY ${fmt(rate(n, r.copyMs!))}/s · takt store ${fmt(rate(n, r.storeMs!))}/s (ratio ${(r.copyMs! / r.storeMs!).toFixed(2)}) · takt replay ratio ${(r.copyMs! / r.oursMs).toFixed(2)}`;
    console.log(`    against raw COPY, round 1 (cold JIT)  ${copyLine(cold!)}`);
    warm.forEach((r, i) => console.log(`    against raw COPY, round ${i + 2}          ${copyLine(r)}`));
    console.log(
      `    warm median against raw COPY ${fmt(Math.round(median(warm.map((r) => rate(n, r.copyMs!)))))}/s: takt store (ingest write path) ${fmt(
        Math.round(median(warm.map((r) => rate(n, r.storeMs!)))),
      )}/s · ratio ${median(warm.map((r) => r.copyMs! / r.storeMs!)).toFixed(2)}; takt replay (parse, derive, store) ratio ${median(
        warm.map((r) => r.copyMs! / r.oursMs),
      ).toFixed(2)}`,
    );
  }
  if (warm.every((r) => r.rawCpuMs !== undefined && r.oursCpuMs !== undefined))
    console.log(
      `    warm median by CPU time: takt replay ${fmt(Math.round(median(warm.map((r) => rate(n, r.oursCpuMs!)))))}/s · ratio ${median(
        warm.map((r) => r.rawCpuMs! / r.oursCpuMs!),
      ).toFixed(2)}`,
    );
}

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
    `ingest-insert: ${fmt(rows.length)} observations from ${fmt(lines.length)} SHDR lines (NIST Hurco04), batches of ${BATCH}, ${ROUNDS} rounds`,
  );
  const sqlite: Round[] = [];
  for (let r = 0; r < ROUNDS; r++) sqlite.push(await sqliteRound(rows));
  report('SQLite', rows.length, sqlite);
  const postgres: Round[] = [];
  for (let r = 0; r < ROUNDS; r++) postgres.push(await postgresRound(rows));
  report('PostgreSQL', rows.length, postgres);
}

await main();
