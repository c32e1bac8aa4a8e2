// Benchmark (issue 30 point 3, decision 1149): what a machine-day costs on PostgreSQL, table by table. The soak's
// script (tests/multihost/adapters.ts: a line a second per machine, a new program every line, the execution changing
// every fourth line) is played by adapters in a process of their own into the real ingest worker (links, batch
// writer, pipelines, rollup worker) on a new database, for M minutes. Then, per table (partitions summed into their
// parent), the bytes it grew by per machine-day (heap with its TOAST and maps, and its indexes), its rows, the bytes
// a row and its dead row versions (pgstattuple: exact, not the statistics' estimate). pg_database_size's growth per
// machine-day is what bench/soak.ts prints; WAL is not in it. Not a test.
// The raw rows are packed as the API processes' retention worker packs them (decision 1184): rows older than
// TAKT_BENCH_PACK_AGE_S (default the product's PACK_AGE_MS) every TAKT_BENCH_PACK_EVERY_S (default 60); a short run
// takes a shorter age, so what a machine-day leaves is packs, as in a day-long run. Closed program intervals are packed
// in the same pass (decision 1196) when older than TAKT_BENCH_PROGRAM_PACK_AGE_S (default PROGRAM_PACK_AGE_MS).
// Each table's TOAST chunks, live and dead (pgstattuple), are printed too, and the writes of rollup_week_packs per
// machine and minute (decision 1242). TAKT_BENCH_DB_PREFIX: the new database's name begins with it (default takt_e_).
//   npx tsx bench/disk-day.ts [machines=100] [minutes=3]
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { ensureDemoCompany } from '../services/api/src/provision';
import {
  migrateToLatest,
  openDb,
  PACK_AGE_MS,
  packObservations,
  packPrograms,
  PROGRAM_PACK_AGE_MS,
} from '@takt/db';
import type { Database } from '@takt/db';
import { emptyDatabase } from '@takt/db/testing';
import { demoAdapterFields, startIngest } from '@takt/ingest';
import type { AdapterHostConfig } from '../tests/multihost/adapters';

const MACHINES = Number(process.argv[2] ?? 100);
const MINUTES = Number(process.argv[3] ?? 3);
// TAKT_BENCH_PORT_BASE: another base for the adapters' ports (and the control port just below), so two runs on one
// host do not dial each other's adapters (as bench/ingest-work.ts).
const PORT_BASE = Number(process.env.TAKT_BENCH_PORT_BASE ?? 22_000);
const CONTROL_PORT = PORT_BASE - 1;
const PACK_AGE = Number(process.env.TAKT_BENCH_PACK_AGE_S ?? PACK_AGE_MS / 1000) * 1000;
const PROGRAM_PACK_AGE =
  Number(process.env.TAKT_BENCH_PROGRAM_PACK_AGE_S ?? PROGRAM_PACK_AGE_MS / 1000) * 1000;
const PACK_EVERY = Number(process.env.TAKT_BENCH_PACK_EVERY_S ?? 60) * 1000;
const DB_PREFIX = process.env.TAKT_BENCH_DB_PREFIX ?? 'takt_e_';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface TableSize {
  heap: number;
  index: number;
  rows: number;
  dead: number;
}

/** Every table's heap and index bytes, partitions summed into their parent. */
async function sizes(db: Kysely<Database>): Promise<Map<string, TableSize>> {
  const { rows } = await sql<{ t: string; heap: string; index: string }>`
    SELECT coalesce(pg_partition_root(c.oid), c.oid)::regclass::text AS t,
      sum(pg_table_size(c.oid)) AS heap, sum(pg_indexes_size(c.oid)) AS index
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'r' GROUP BY 1`.execute(db);
  const out = new Map<string, TableSize>();
  for (const r of rows) out.set(r.t, { heap: Number(r.heap), index: Number(r.index), rows: 0, dead: 0 });
  return out;
}

/**
 * Exact live rows and dead row versions of one table (its partitions summed), and the statistics' inserts, updates
 * (HOT among them) and deletes since the database was made.
 */
