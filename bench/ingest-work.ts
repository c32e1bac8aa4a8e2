// Benchmark: the work of one ingest node per batch, against the machines it holds and how long it has run. The
// soak's script (tests/multihost/adapters.ts: a line a second per machine, a new program every line) is played by
// adapters in a process of their own; this process runs only the ingest worker, on a new database. For each machine
// count it prints, per minute: observations stored a second, the node's CPU per 1,000 observations (process.cpuUsage,
// user + system), queries per stored batch and the ingest lag p99 (earliest observation of a batch → its commit);
// then the ratios of the last minute to the first (grows with time?) and of the largest machine count to the
// smallest (grows with machines?). The ingest runs as a node runs it: TAKT_BENCH_ARRIVAL_GAP=off|<ms> sets the worker's
// arrivalGapMs (default the node's 50 ms, decision 1199; off is the timer-only batches of decision 1163) and
// TAKT_BENCH_POOL its PostgreSQL pool (default the node's 4, decision 1237). Each transaction's time is split into the
// database's and the node's (waiting for the event loop; decision 1174). PostgreSQL: the batches at each minute's lag
// p99 are taken apart one by one, with the rollup runs, GC pauses and pool waits beside them (decision 1238;
// bench/support/ingest-tx.ts); TAKT_BENCH_ROLLUP_READY=0 runs the rollup marks beside the batches instead of after.
// TAKT_BENCH_TX_WINDOWS=<file> writes the transactions' windows, to attribute a --cpu-prof's samples inside them.
// Wall-clock figures are noisy on a shared machine; CPU and query counts much less.
// SQLite: each minute's commits (p50/p99/max: the time each held the event loop, bench/support/sqlite-watch.ts) and
// BENCH_WAL=sqlite|worker|off, who checkpoints the WAL (bench/support/wal-mode.ts, decision 1229).
// BENCH_LIVE_FACTS=none|0072|0074: the fact tables' live generation triggers (decisions 1231, 1234; 0074 the latest).
// Each minute also prints the batches that wrote the sources' counters and how many rows each (decision 1243).
// Not a test.
//   npx tsx bench/ingest-work.ts [machines=100,1000] [minutes=3] [postgres|sqlite]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KyselyPlugin } from 'kysely';
import pg from 'pg';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { INGEST_POOL_SIZE } from '../services/api/src/databases';
import { INGEST_ARRIVAL_GAP_MS } from '../services/api/src/node-ingest';
import { ensureDemoCompany } from '../services/api/src/provision';
import { migrateToLatest, openDb } from '@takt/db';
import type { DialectName } from '@takt/db';
import { emptyDatabase, migrateTo, migrationBefore } from '@takt/db/testing';
import { demoAdapterFields, startIngest } from '@takt/ingest';
import { SourceCounters } from '../services/ingest/src/worker/source-counters';
import type { AdapterHostConfig } from '../tests/multihost/adapters';
import {
  installWatch,
  pct,
  printBreakdown,
  printTail,
  printTransactions,
  resetWatch,
  sampleBackends,
  windows,
} from './support/ingest-tx';
import type { StoredBatch } from './support/ingest-tx';
import * as m0072 from '../packages/db/src/migrations/2026-12-01-0072-live-generation-facts';
import { databaseCpu, generations, rowChurn, triggerTime } from './support/pg-work-stats';
import { commitLine, sqliteCommits, resetSqlite, watchSqlite } from './support/sqlite-watch';
import { benchWal } from './support/wal-mode';
import type { BenchWal } from './support/wal-mode';

const COUNTS = (process.argv[2] ?? '100,1000').split(',').map(Number);
const MINUTES = Number(process.argv[3] ?? 3);
const DIALECT = (process.argv[4] ?? 'postgres') as DialectName;
// The node's arrangement by default (decision 1238): line-started batches 50 ms apart at least (decision 1199) and
// the ingest's pool of 4 (decisions 1192, 1237). TAKT_BENCH_POOL=<n> another pool size.
const ARRIVAL_GAP = process.env.TAKT_BENCH_ARRIVAL_GAP ?? String(INGEST_ARRIVAL_GAP_MS);
const POOL = Number(process.env.TAKT_BENCH_POOL ?? INGEST_POOL_SIZE);
// TAKT_BENCH_ROLLUP_READY=0: the rollup worker's marks run beside the batches, not after them (decision 1238).
const ROLLUP_READY = process.env.TAKT_BENCH_ROLLUP_READY !== '0';
// TAKT_BENCH_PORT_BASE: another base for the adapters' ports (and the control port just below), so two runs on one
// host do not dial each other's adapters.
const PORT_BASE = Number(process.env.TAKT_BENCH_PORT_BASE ?? 31_000);
const CONTROL_PORT = PORT_BASE - 1;
/**
 * The live generation's triggers on the fact tables (decisions 1231, 1234): `0074` (the latest), `0072` (migration
 * 0074 down: 0072's statement-level triggers) or `none` (0072's down too; BENCH_WITHOUT_0072=1 says the same).
 */
