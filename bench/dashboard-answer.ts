// The dashboard answer at plant scale (issue 30 point 1, decision 1146): GET /api/dashboard through app.request on
// the demo plant of the soak (ensureDemoCompany: its groups, adapter, sources, shifts, jobs and reasons) with
// `machines` machines, each with a live row, a day of states, raw rows, cycles and 60 job runs of history; a third
// of them running a job, a third with a stopped one; the machines in downtime half of them categorized. On SQLite
// and on PostgreSQL. The time of an answer is printed beside GET /api/me measured in the same run (the baseline),
// with the parts of an answer (each read alone) and its queries one at a time, so one sees where the time goes.
// Not a test: figures only.
// Run: npx tsx bench/dashboard-answer.ts [machines=100,1000] [sqlite|postgres|both]
//   BENCH_CALLS=n: calls of each kind (30); BENCH_PROFILE=dir: a CPU profile of 20 answers, written to dir;
//   BENCH_EXPLAIN=n (PostgreSQL): EXPLAIN ANALYZE of the n slowest queries of the traced answer;
//   BENCH_BEFORE=dir: a checkout of an earlier commit, its dashboard service timed beside this one (the answers
//   must be equal); BENCH_ROLLUPS=0: no stored rollups (else the worker's rows computed 2 s before now).
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { LogEvent } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CONNECTION_KEY, companyScope, sqliteFilePath } from '@takt/db';
import { recomputeRollups } from '@takt/db/rollups';
import type { CompanyScope, Database, DialectName } from '@takt/db';
import type { DashboardResponse } from '@takt/domain';
import { DEMO_LOGINS, ensureDemoCompany } from '@takt/api';
import { demoAdapterFields } from '@takt/ingest';
import { apiHarness } from '../services/api/src/testing/app';
import type { ApiHarness } from '../services/api/src/testing/app';
import { dashboard, dashboardTiles } from '../services/api/src/services/dashboard';
// Namespaces: the bench also runs on a checkout from before decision 1146 (no goals, no company reads), and
// then prints the answers and their queries only.
import * as figures from '../services/api/src/services/dashboard-figures';
import * as repository from '../services/api/src/repositories/dashboard';
import * as connections from '../services/api/src/repositories/machine-connection';
import { listGroups, listMachines } from '../services/api/src/repositories/machines';
import { HeldSums } from '../services/api/src/services/held-sums';

const SIZES = (process.argv[2] ?? '100,1000').split(',').map(Number);
const WHICH = process.argv[3] ?? 'both';
const DIALECTS: DialectName[] = WHICH === 'both' ? ['sqlite', 'postgres'] : [WHICH as DialectName];
const CALLS = Number(process.env.BENCH_CALLS ?? 30);
const PROFILE = process.env.BENCH_PROFILE;
const BEFORE = process.env.BENCH_BEFORE;
const NOW = 1_763_800_000_000; // 2025-11-22 02:26 in Chicago: the third shift's window began at 22:00
const MIN = 60_000;
const HOUR = 60 * MIN;
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;
const ROLLUPS = process.env.BENCH_ROLLUPS !== '0';
const ROLLUPS_AGO = 2000;
const EXPLAIN = Number(process.env.BENCH_EXPLAIN ?? 0);
/** BENCH_QUERIES=1: every query of the traced answer, with the size of its parameters. */
const QUERIES = process.env.BENCH_QUERIES === '1';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** Rows in slices, so PostgreSQL's parameter limit is never reached. */
async function insertAll<T>(rows: readonly T[], each: number, put: (slice: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += each) await put(rows.slice(i, i + each));
}

type State = 'ACTIVE' | 'INACTIVE' | 'FAULT' | 'UNAVAILABLE';
/** Machine i's state now: 60 % running, the rest idle, faulted or without data. */
const stateNow = (i: number): State =>
  i % 20 < 12 ? 'ACTIVE' : i % 20 < 16 ? 'INACTIVE' : i % 20 < 19 ? 'FAULT' : 'UNAVAILABLE';