async function tuples(
  db: Kysely<Database>,
  table: string,
): Promise<{
  rows: number;
  dead: number;
  ins: number;
  upd: number;
  hot: number;
  del: number;
  toast: number;
  toastDead: number;
}> {
  const { rows } = await sql<
    Record<'rows' | 'dead' | 'ins' | 'upd' | 'hot' | 'del' | 'toast' | 'toast_dead', string>
  >`
    WITH leaves AS (SELECT relid FROM pg_partition_tree(${table}::regclass) WHERE isleaf),
      rels AS (SELECT relid FROM leaves UNION ALL
        SELECT ${table}::regclass WHERE NOT EXISTS (SELECT 1 FROM leaves)),
      toasts AS (SELECT c.reltoastrelid AS relid FROM rels r JOIN pg_class c ON c.oid = r.relid
        WHERE c.reltoastrelid <> 0)
    SELECT coalesce(sum((pgstattuple(r.relid)).tuple_count), 0) AS rows,
      coalesce(sum((pgstattuple(r.relid)).dead_tuple_count), 0) AS dead,
      coalesce(sum(s.n_tup_ins), 0) AS ins, coalesce(sum(s.n_tup_upd), 0) AS upd,
      coalesce(sum(s.n_tup_hot_upd), 0) AS hot, coalesce(sum(s.n_tup_del), 0) AS del,
      (SELECT coalesce(sum((pgstattuple(t.relid)).tuple_count), 0) FROM toasts t) AS toast,
      (SELECT coalesce(sum((pgstattuple(t.relid)).dead_tuple_count), 0) FROM toasts t) AS toast_dead
    FROM rels r LEFT JOIN pg_stat_user_tables s ON s.relid = r.relid`.execute(db);
  const r = rows[0];
  return {
    toast: Number(r?.toast ?? 0),
    toastDead: Number(r?.toast_dead ?? 0),
    rows: Number(r?.rows ?? 0),
    dead: Number(r?.dead ?? 0),
    ins: Number(r?.ins ?? 0),
    upd: Number(r?.upd ?? 0),
    hot: Number(r?.hot ?? 0),
    del: Number(r?.del ?? 0),
  };
}

async function databaseBytes(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ n: string }>`SELECT pg_database_size(current_database()) AS n`.execute(db);
  return Number(rows[0]?.n);
}