const LIVE_FACTS = process.env.BENCH_LIVE_FACTS ?? (process.env.BENCH_WITHOUT_0072 === '1' ? 'none' : '0074');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Minute {
  obsPerS: number;
  cpuMsPer1000: number;
  queriesPerBatch: number;
  lagP99: number;
  /** PostgreSQL: the CPU of this database's server processes (backends, autovacuum) per 1,000 observations. */
  dbCpuMsPer1000: number;
}

/** Counts every query the worker runs (a result passes each plugin once per executed statement). */
function counter(): { plugin: KyselyPlugin; count: () => number } {
  let n = 0;
  return {
    plugin: {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        n++;
        return args.result;
      },
    },
    count: () => n,
  };
}

/**
 * PostgreSQL: the statements of each minute by their first words, with the time they took (sent → answered;
 * waits in the pool and the server's load included). TAKT_BENCH_QUERIES=1 prints the top ones.
 */
const shapes = new Map<string, { n: number; ms: number }>();
if (process.env.TAKT_BENCH_QUERIES === '1') {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = (typeof first === 'string' ? first : (first?.text ?? '')).slice(0, 90);
    const t0 = performance.now();
    const seen = shapes.get(text) ?? { n: 0, ms: 0 };
    shapes.set(text, seen);
    seen.n++;
    const out = query.apply(this, args);
    if (out instanceof Promise)
      void out.then(
        () => (seen.ms += performance.now() - t0),
        () => (seen.ms += performance.now() - t0),
      );
    return out;
  } as typeof pg.Client.prototype.query;
}
installWatch();

/** The sources' counters each batch took (decision 1243), whatever else it wrote; cleared each minute. */
const takes: number[] = [];
const take = SourceCounters.prototype.take;
SourceCounters.prototype.take = function (this: SourceCounters, ...args: Parameters<SourceCounters['take']>) {
  const out = take.apply(this, args);
  takes.push(out.length);
  return out;
};