/** A day of states: ACTIVE and a downtime in turn, 10–25 min each, the last one open in the state of now. */
function dayOfStates(i: number): Array<{ start: number; end: number | null; state: State }> {
  const out: Array<{ start: number; end: number | null; state: State }> = [];
  let t = NOW - 24 * HOUR;
  for (let j = 0; ; j++) {
    const end = t + (10 + ((i * 7 + j * 13) % 16)) * MIN;
    const state: State =
      end >= NOW ? stateNow(i) : j % 2 === 0 ? 'ACTIVE' : (i + j) % 3 ? 'INACTIVE' : 'FAULT';
    const last = out[out.length - 1];
    if (last && last.state === state) last.end = end >= NOW ? null : end;
    else out.push({ start: t, end: end >= NOW ? null : end, state });
    if (end >= NOW) return out;
    t = end;
  }
}

/** The soak's plant with its live data (see the head of the file). */
async function aPlant(h: ApiHarness, machines: number): Promise<{ scope: CompanyScope; cookie: string }> {
  const db = h.t.db;
  const plant = await ensureDemoCompany(db, {
    portBase: 40_000,
    seed: 1,
    machines,
    adapterFields: demoAdapterFields(),
    now: NOW - 30 * 24 * HOUR,
  });
  const { company_id } = await db
    .selectFrom('machines')
    .select('company_id')
    .where('id', '=', plant[0]!.machineId)
    .executeTakeFirstOrThrow();
  const scope = companyScope(db, company_id);
  const [jobs, reasons] = await Promise.all([
    scope.selectFrom('jobs').select(['id', 'expected_cycle_time']).execute(),
    scope.selectFrom('annotation_types').select('id').execute(),
  ]);
  const ids = plant.map((p) => p.machineId);
  const states = ids.map((_, i) => dayOfStates(i));
  await insertAll(
    ids.flatMap((id, i) =>
      states[i]!.map((s) => ({ machine_id: id, start_at: s.start, end_at: s.end, state: s.state })),
    ),
    2000,
    (rows) => scope.insertInto('state_intervals', rows).execute(),
  );
  await insertAll(
    ids.map((id, i) => {
      const now = states[i]!.at(-1)!;
      return {
        machine_id: id,
        state: now.state,
        state_since: now.start,
        connection: now.state === 'UNAVAILABLE' ? 'DISCONNECTED' : 'CONNECTED',
        connection_since: NOW - 24 * HOUR,
        last_heartbeat: NOW - 1000,
        execution: now.state === 'ACTIVE' ? 'ACTIVE' : now.state === 'FAULT' ? 'INTERRUPTED' : 'READY',
        execution_since: now.start,
        availability: now.state === 'UNAVAILABLE' ? 'UNAVAILABLE' : 'AVAILABLE',
        controller_mode: 'AUTOMATIC',
        program: `O${1000 + i}`,
        part_count: 100 + i,
        spindle_speed: now.state === 'ACTIVE' ? 1200 : 0,
        fault_since: now.state === 'FAULT' ? now.start : null,
        fault_message: now.state === 'FAULT' ? 'Spindle overload' : null,
        in_setup: 0,
        updated_at: NOW - 500,
      };
    }),
    500,
    (rows) => scope.insertInto('machine_live', rows).execute(),
  );
  // Raw rows as ingest stores them: the link log and two data items, so every machine has reported.
  await insertAll(
    ids.flatMap((id) =>
      [
        [NOW - 24 * HOUR, CONNECTION_KEY, 'CONNECTED'],
        [NOW - 24 * HOUR + 1000, 'execution', 'ACTIVE'],
        [NOW - 1000, 'part_count', '100'],
      ].map(([ts, key, value]) => ({
        company_id: scope.companyId,
        machine_id: id,
        ts: ts as number,
        key: key as string,
        value: value as string,
      })),
    ),
    2000,
    (rows) => db.insertInto('observations').values(rows).execute(),
  );
  // A part every 2 min while ACTIVE over the last 8 hours.
  await insertAll(
    ids.flatMap((id, i) =>
      states[i]!.filter((s) => s.state === 'ACTIVE' && (s.end ?? NOW) > NOW - 8 * HOUR).flatMap((s) => {
        const from = Math.max(s.start, NOW - 8 * HOUR);
        const n = Math.floor(((s.end ?? NOW) - from) / (2 * MIN));
        return Array.from({ length: n }, (_, k) => ({
          machine_id: id,
          start_at: from + k * 2 * MIN,
          end_at: from + (k + 1) * 2 * MIN,
          duration: 2 * MIN,
          count: 1,
          source: 'part_count',
          setup: 0,
        }));
      }),
    ),
    2000,
    (rows) => scope.insertInto('cycles', rows).execute(),
  );
  // A third run a job since 1–6 hours ago; a third stopped one an hour ago (the tile's paused job).
  const runs = ids.flatMap((id, i) => {
    if (i % 3 === 2) return [];
    const job = jobs[i % jobs.length]!;
    const start = NOW - (1 + (i % 6)) * HOUR;
    return [
      {
        id: crypto.randomUUID(),
        machine_id: id,
        job_id: job.id,
        job_machine_id: null,
        start_at: i % 3 === 0 ? start : start - 5 * HOUR,
        end_at: i % 3 === 0 ? null : NOW - HOUR,
        setup_mode: 'none' as const,
        setup_end: start,
        expected_cycle_time: job.expected_cycle_time,
        ideal_cycle_time: job.expected_cycle_time,
        part_count_multiplier: 1,
        actual_parts: 1,
        reported_parts: null,
        required_cycles: null,
        part_behavior: 'one' as const,
        expected_setup_ms: null,
        setup_note: null,
        created_at: start,
      },
    ];
  });
  // And a history: two 8-hour runs a day over the 30 days before (a plant's job runs grow with its age).
  const history = ids.flatMap((id, i) =>
    Array.from({ length: 60 }, (_, k) => {
      const start = NOW - 31 * 24 * HOUR + k * 12 * HOUR;
      return {
        ...runs[0]!,
        id: crypto.randomUUID(),
        machine_id: id,
        job_id: jobs[(i + k) % jobs.length]!.id,
        start_at: start,
        setup_end: start,
        end_at: start + 8 * HOUR,
        created_at: start,
      };
    }),
  );
  await insertAll([...history, ...runs], 500, (rows) => scope.insertInto('job_runs', rows).execute());
  // Half of the downtimes of the day categorized, the current one included.
  await insertAll(
    ids.flatMap((id, i) =>
      states[i]!.filter((s, j) => s.state !== 'ACTIVE' && (i + j) % 2 === 0).map((s, j) => ({
        id: crypto.randomUUID(),
        machine_id: id,
        annotation_type_id: reasons[(i + j) % reasons.length]!.id,
        start_at: s.start,
        end_at: null,
        message: null,
        planned: null,
        setup: 0,
        active_setup: 0,
        created_by: null,
        created_at: s.start,
        updated_at: s.start,
      })),
    ),
    1000,
    (rows) => scope.insertInto('annotations', rows).execute(),
  );
  // Decision 1155: the rollup worker's rows as it leaves them, computed ROLLUPS_AGO before the answers' now, so a
  // goal reads its stored hours and a fresh tail (BENCH_ROLLUPS=0: none stored, every goal from the facts).
  if (ROLLUPS)
    for (const id of ids)
      await recomputeRollups(db, {
        companyId: company_id,
        machineId: id,
        from: NOW - 36 * HOUR,
        to: NOW - ROLLUPS_AGO,
        now: NOW - ROLLUPS_AGO,
      });
  if (h.t.dialect === 'postgres') await sql`analyze`.execute(db);
  return { scope, cookie: await h.login(admin.email, admin.password) };
}