async function main() {
  const pgDatabase = await emptyDatabase('postgres', DB_PREFIX);
  const database = openDb(pgDatabase.url);
  const adapters = { proc: null as ReturnType<typeof spawn> | null };
  try {
    await migrateToLatest(database.db);
    await sql`CREATE EXTENSION IF NOT EXISTS pgstattuple`.execute(database.db);
    await ensureDemoCompany(database.db, {
      portBase: PORT_BASE,
      seed: 20261122,
      machines: MACHINES,
      adapterFields: demoAdapterFields(),
      now: Date.now(),
    });
    await database.db.updateTable('machine_sources').set({ host: '127.0.0.1' }).execute();
    const config: AdapterHostConfig = {
      host: '127.0.0.1',
      controlPort: CONTROL_PORT,
      machines: MACHINES,
      sets: { bench: PORT_BASE },
      phases: [{ steps: MINUTES * 60, quiet: false }],
      stepMs: 1000,
    };
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', 'tests/multihost/adapters.ts', JSON.stringify(config)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    adapters.proc = proc;
    await new Promise<void>((resolve) =>
      proc.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve()),
    );
    const control = `http://127.0.0.1:${CONTROL_PORT}`;
    const ingest = await startIngest({
      db: database.db,
      sourcePolicy: { allow: [{ cidr: '127.0.0.0/8' }], ownPorts: [] },
    });
    let stopped = false;
    // The retention worker's packing (a no-op before migration 0065 and on SQLite), one round at a time.
    let packing: Promise<unknown> = Promise.resolve();
    const packer = setInterval(() => {
      packing = packing
        .then(() => packObservations(database.db, Date.now(), PACK_AGE))
        .then(() => packPrograms(database.db, Date.now(), PROGRAM_PACK_AGE))
        .catch(() => undefined);
    }, PACK_EVERY);
    try {
      for (;;) {
        const s = (await (await fetch(`${control}/status`)).json()) as {
          sets: Record<string, { peers: string[][] }>;
        };
        if (s.sets.bench!.peers.every((p) => p.length === 1)) break;
        await sleep(500);
      }
      await sleep(3000); // the snapshots every link sends first are stored before the baseline
      const before = await sizes(database.db);
      const dbBefore = await databaseBytes(database.db);
      await fetch(`${control}/start?at=${Date.now() + 1000}`, { method: 'POST' });
      for (let left = MINUTES; left > 0; left--) {
        await sleep(60_000);
        console.log(`  … ${left - 1} min to go`);
      }
      await sleep(6000); // the last lines stored and rolled up
      await ingest.stop();
      stopped = true;
      clearInterval(packer);
      await packing;
      await sleep(11_000); // every backend's statistics flushed (PostgreSQL 15 flushes idle ones within 10 s)
      const after = await sizes(database.db);
      const dbAfter = await databaseBytes(database.db);
      const machineDays = (MACHINES * MINUTES) / (24 * 60);
      const mb = (b: number) => b / 1024 / 1024 / machineDays;
      const rowsOf = await tuples(database.db, 'observation_rows');
      const packed = await sql<{
        n: string;
      }>`select coalesce(sum(cardinality(dts)), 0) as n from observation_packs`
        .execute(database.db)
        .then((r) => Number(r.rows[0]?.n ?? 0))
        .catch(() => 0);
      const raw = rowsOf.rows + packed;
      console.log(
        `disk-day: ${MACHINES} machines × 1 line/s × ${MINUTES} min (${machineDays.toFixed(3)} machine-days), ` +
          `${raw} raw observations (${(raw / (MACHINES * MINUTES * 60)).toFixed(2)} a machine-second), ` +
          `${packed} of them packed (age ${PACK_AGE / 1000} s, every ${PACK_EVERY / 1000} s); closed programs packed ` +
          `at age ${PROGRAM_PACK_AGE / 1000} s`,
      );
      console.log(
        '| table | MB/machine-day | heap | indexes | rows/machine-day | bytes/row | dead versions | ' +
          'inserts | updates (HOT) | deletes | TOAST chunks (dead) |',
      );
      console.log('|---|---|---|---|---|---|---|---|---|---|---|');
      const grown = [...after]
        .map(([t, a]) => {
          const b = before.get(t) ?? { heap: 0, index: 0, rows: 0, dead: 0 };
          return { t, heap: a.heap - b.heap, index: a.index - b.index };
        })
        .filter((g) => g.heap + g.index > 0)
        .sort((x, y) => y.heap + y.index - (x.heap + x.index));
      let sum = 0;
      for (const g of grown) {
        const { rows, dead, ins, upd, hot, del, toast, toastDead } = await tuples(database.db, g.t);
        sum += g.heap + g.index;
        console.log(
          `| ${g.t} | ${mb(g.heap + g.index).toFixed(2)} | ${mb(g.heap).toFixed(2)} | ${mb(g.index).toFixed(2)} | ` +
            `${(rows / machineDays).toFixed(0)} | ${rows > 0 ? ((g.heap + g.index) / rows).toFixed(0) : '-'} | ${dead} | ${ins} | ${upd} (${hot}) | ${del} | ${toast} (${toastDead}) |`,
        );
      }
      const packs = await tuples(database.db, 'rollup_week_packs').catch(() => null);
      if (packs)
        console.log(
          `rollup_week_packs: ${packs.ins + packs.upd} writes (${packs.ins} inserts, ${packs.upd} updates), ` +
            `${((packs.ins + packs.upd) / MACHINES / MINUTES).toFixed(2)} a machine and minute; ` +
            `${packs.rows} rows, ${packs.dead} dead, TOAST ${packs.toast} chunks (${packs.toastDead} dead)`,
        );
      const programs = grown
        .filter((g) => g.t.startsWith('program_'))
        .reduce((n, g) => n + g.heap + g.index, 0);
      console.log(
        `program tables ${mb(programs).toFixed(2)} MB per machine-day, ${((100 * programs) / sum).toFixed(1)} % of the tables`,
      );
      console.log(
        `tables together ${mb(sum).toFixed(1)} MB per machine-day; pg_database_size grew ${mb(dbAfter - dbBefore).toFixed(1)} ` +
          `MB per machine-day (bench/soak.ts's figure)`,
      );
      // The same rows compacted: what stays of a machine-day once the dead row versions of the per-batch rewrites are
      // reclaimed and their space reused (VACUUM FULL rewrites each table and builds its indexes anew, so this is
      // a lower bound: indexes grown by inserts are less full). Tables whose rows are one a machine (live rows,
      // sources, leases, dirty marks) grow with the machines, not with the days.
      await sql`VACUUM FULL`.execute(database.db);
      const compact = await sizes(database.db);
      console.log('| table, compacted | MB/machine-day | heap | indexes | bytes/row | as run / compacted |');
      console.log('|---|---|---|---|---|---|');
      let compactSum = 0;
      for (const g of grown) {
        const c = compact.get(g.t)!;
        const b = before.get(g.t) ?? { heap: 0, index: 0, rows: 0, dead: 0 };
        const heap = c.heap - b.heap;
        const index = c.index - b.index;
        const { rows } = await tuples(database.db, g.t);
        compactSum += heap + index;
        console.log(
          `| ${g.t} | ${mb(heap + index).toFixed(2)} | ${mb(heap).toFixed(2)} | ${mb(index).toFixed(2)} | ` +
            `${rows > 0 ? ((heap + index) / rows).toFixed(0) : '-'} | ` +
            `${heap + index > 0 ? ((g.heap + g.index) / (heap + index)).toFixed(2) : '-'} |`,
        );
      }
      console.log(
        `compacted together ${mb(compactSum).toFixed(1)} MB per machine-day (as run / compacted ${(sum / compactSum).toFixed(2)})`,
      );
    } finally {
      clearInterval(packer);
      if (!stopped) await ingest.stop();
    }
  } finally {
    adapters.proc?.kill('SIGTERM');
    await database.close();
    await pgDatabase.cleanup();
  }
  process.exit(0);
}

await main();
