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
//   must be equal); BENCH_ROLLUPS=0: no stored rollups (else the worker's rows computed 2 s before now);
//   BENCH_QUERIES=1: every query of the traced answer with its parameters' size; BENCH_INGEST=n: n machines of
//   another company ingest one line a second each throughout (bench/support/live-ingest.ts); BENCH_LIVE=s: then
//   rounds of s seconds under live data with shared answers off and on alternated (bench/support/dashboard-live.ts),
//   BENCH_LIVE_CLIENTS (1,5) pollers, BENCH_LIVE_PAIRS (2) pairs of rounds. The calls above those rounds compute
//   every answer (shared answers off, decision 1200). BENCH_INGEST_PROCESS=1: the BENCH_INGEST machines ingest in a
//   process of their own on the same database (bench/support/ingest-process.ts), so the bench answers as an API-only
//   node of the cluster does; BENCH_INGEST_PROCESS=both: then rounds of BENCH_CALLS answers with the ingest in the
//   bench's process and in another alternated (ABBA, BENCH_INGEST_PAIRS (2) pairs), each against GET /api/me.
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { LogEvent } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { companyScope, sqliteFilePath } from '@takt/db';
import type { Database, DialectName } from '@takt/db';
import type { DashboardResponse } from '@takt/domain';
import { liveDataVersion } from '@takt/db/rollups';
import { apiHarness } from '../services/api/src/testing/app';
import { aPlant, NOW } from './support/dashboard-plant';
import { liveRounds } from './support/dashboard-live';
import { liveIngest } from './support/live-ingest';
import { nodeApi } from './support/node-api';
import { liveIngestProcess } from './support/ingest-process';
import { ingestRounds } from './support/ingest-rounds';
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
const EXPLAIN = Number(process.env.BENCH_EXPLAIN ?? 0);
/** BENCH_QUERIES=1: every query of the traced answer, with the size of its parameters. */
const QUERIES = process.env.BENCH_QUERIES === '1';
const INGEST = Number(process.env.BENCH_INGEST ?? 0);
const LIVE = Number(process.env.BENCH_LIVE ?? 0);
const LIVE_CLIENTS = (process.env.BENCH_LIVE_CLIENTS ?? '1,5').split(',').map(Number);
const LIVE_PAIRS = Number(process.env.BENCH_LIVE_PAIRS ?? 2);
const INGEST_PROCESS = process.env.BENCH_INGEST_PROCESS ?? '0';
const INGEST_PAIRS = Number(process.env.BENCH_INGEST_PAIRS ?? 2);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

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
  const seed = await apiHarness(dialect, NOW, { dashboardAnswers: null });
  let stopIngest: (() => Promise<unknown>) | null = null;
  let node: ReturnType<typeof nodeApi> | null = null;
  try {
    const t0 = performance.now();
    const { scope, cookie } = await aPlant(seed, machines);
    const seedMs = performance.now() - t0;
    // Served, and its ingest started, on the database handles a node opens (bench/support/node-api.ts).
    node = nodeApi(seed, NOW, { dashboardAnswers: null });
    const h = node.api;
    if (INGEST > 0 && INGEST_PROCESS !== 'both')
      stopIngest =
        INGEST_PROCESS === '1' ? await liveIngestProcess(h.t.url, INGEST) : await liveIngest(node, INGEST);
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
        ["liveDataVersion (the shared answer's key)", () => liveDataVersion(scope, NOW)],
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
    if (INGEST > 0 && INGEST_PROCESS === 'both') {
      const rounds = await ingestRounds(node, h.t.url, get, {
        count: INGEST,
        pairs: INGEST_PAIRS,
        calls: CALLS,
      });
      console.log(
        `  ${INGEST} machines of another company ingesting, in this process (a single node) and in another (an API-only node), ${CALLS} answers a round, ABBA:`,
      );
      const of = (other: boolean) => rounds.filter((x) => x.other === other);
      const sum = (other: boolean) => {
        const xs = of(other);
        const ms = xs.flatMap((x) => x.answerMs);
        const me = xs.flatMap((x) => x.meMs);
        return { p50: pct(ms, 50), p90: pct(ms, 90), me: pct(me, 50), cpu: xs.map((x) => x.cpuPerAnswer) };
      };
      for (const x of rounds)
        console.log(
          `    ${x.other ? 'other process' : 'same process '} load ${x.load.toFixed(1).padStart(5)}: answer p50 ${f(pct(x.answerMs, 50))} p90 ${f(pct(x.answerMs, 90))}, GET /api/me p50 ${f(pct(x.meMs, 50))}, this process's CPU ${f(x.cpuPerAnswer)} an answer`,
        );
      const [same, other] = [sum(false), sum(true)];
      console.log(
        `    other / same process: answer p50 ${(other.p50 / same.p50).toFixed(2)}x, p90 ${(other.p90 / same.p90).toFixed(2)}x; GET /api/me p50 ${(other.me / same.me).toFixed(2)}x`,
      );
    }
    if (LIVE > 0) {
      const rounds = await liveRounds(h, scope, cookie, {
        seconds: LIVE,
        clients: LIVE_CLIENTS,
        pairs: LIVE_PAIRS,
      });
      console.log(
        `  under live data (${LIVE} s rounds, off and on alternated; ${INGEST} machines of another company ingesting):`,
      );
      for (const clients of LIVE_CLIENTS) {
        const of = (shared: boolean) => rounds.filter((x) => x.clients === clients && x.shared === shared);
        const [off, on] = [of(false), of(true)].map((xs) => ({
          ms: xs.flatMap((x) => x.answerMs),
          calls: xs.reduce((t, x) => t + x.calls, 0),
          computed: xs.reduce((t, x) => t + x.computed, 0),
        }));
        for (const [name, x] of [
          ['shared off', off!],
          ['shared on', on!],
        ] as const)
          console.log(
            `    ${clients} poller(s), ${name.padEnd(10)} ${String(x.calls).padStart(5)} calls, ${String(x.computed).padStart(5)} computed: p50 ${f(pct(x.ms, 50))}  p90 ${f(pct(x.ms, 90))}  p99 ${f(pct(x.ms, 99))}`,
          );
        console.log(
          `    ${clients} poller(s), on / off: p50 ${(pct(on!.ms, 50) / pct(off!.ms, 50)).toFixed(2)}x  p99 ${(pct(on!.ms, 99) / pct(off!.ms, 99)).toFixed(2)}x`,
        );
      }
    }
  } finally {
    if (stopIngest) await stopIngest();
    await node?.api.close();
    await seed.close();
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
