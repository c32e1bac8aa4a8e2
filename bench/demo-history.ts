// `npm run bench demo-history`: how long the demo plant's first start takes to make its history (issue 28
// point 1: TAKT_DEMO_DAYS of the demo's machines through the ingest engine and the floor's sync commands, under
// 60 s on a 2-core machine). Prints each phase's wall time, the process's CPU time, and the history's wall time
// as a ratio against a baseline measured in the same run (the same history over one day), so the figure
// compares across machines and loads. Not a test: it prints figures and fails only if no history is made.
//
// BENCH_DAYS (default 30), BENCH_DB: a SQLite file path (default a fresh temp file) or a PostgreSQL server URL
// (postgres://…/postgres: a fresh database is made on it and dropped after).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import {
  computeDemoRollups,
  demoAdapterFields,
  demoPlantProfile,
  planDemoHistory,
  playDemoHistory,
} from '@takt/ingest';
import { migrateToLatest, openDb } from '@takt/db';
import { demoMachinePrograms, makeDemoHistory } from '../services/api/src/demo-history';
import { inProcessBus } from '../services/api/src/live/bus';
import { ensureDemoCompany } from '../services/api/src/provision';

const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const SERVER = process.env.BENCH_DB ?? '';
const NOW = Date.UTC(2026, 10, 18, 19, 30);

/** The fresh databases not dropped yet: a run stopped by a signal drops them too. */
const pending = new Set<() => Promise<void>>();
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void Promise.allSettled([...pending].map((drop) => drop())).then(() => process.exit(130));
  });

/** A fresh database: a temp SQLite file, or a new database on the PostgreSQL server. */
async function freshDatabase(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!SERVER.startsWith('postgres')) {
    const dir = mkdtempSync(join(tmpdir(), 'takt-bench-demo-'));
    return { url: join(dir, 'takt.db'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  const db = `bench_demo_${name}_${process.pid}`;
  await admin.query(`CREATE DATABASE ${db}`);
  await admin.end();
  const url = new URL(SERVER);
  url.pathname = `/${db}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: SERVER });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      await c.end();
    },
  };
}

const cpuSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return ((used.user + used.system) / 1e6).toFixed(1);
};

/** One first start's history of `days`: its wall time, CPU time and phase lines. */
async function history(days: number, name: string) {
  const fresh = await freshDatabase(name);
  const database = openDb(fresh.url);
  const drop = async () => {
    pending.delete(drop);
    await database.close().catch(() => {});
    await fresh.drop();
  };
  pending.add(drop);
  try {
    await migrateToLatest(database.db);
    const machines = await ensureDemoCompany(database.db, {
      portBase: 7000,
      seed: 20261122,
      adapterFields: demoAdapterFields(),
      now: NOW,
    });
    const programs = await demoMachinePrograms(
      database.db,
      machines.map((m) => m.machineId),
    );
    const profiled = machines.map((m) => {
      const list = programs.get(m.machineId) ?? [];
      return { ...m, ...(list.length > 0 ? { profile: demoPlantProfile(list) } : {}) };
    });
    const said: string[] = [];
    const cpu = process.cpuUsage();
    const started = performance.now();
    const resume = await makeDemoHistory(database.db, {
      days,
      // The history ends at NOW; its progress is timed by the real clock.
      now: () => NOW + Math.round(performance.now() - started),
      bus: inProcessBus(),
      machines: profiled,
      programs,
      engine: { plan: planDemoHistory, play: playDemoHistory, rollups: computeDemoRollups },
      // Each progress line with the CPU time used so far (the machine may be shared: wall time alone misleads).
      say: (m) => said.push(`${m} [${cpuSince(cpu)} s CPU]`),
    });
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (resume.size === 0) throw new Error('no machine got a history');
    return { wallMs, cpuMs: (used.user + used.system) / 1000, said, machines: machines.length };
  } finally {
    await drop();
  }
}

const dialect = SERVER.startsWith('postgres') ? 'postgres' : 'sqlite';
console.log(`demo history bench on ${dialect}: ${DAYS} days`);
const baseline = await history(1, 'baseline');
console.log(
  `  baseline, 1 day of ${baseline.machines} machines: ${(baseline.wallMs / 1000).toFixed(1)} s wall, ${(baseline.cpuMs / 1000).toFixed(1)} s CPU`,
);
const run = await history(DAYS, 'history');
for (const line of run.said) console.log(`  ${line}`);
console.log(
  `  ${DAYS} days of ${run.machines} machines: ${(run.wallMs / 1000).toFixed(1)} s wall, ${(run.cpuMs / 1000).toFixed(1)} s CPU` +
    ` (${(run.wallMs / baseline.wallMs).toFixed(1)}× the 1-day baseline; under 60 s asked on 2 cores)`,
);