/**
 * A second handle on the same database, of one connection, that logs each query's time: the queries of an
 * answer one at a time, so each time is the query's own (in the pool they overlap).
 */
function loggingDb(
  url: string,
  dialect: DialectName,
  log: Array<{ ms: number; sql: string; parameters: readonly unknown[] }>,
): Kysely<Database> {
  const onLog = (e: LogEvent) => {
    log.push({
      ms: e.queryDurationMillis,
      sql: e.query.sql.replace(/\s+/g, ' '),
      parameters: e.query.parameters,
    });
  };
  return dialect === 'postgres'
    ? new Kysely<Database>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
        log: onLog,
      })
    : new Kysely<Database>({
        dialect: new SqliteDialect({ database: new SQLite(sqliteFilePath(url)) }),
        log: onLog,
      });
}

async function timed(f: () => Promise<unknown>, n = CALLS): Promise<number[]> {
  for (let i = 0; i < 3; i++) await f(); // warm
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await f();
    xs.push(performance.now() - t0);
  }
  return xs;
}

async function bench(dialect: DialectName, machines: number) {
  const h = await apiHarness(dialect, NOW);
  try {
    const t0 = performance.now();
    const { scope, cookie } = await aPlant(h, machines);
    const seedMs = performance.now() - t0;
    const get = async (path: string) => {
      const res = await h.get(path, cookie);
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text}`);
      return text;
    };
    const answer = JSON.parse(await get('/api/dashboard')) as DashboardResponse;
    const tiles = answer.machines;
    const group = answer.groups[0]!;
    const shown = {
      scheduled: tiles.filter((t) => t.scheduled).length,
      reasons: tiles.filter((t) => t.downtime_reason != null).length,
      paused: tiles.filter((t) => t.pausedJobName != null).length,
      active: tiles.filter((t) => t.status === 'ACTIVE').length,
    };
    if (PROFILE) {
      const session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      for (let i = 0; i < 20; i++) await get('/api/dashboard');
      const { profile } = await session.post('Profiler.stop');
      const file = `${PROFILE}/dashboard-answer-${dialect}-${machines}.cpuprofile`;
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
      console.log(`profile of 20 answers: ${file}`);
    }
    // The calls, interleaved so the load of the moment falls on each alike.
    const me: number[] = [];
    const all: number[] = [];
    const one: number[] = [];
    for (let i = 0; i < 3; i++) await Promise.all([get('/api/me'), get('/api/dashboard')]);
    for (let i = 0; i < CALLS; i++) {
      for (const [xs, path] of [
        [me, '/api/me'],
        [all, '/api/dashboard'],
        [one, `/api/dashboard?group=${group.id}`],
      ] as const) {
        const a = performance.now();
        await get(path);
        xs.push(performance.now() - a);
      }
    }
    // The parts of an answer, each alone.
    const ms = await listMachines(scope);
    const ids = ms.map((m) => m.id);
    // The held rows' sums kept between answers, as an API process keeps them (decision 1191).
    const sums = new HeldSums();
    const parts: Array<[string, () => Promise<unknown>]> = [];
    if ('dashboardGoals' in figures) {
      const { currentDowntimeReasons, dashboardFigures, dashboardGoals, figuresContext } = figures;
      const { companyOpenRuns, lastStoppedJobNames } = repository;
      const runs = await companyOpenRuns(scope);
      const context = await figuresContext(scope);
      const notActive = tiles.filter((t) => t.status !== 'ACTIVE').map((t) => t.id);
      const scheduled = ids.filter((id) => runs.has(id));
      parts.push(
        ['listMachines', () => listMachines(scope)],
        ['listGroups', () => listGroups(scope)],
        [
          'companyLiveConnections (live rows + facts)',
          () => connections.companyLiveConnections(scope, undefined),
        ],
        ['companyOpenRuns', () => companyOpenRuns(scope)],
        ['figuresContext (calendar, percents)', () => figuresContext(scope)],
        [
          `dashboardGoals (${runs.size} scheduled)`,
          () => dashboardGoals(scope, scheduled, runs, NOW, context, sums),
        ],
        [`currentDowntimeReasons (${notActive.length})`, () => currentDowntimeReasons(scope, notActive, NOW)],
        [
          'lastStoppedJobNames',
          () =>
            lastStoppedJobNames(
              scope,
              ids.filter((id) => !runs.has(id)),
            ),
        ],
        ['dashboard (service, no HTTP)', () => dashboard(scope, undefined, NOW, true, sums)],
        ['JSON.stringify of the answer', async () => JSON.stringify(answer)],
        [
          `for comparison: dashboardFigures (utilization too)`,
          () => dashboardFigures(scope, scheduled, NOW, runs),
        ],
        ['for comparison: dashboardTiles (by ids)', () => dashboardTiles(scope, ms, NOW, true)],
      );
    }
    // BENCH_BEFORE=<a checkout of an earlier commit>: its dashboard service beside this one on the same
    // database, the calls interleaved, so the ratio of the two holds whatever the load of the moment.
    let versus: { before: number[]; after: number[] } | null = null;
    if (BEFORE) {
      const earlier = (await import(`${BEFORE}/services/api/src/services/dashboard.ts`)) as {
        dashboard: typeof dashboard;
      };
      versus = { before: [], after: [] };
      for (let i = 0; i < 3; i++) {
        const was = JSON.stringify(await earlier.dashboard(scope, undefined, NOW, true));
        const is = JSON.stringify(await dashboard(scope, undefined, NOW, true, sums));
        if (was !== is) throw new Error(`the answer differs from ${BEFORE}'s`);
      }
      for (let i = 0; i < CALLS; i++) {
        let a = performance.now();
        await earlier.dashboard(scope, undefined, NOW, true);
        versus.before.push(performance.now() - a);
        a = performance.now();
        await dashboard(scope, undefined, NOW, true, sums);
        versus.after.push(performance.now() - a);
      }
    }
    const partMs: Array<[string, number]> = [];
    for (const [name, f] of parts) partMs.push([name, pct(await timed(f, 10), 50)]);
    // The queries of one answer (after the warm answers above), one at a time.
    const log: Array<{ ms: number; sql: string; parameters: readonly unknown[] }> = [];
    const logging = loggingDb(h.t.url, dialect, log);
    const traced = companyScope(logging, scope.companyId);
    await dashboard(traced, undefined, NOW, true, sums);
    log.length = 0;
    const tracedAt = performance.now();
    await dashboard(traced, undefined, NOW, true, sums);
    const tracedMs = performance.now() - tracedAt;
    await logging.destroy();
    const base = pct(me, 50);
    const f = (x: number) => `${x.toFixed(1).padStart(7)} ms`;
    const r = (x: number) => `${(x / base).toFixed(2).padStart(6)}x`;
    console.log(
      `\n${dialect}, ${tiles.length} tiles (${shown.active} active, ${shown.scheduled} scheduled, ${shown.reasons} with a downtime reason, ${shown.paused} with a paused job), ${(JSON.stringify(answer).length / 1024).toFixed(0)} KiB; seeded in ${(seedMs / 1000).toFixed(1)} s; ${CALLS} calls each; GET /api/me = 1`,
    );
    console.log(`  ${'GET /api/me (baseline)'.padEnd(44)} p50 ${f(base)}`);
    for (const [name, xs] of [
      ['GET /api/dashboard', all],
      [`GET /api/dashboard?group= (${group.name})`, one],
    ] as const)
      console.log(
        `  ${name.padEnd(44)} p50 ${f(pct(xs, 50))} ${r(pct(xs, 50))}   p90 ${f(pct(xs, 90))} ${r(pct(xs, 90))}`,
      );
    if (versus) {
      const [b50, a50, b90, a90] = [
        pct(versus.before, 50),
        pct(versus.after, 50),
        pct(versus.before, 90),
        pct(versus.after, 90),
      ];
      console.log(
        `  dashboard service, ${BEFORE} against this checkout, interleaved: p50 ${f(b50)} → ${f(a50)} (${(a50 / b50).toFixed(2)}x), p90 ${f(b90)} → ${f(a90)} (${(a90 / b90).toFixed(2)}x)`,
      );
    }
    console.log('  parts of an answer, each alone (p50 of 10):');
    for (const [name, x] of partMs) console.log(`    ${name.padEnd(42)} ${f(x)} ${r(x)}`);
    const inQueries = log.reduce((t, q) => t + q.ms, 0);
    console.log(
      `  one answer on one connection: ${f(tracedMs).trim()}, of which ${log.length} queries ${f(inQueries).trim()}; the slowest:`,
    );
    for (const q of [...log].sort((a, b) => b.ms - a.ms).slice(0, QUERIES ? log.length : 8))
      console.log(
        `    ${f(q.ms)}  ${QUERIES ? `${JSON.stringify(q.parameters).length}B `.padStart(9) : ''}${q.sql.slice(0, QUERIES ? 200 : 110)}`,
      );
    if (EXPLAIN > 0 && dialect === 'postgres') {
      const client = new pg.Client({ connectionString: h.t.url });
      await client.connect();
      try {
        for (const q of [...log].sort((a, b) => b.ms - a.ms).slice(0, EXPLAIN)) {
          const plan = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${q.sql}`, [
            ...q.parameters,
          ]);
          console.log(`\n  EXPLAIN ANALYZE (${q.ms.toFixed(1)} ms traced): ${q.sql.slice(0, 300)}`);
          for (const r of plan.rows) console.log(`    ${r['QUERY PLAN']}`);
        }
      } finally {
        await client.end();
      }
    }
  } finally {
    await h.close();
  }
}

const { stdout } = await import('node:process');
stdout.write(
  `load average ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}\n`,
);
for (const d of DIALECTS) for (const n of SIZES) await bench(d, n);
stdout.write(
  `load average ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}\n`,
);