async function run(machines: number): Promise<Minute[]> {
  const dir = mkdtempSync(join(tmpdir(), 'takt-ingest-work-'));
  const pgDatabase =
    DIALECT === 'postgres' ? await emptyDatabase('postgres', process.env.TAKT_BENCH_DB_PREFIX) : null;
  // PostgreSQL: the server counts the time in the plpgsql functions (the live generation's triggers among them).
  const database = openDb(
    pgDatabase
      ? `${pgDatabase.url}?options=${encodeURIComponent('-c track_functions=pl')}`
      : join(dir, 'bench.db'),
  );
  await migrateToLatest(database.db);
  // The fact tables' generation triggers of LIVE_FACTS: 0074's down gives 0072's back, 0072's down drops them.
  if (LIVE_FACTS !== '0074')
    await migrateTo(database.db, migrationBefore('2026-12-02-0074-live-generation-facts-rows'));
  if (LIVE_FACTS === 'none') await m0072.down(database.db);
  const wal: BenchWal | null =
    DIALECT === 'sqlite' ? await benchWal(database.db, join(dir, 'bench.db')) : null;
  if (DIALECT === 'sqlite') watchSqlite();
  await ensureDemoCompany(database.db, {
    portBase: PORT_BASE,
    seed: 20261122,
    machines,
    adapterFields: demoAdapterFields(),
    now: Date.now(),
  });
  await database.db.updateTable('machine_sources').set({ host: '127.0.0.1' }).execute();
  const config: AdapterHostConfig = {
    host: '127.0.0.1',
    controlPort: CONTROL_PORT,
    machines,
    sets: { bench: PORT_BASE },
    phases: [{ steps: MINUTES * 60 + 30, quiet: false }],
    stepMs: 1000,
  };
  const adapters = spawn(
    process.execPath,
    ['--import', 'tsx', 'tests/multihost/adapters.ts', JSON.stringify(config)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) =>
    adapters.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve()),
  );
  const control = `http://127.0.0.1:${CONTROL_PORT}`;
  const queries = counter();
  const batches: Array<StoredBatch & { lag: number }> = [];
  // PostgreSQL: the ingest on a pool of its own, as a node opens it; the bench's own reads on the other.
  const ingestDb = pgDatabase ? openDb(pgDatabase.url, { poolSize: POOL }) : database;
  const ingest = await startIngest({
    db: ingestDb.db.withPlugin(queries.plugin),
    sourcePolicy: { allow: [{ cidr: '127.0.0.0/8' }], ownPorts: [] },
    arrivalGapMs: ARRIVAL_GAP === 'off' ? null : Number(ARRIVAL_GAP),
    rollupAfterBatches: ROLLUP_READY,
    onStored: (count, oldest, at, times) => batches.push({ count, lag: at - oldest, oldest, at, times }),
  });
  const dbCpu = DIALECT === 'postgres' ? databaseCpu(database.db) : null;
  // TAKT_BENCH_SAMPLE=1: what the batches' backends wait on, sampled every 100 ms (decision 1238).
  const stopSampling =
    DIALECT === 'postgres' && process.env.TAKT_BENCH_SAMPLE === '1' ? sampleBackends(database.db) : null;
  try {
    for (;;) {
      const s = (await (await fetch(`${control}/status`)).json()) as {
        sets: Record<string, { peers: string[][] }>;
      };
      if (s.sets.bench!.peers.every((p) => p.length === 1)) break;
      await sleep(500);
    }
    await fetch(`${control}/start?at=${Date.now() + 2000}`, { method: 'POST' });
    await sleep(2000 + 10_000); // the first lines, the takeovers and the first rollups are not the steady state
    const minutes: Minute[] = [];
    for (let m = 0; m < MINUTES; m++) {
      batches.length = 0;
      takes.length = 0;
      resetWatch();
      shapes.clear();
      dbCpu?.take();
      const churn0 = DIALECT === 'postgres' ? await rowChurn(database.db) : null;
      const q0 = queries.count();
      const g0 = await generations(database.db);
      const f0 = DIALECT === 'postgres' ? await triggerTime(database.db) : null;
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      if (wal) {
        resetSqlite();
        wal.lines();
      }
      const cpu0 = process.cpuUsage();
      const t0 = Date.now();
      await sleep(60_000);
      const cpu = process.cpuUsage(cpu0);
      const observations = batches.reduce((n, b) => n + b.count, 0);
      const minute = {
        obsPerS: (observations * 1000) / (Date.now() - t0),
        cpuMsPer1000: (cpu.user + cpu.system) / 1000 / (observations / 1000),
        queriesPerBatch: (queries.count() - q0) / Math.max(1, batches.length),
        lagP99: pct(
          batches.map((b) => b.lag),
          99,
        ),
        dbCpuMsPer1000: dbCpu ? dbCpu.take() / (observations / 1000) : NaN,
      };
      minutes.push(minute);
      console.log(
        `  ${machines} machines, minute ${m + 1}: ${minute.obsPerS.toFixed(0)} obs/s, ` +
          `CPU ${minute.cpuMsPer1000.toFixed(1)} ms per 1,000 obs ` +
          `(${((minute.cpuMsPer1000 * minute.obsPerS) / 1000 / 10).toFixed(1)} % of a core), ` +
          `${minute.queriesPerBatch.toFixed(1)} queries per batch (${batches.length} batches), lag p99 ${minute.lagP99} ms`,
      );
      // The sources' counters (decisions 1145, 1243): of every batch (those without observations too, which onStored
      // does not see), how many wrote some, and how many rows each.
      const counted = takes.filter((n) => n > 0);
      console.log(
        `    sources' counters: written by ${counted.length} of ${takes.length} batches, ` +
          `${counted.reduce((n, c) => n + c, 0)} rows; rows a batch writing them p50/p99/max ` +
          `${pct(counted, 50)}/${pct(counted, 99)}/${Math.max(0, ...counted)}`,
      );
      // Every trigger bump of a live generation (decisions 1206, 1222): one a row on SQLite, one a statement and company
      // on PostgreSQL.
      const bumps = (await generations(database.db)) - g0;
      console.log(
        `    live generation bumps: ${bumps} (${(bumps / Math.max(1, batches.length)).toFixed(1)} a batch)`,
      );
      if (f0) {
        // Backends report their function counts at most once a second: a minute's figures are close, not exact.
        await sleep(1500);
        const f = await triggerTime(database.db);
        const calls = f.calls - f0.calls;
        const ms = f.ms - f0.ms;
        console.log(
          `    live generation trigger functions: ${calls} calls (${(calls / Math.max(1, batches.length)).toFixed(1)} a batch), ` +
            `${ms.toFixed(0)} ms of server time (${(ms / (observations / 1000)).toFixed(2)} ms per 1,000 obs)`,
        );
      }
      if (churn0) {
        // PostgreSQL's stats arrive with a delay of up to a second or so: a minute's figures are close, not exact.
        const churn = await rowChurn(database.db);
        const tables = [...churn].map(([name, c]) => {
          const c0 = churn0.get(name) ?? { upd: 0, hot: 0, dead: 0 };
          const upd = c.upd - c0.upd;
          return `${name} ${upd} updates (${upd > 0 ? (((c.hot - c0.hot) / upd) * 100).toFixed(0) : '-'} % HOT), ${c.dead} dead rows`;
        });
        console.log(
          `    database CPU ${minute.dbCpuMsPer1000.toFixed(1)} ms per 1,000 obs; ${tables.join('; ')}`,
        );
      }
      loop.disable();
      printBreakdown(batches, loop);
      if (wal)
        console.log(
          `    ${commitLine(sqliteCommits())}; ${wal.lines().join('; ')}; load ${loadavg()
            .map((x) => x.toFixed(1))
            .join(' ')}`,
        );
      printTransactions();
      if (DIALECT === 'postgres') printTail(batches, 60_000);
      console.log(
        `    load ${loadavg()
          .map((x) => x.toFixed(1))
          .join(' ')}`,
      );
      for (const [text, q] of [...shapes].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15))
        console.log(
          `    ${(q.n / Math.max(1, batches.length)).toFixed(2)} per batch, ${(q.ms / Math.max(1, batches.length)).toFixed(1)} ms per batch: ${text}`,
        );
    }
    return minutes;
  } finally {
    dbCpu?.stop();
    stopSampling?.();
    await ingest.stop();
    if (ingestDb !== database) await ingestDb.close();
    await wal?.stop();
    adapters.kill('SIGTERM');
    await database.close();
    await pgDatabase?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(
    `ingest-work: ${COUNTS.join(' and ')} machines × 1 line/s, ${MINUTES} min each, ${DIALECT}, ` +
      `arrival gap ${ARRIVAL_GAP}, ingest pool ${POOL}, rollup marks ${ROLLUP_READY ? 'after the batches' : 'beside the batches'}` +
      (DIALECT === 'sqlite' ? `, WAL ${process.env.BENCH_WAL ?? 'sqlite'}` : '') +
      `, fact triggers ${LIVE_FACTS}` +
      `; load ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
  );
  const runs = new Map<number, Minute[]>();
  for (const n of COUNTS) runs.set(n, await run(n));
  for (const [n, ms] of runs) {
    const first = ms[0]!;
    const last = ms[ms.length - 1]!;
    console.log(
      `  ${n} machines, last minute / first: CPU per 1,000 obs ${(last.cpuMsPer1000 / first.cpuMsPer1000).toFixed(2)}, ` +
        `queries per batch ${(last.queriesPerBatch / first.queriesPerBatch).toFixed(2)}, ` +
        `database CPU per 1,000 obs ${(last.dbCpuMsPer1000 / first.dbCpuMsPer1000).toFixed(2)}`,
    );
  }
  const small = Math.min(...COUNTS);
  const large = Math.max(...COUNTS);
  if (small !== large) {
    const mean = (ms: Minute[], k: keyof Minute) => ms.reduce((s, m) => s + m[k], 0) / ms.length;
    const a = runs.get(small)!;
    const b = runs.get(large)!;
    console.log(
      `  ${large} / ${small} machines: CPU per 1,000 obs ${(mean(b, 'cpuMsPer1000') / mean(a, 'cpuMsPer1000')).toFixed(2)}, ` +
        `queries per batch ${(mean(b, 'queriesPerBatch') / mean(a, 'queriesPerBatch')).toFixed(2)} ` +
        `(work per batch that follows the changes: about 1 for CPU per observation)`,
    );
  }
  if (process.env.TAKT_BENCH_TX_WINDOWS)
    writeFileSync(process.env.TAKT_BENCH_TX_WINDOWS, JSON.stringify(windows));
  process.exit(0);
}

await main();
