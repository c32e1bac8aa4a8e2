// `npm run bench report-load`: issue 30 point 2 under load. A company with 100 machines × 1 year of stored
// rollups (bench/support/year-of-rollups.ts) and 40-odd days of state intervals (what the downtime report reads),
// served over real HTTP (@hono/node-server on a loopback port, as main.ts serves). A client process runs the
// report mix (OEE waterfall, utilization, production by machine × interval, downtime; quick links and
// arbitrary ranges with edges mid-hour) first with one client, each request once (the baseline), then with
// CLIENTS concurrent clients each running the whole mix (or a random part of it) in its own order. Both are
// run twice: with shared answers off (every call computed) and on (decision 1148; the cache emptied before
// each part). The API's clock runs in real time from 18:43 on the last stored day and never goes back (decision
// 1211), so a range reaching now is shared for a second only. The rows over the states' days (60 for 100 × 120) are
// the product's recompute of those states (bench/support/report-mix.ts `aReportPlant`), so the downtime report reads
// its stored figures as on a plant. With INGEST > 0, that many machines of another company send one SHDR line a
// second each to loopback adapters that the ingest worker (with its rollup worker) reads in the
// same process as the API, as a single node runs (the plant's load alongside; the report company's figures stay
// put). The plant is seeded on the test harness's handle; the API is then served, and the ingest started, on the
// database handles main.ts opens (bench/support/node-api.ts: on SQLite the node's WAL checkpointer thread and
// connection options, decisions 1229 and 1230; on PostgreSQL the node's API pool of 10 and its DATABASE_URL).
// Printed: p50 and p99 per report and overall, as ratios against the single client's p50 without sharing in
// the same run, and whether the p99 under load met the 500 ms aim; the answers kept after the shared part and their
// size (with NODE_OPTIONS=--expose-gc, the heap they hold); for each CLIENTS-client part, when its first calls reached the
// API's handler, counted from the client's first sends (its clock given with its latencies), and the API's loop held
// over 50 ms at a time (a 10 ms timer's late turns: the batches of calls it ran between two polls). Not a test:
// figures only.
// BENCH_INGEST_THREAD (decision 1226): the ingest as the node runs it (services/api node-ingest.ts), in a worker thread
// of this process (default, 1), in its event loop (0), or both alternated (`both`, BENCH_PAIRS pairs, default 2: loop,
// thread, loop, thread on the same plant), printing each pair's ratios. BENCH_SHARED=on|off runs only that part.
// The node's report threads (decision 1253) as main.ts starts them: TAKT_REPORT_THREADS (unset: none, the loop); a
// `threads` variant with it unset starts 2.
// BENCH_VARIANTS=hold,… (decisions 1237, 1239, 1244, 1253, 1259): rounds that alternate the hold of a build from the facts (ms; '-': BUILD_HOLD_MS), prepared / plain statements on PostgreSQL, the reports computed in the node's `threads` / the API's `loop`, or computations taking `turns` / started `inline` where asked, BENCH_PAIRS times (default 2), the ingest in its thread; each
// variant's p50 and p99 are printed against the first's of the same cycle (ABAB), with the load at each round's end.
// BENCH_TEXTS=1 prints the API's statements of each CLIENTS-client part by their summed time (SQLite: with the loop's
// lines).
// BENCH_WATCH=off (decision 1255): none of the bench's own instruments in the server (the statements' timing wrappers
// and the AsyncLocalStorage that tells the API's calls apart, whose promise hooks cost every promise of the loop):
// the product's loop alone, without the statement and loop-delay lines.
// BENCH_TRACE_GC=1 prints V8's line for each collection of the server side. BENCH_PROFILE=dir writes a CPU profile of the server side (this process: API and ingest) during each
// CLIENTS-client part (the client process is not profiled). SQLite: the node's checkpointer's passes are printed with
// the loop's lines.
// Run: npx tsx bench/report-load.ts [machines=100] [days=365] [clients=20] [sqlite|postgres] [requests a client]
//   [ingest machines=0]
//   (the client side: bench/support/report-client.ts)
import { setFlagsFromString } from 'node:v8';
import { performance as loop } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { DialectName } from '@takt/db';
import { usePreparedStatements } from '@takt/db';
import { keptReadTallies } from '@takt/db/rollups';
import {
  SHARED_ANSWER_BUDGET,
  sharedAnswersKept,
  useSharedAnswers,
} from '../services/api/src/services/report-shared';
import { useBuildHold } from '../services/api/src/services/report-facts';
import { serveApi } from '../services/api/src/http/serve';
import { useReportTurns } from '../services/api/src/services/report-turns';
import { useReportThreads } from '../services/api/src/services/report-threads';
import { apiHarness } from '../services/api/src/testing/app';
import { ingestPlant } from './support/live-ingest';
import {
  asApi,
  keepTexts,
  keptTimes,
  resetTallies,
  sampleServer,
  tallyLines,
  watchPools,
} from './support/pool-watch';
import { aReportPlant } from './support/report-mix';
import { resetSqlite, schedstat, sqliteLines, watchSqlite } from './support/sqlite-watch';
import { nodeApi } from './support/node-api';
import { passLines } from './support/wal-mode';
import { pct, runClients } from './support/report-client-run';
import { coreSharesLine, coreSnapshot } from './support/core-shares';
import { COLD, SHARING, TEXTS, VARIANTS, WARM_MS, warmthLine } from './support/report-load-settings';
import type { Call } from './support/report-client';

type Lat = Call[];
type Run = { shared: boolean; base: Lat; load: Lat; pool: string[] };

async function main() {
  // BENCH_TRACE_GC=1: V8's line for every collection of this process (API and ingest thread) on stdout, its children
  // (adapters, clients) untouched: a pause of the loop shows with its heap sizes.
  if (process.env.BENCH_TRACE_GC === '1') setFlagsFromString('--trace-gc');
  const MACHINES = Number(process.argv[2] ?? 100);
  const DAYS = Number(process.argv[3] ?? 365);
  const CLIENTS = Number(process.argv[4] ?? 20);
  const DIALECT = (process.argv[5] ?? 'sqlite') as DialectName;
  /** Requests each of the concurrent clients sends (a random part of the mix; default all of it). */
  const PER_CLIENT = Number(process.argv[6] ?? 1e9);
  /** Machines of another company ingesting one line a second each while the reports run. */
  const INGEST = Number(process.argv[7] ?? 0);
  // Now is 18:43 on the last stored day: the rows hold up to now (computed then), the day is partial; the last
  // 40-odd days' rows recomputed from their state intervals (a change every 20 minutes on average).
  /** BENCH_PROFILE=dir: a CPU profile of this process (API + ingest) during each part with CLIENTS clients. */
  const PROFILE = process.env.BENCH_PROFILE;
  const seed = await apiHarness(DIALECT, 0);
  const { plant, now, reqs, statesFrom, counts, factsMs, recomputeMs } = await aReportPlant(
    seed,
    MACHINES,
    DAYS,
  );
  // As the node runs from here on: its handles (the seed above ran on the test harness's).
  if (VARIANTS.some((v) => v.threads) && !process.env.TAKT_REPORT_THREADS)
    process.env.TAKT_REPORT_THREADS = '2';
  const node = nodeApi(seed, now);
  const h = node.api;
  // The node's report threads (decision 1253) ready before the first call, as on a node that has run a while.
  await node.reports?.started();
  const threads = node.reports ? node.reports.ready().length : 0;
  const checkpointer = node.databases.checkpointer;
  const wal = checkpointer ? { lines: passLines(checkpointer, h.t.url) } : null;
  const file = join(tmpdir(), `takt-report-load-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(reqs));

  // On PostgreSQL, where statements wait and run (bench/support/pool-watch.ts): the API's calls told apart.
  const WATCH = process.env.BENCH_WATCH !== 'off';
  if (!WATCH) console.log('  BENCH_WATCH=off: the server runs without the statement watch (decision 1255)');
  else if (DIALECT === 'postgres') watchPools();
  else watchSqlite();
  console.log(warmthLine());
  if (TEXTS && WATCH) keepTexts();
  // Each call's time in the server (its handler, from the request to the response's headers), by when it arrived.
  let served: Array<{ at: number; ms: number; id: string | null; accepted?: number }> = [];
  /** When the API's server accepted each connection (its 'connection' event), by socket. */
  const acceptedAt = new WeakMap<object, number>();
  // As main.ts serves (http/serve.ts: its keep-alive, and report computations taking turns with accepted connections,
  // decision 1259), keep-alive longer: loaded answers can take longer than Node's 5 s, and a client reusing a socket
  // the server had just closed got ECONNRESET.
  const server = serveApi(
    {
      fetch: async (req: Request, env: unknown) => {
        const at = performance.now();
        try {
          return await (WATCH ? asApi(() => h.app.fetch(req, env)) : h.app.fetch(req, env));
        } finally {
          const socket = (env as { incoming?: { socket?: object } } | undefined)?.incoming?.socket;
          const accepted = socket ? acceptedAt.get(socket) : undefined;
          served.push({
            at,
            ms: performance.now() - at,
            id: req.headers.get('x-bench-call'),
            ...(accepted === undefined ? {} : { accepted }),
          });
        }
      },
      port: 0,
      hostname: '127.0.0.1',
    },
    undefined,
    600_000,
  );
  server.on('connection', (socket: object) => acceptedAt.set(socket, performance.now()));
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Decision 1211: the API's clock runs in real time from `now` and never goes back, as a product's clock (it
  // used to start the minute after `now` again, and an answer computed at a later now is not given to an earlier
  // caller: shared answers hardly shared). The stored rows were computed at `now` and no worker recomputes them
  // here (their machines' states do not change: the last one stays open), so a range reaching now has a tail
  // built from the facts that grows with the run, from 0 to its length (printed at the end), as on a plant whose
  // worker is that far behind; a range's last bucket is built from the facts in any case (decision 1193).
  const t0 = Date.now();
  Object.defineProperty(h.clock, 'now', { get: () => now + (Date.now() - t0), set: () => {} });
  // The arrangements measured in turn (decision 1226): BENCH_INGEST_THREAD=both alternates the ingest in the bench's
  // event loop and in its own thread, BENCH_PAIRS pairs (ABAB, the same plant and reports), else the one it names.
  const pairs = Number(process.env.BENCH_PAIRS ?? 2);
  const arrangements: Array<boolean | null> =
    INGEST === 0
      ? [null]
      : VARIANTS.length > 0
        ? Array.from({ length: VARIANTS.length * pairs }, () => true)
        : process.env.BENCH_INGEST_THREAD === 'both'
          ? Array.from({ length: 2 * pairs }, (_, i) => i % 2 === 1)
          : [process.env.BENCH_INGEST_THREAD !== '0'];
  /** The variant of round `i` (BENCH_VARIANTS), if any. */
  const variantOf = (i: number) => (VARIANTS.length > 0 ? VARIANTS[i % VARIANTS.length]! : null);
  const plantIngest = INGEST > 0 ? await ingestPlant(node, INGEST) : null;
  const rounds: Array<{ thread: boolean | null; variant: string | null; runs: Run[]; load: string }> = [];
  try {
    const cookie = await h.login(plant.user.email, plant.user.password);
    let kept = { answers: 0, size: 0 };
    for (const [index, thread] of arrangements.entries()) {
      const variant = variantOf(index);
      useBuildHold(variant?.hold);
      // Only a threads / loop round sets it (decision 1253): otherwise the node's threads, as it started.
      if (variant?.threads !== undefined) useReportThreads(h.t.db, variant.threads ? node.reports : null);
      // Only a turns / inline round sets it (decision 1259): otherwise computations take turns, as the node's do.
      useReportTurns(variant?.turns ?? true);
      // Only a prepared / plain round sets it: otherwise TAKT_PG_PREPARED as the bench was started with.
      if (variant?.prepared !== undefined) {
        usePreparedStatements(variant.prepared);
        process.env.TAKT_PG_PREPARED = variant.prepared ? '1' : '0';
      }
      const stopIngest = plantIngest && thread !== null ? await plantIngest.ingest(thread) : null;
      try {
        // The first round waited for every adapter's link; a later one lets the restarted ingest take over first.
        if ((rounds.length > 0 || !COLD) && stopIngest) await new Promise((r) => setTimeout(r, WARM_MS));
        const runs: Run[] = [];
        for (const shared of SHARING) {
          useSharedAnswers(h.t.db, shared);
          // Warm: the mix run once before the first part (decision 1260: also before a shared part alone).
          if ((!shared || !COLD) && rounds.length === 0) await runClients(url, cookie, 1, file);
          useSharedAnswers(h.t.db, shared);
          resetTallies();
          const elu0 = loop.eventLoopUtilization();
          const { calls: base } = await runClients(url, cookie, 1, file);
          const baseBusy = loop.eventLoopUtilization(elu0).active;
          const pool = DIALECT === 'postgres' && WATCH ? ['  1 client:', ...tallyLines(base.length)] : [];
          useSharedAnswers(h.t.db, shared);
          resetTallies();
          keptReadTallies();
          resetSqlite();
          served = [];
          wal?.lines(); // the passes of this part only
          const sampling = DIALECT === 'postgres' ? sampleServer(h.t.url) : null;
          const session = PROFILE ? new Session() : null;
          if (session) {
            session.connect();
            await session.post('Profiler.enable');
            await session.post('Profiler.start');
          }
          const before = new Map(keptTimes().map(([t, x]) => [t, { n: x.n, ms: x.ms }]));
          const elu1 = loop.eventLoopUtilization();
          const sched1 = schedstat();
          // The API's loop held over 50 ms at a time (a 10 ms timer's late turns), when in the part and how long.
          const gaps: Array<{ at: number; ms: number }> = [];
          let turn = performance.now();
          // Who had the cores (decision 1260): a snapshot every 100 ms, the part's taken from its client's first send.
          const cores = [coreSnapshot()];
          const ticking = setInterval(() => {
            const t = performance.now();
            if (t - turn > 50) gaps.push({ at: turn, ms: t - turn });
            turn = t;
            if (t - (cores.at(-1)?.at ?? 0) >= 100) cores.push(coreSnapshot());
          }, 10);
          const {
            calls: load,
            origin: clientOrigin,
            cpuMs: clientCpu,
          } = await runClients(url, cookie, CLIENTS, file, PER_CLIENT).finally(() => clearInterval(ticking));
          const loadBusy = loop.eventLoopUtilization(elu1).active;
          const sched2 = schedstat();
          const coresLine = coreSharesLine(
            cores.findLast((c) => c !== null && c.at <= clientOrigin) ?? cores[0] ?? null,
            coreSnapshot(),
            clientCpu,
          );
          if (TEXTS) {
            // BENCH_TEXTS=1: the API's statements of this part by their summed time (PostgreSQL).
            const part = keptTimes()
              .map(([t, x]) => ({
                t,
                n: x.n - (before.get(t)?.n ?? 0),
                ms: x.ms - (before.get(t)?.ms ?? 0),
              }))
              .filter((x) => x.n > 0)
              .sort((a, b) => b.ms - a.ms);
            console.log(`  ${CLIENTS}-client part's statements by time:`);
            for (const x of part.slice(0, 15))
              console.log(`    ${x.n}× ${x.ms.toFixed(0)} ms: ${x.t.replace(/\s+/g, ' ').slice(0, 160)}`);
          }
          if (session) {
            const { profile } = await session.post('Profiler.stop');
            const out = join(
              PROFILE!,
              `report-load-${CLIENTS}-shared-${shared ? 'on' : 'off'}-${rounds.length}.cpuprofile`,
            );
            writeFileSync(out, JSON.stringify(profile));
            session.disconnect();
            console.log(`  CPU profile of the server side of the ${CLIENTS}-client part: ${out}`);
          }
          if (sampling && WATCH)
            pool.push(`  ${CLIENTS} clients:`, ...tallyLines(load.length), ...(await sampling()));
          else if (sampling) await sampling();
          if (DIALECT === 'sqlite' && WATCH)
            pool.push(`  ${CLIENTS} clients:`, ...sqliteLines(), ...(wal?.lines() ?? []));
          if (shared) kept = sharedAnswersKept(h.t.db);
          // The reads kept under the week rows stamp in this part (decisions 1157, 1183, 1185): answered kept, joined
          // to a read under way, read (and their summed time).
          pool.push(
            `  kept reads: ${keptReadTallies()
              .map(
                ([k, t]) =>
                  `${k} ${t.kept} kept, ${t.joined} joined, ${t.read} read (${t.readMs.toFixed(0)} ms)`,
              )
              .join('; ')}`,
          );
          // The server's own time for the first calls (all sent at once) and for the rest, by arrival (each call is
          // added as it ends).
          const arrived = [...served].sort((a, b) => a.at - b.at);
          // From the part's start (the client's first sends): when the first calls reached the API's handler, and
          // the loop's longest holds.
          const fromStart = (t: number) => (t - clientOrigin).toFixed(0);
          pool.unshift(
            `  the first ${CLIENTS} calls reached the handler from ${fromStart(arrived[0]?.at ?? 0)} to ${fromStart(arrived[CLIENTS - 1]?.at ?? 0)} ms into the part; the loop held over 50 ms ${gaps.length} times${
              gaps.length > 0
                ? `: ${[...gaps]
                    .sort((a, b) => b.ms - a.ms)
                    .slice(0, 6)
                    .map((g) => `${g.ms.toFixed(0)} ms at ${fromStart(g.at)} ms`)
                    .join(', ')}`
                : ''
            }`,
          );
          const inServer = [arrived.slice(0, CLIENTS), arrived.slice(CLIENTS)].map((xs) =>
            xs.map((x) => x.ms),
          );
          pool.unshift(
            `  the API's event loop busy ${baseBusy.toFixed(0)} ms for the ${base.length} calls of 1 client, ${loadBusy.toFixed(0)} ms for the ${load.length} of ${CLIENTS} (${shared ? `${sharedAnswersKept(h.t.db).answers} answers kept` : 'each computed'})${sched1 && sched2 ? `; its thread ran ${(sched2.run - sched1.run).toFixed(0)} ms on a core and waited ${(sched2.wait - sched1.wait).toFixed(0)} ms for one` : ''}`,
            ...(coresLine ? [`  ${coresLine}`] : []),
            `  in the server: the first ${CLIENTS} calls p50 ${pct(inServer[0]!, 50).toFixed(0)} ms, max ${pct(inServer[0]!, 100).toFixed(0)} ms; the other ${inServer[1]!.length} p50 ${pct(inServer[1]!, 50).toFixed(0)} ms, p99 ${pct(inServer[1]!, 99).toFixed(0)} ms, max ${pct(inServer[1]!, 100).toFixed(0)} ms`,
          );
          // The slowest calls as the API saw them (by the name each sent): when each reached the handler after its
          // client sent it, and how long the handler took; the rest of its time is before or after the API's code.
          const byId = new Map(served.map((x) => [x.id, x]));
          pool.push(
            `  the slowest calls in the API: ${[...load]
              .sort((a, b) => b.ms - a.ms)
              .slice(0, 4)
              .map((x) => {
                const s = byId.get(x.id);
                const reached = s ? (s.at - clientOrigin - x.at).toFixed(0) : '?';
                const accepted =
                  s?.accepted === undefined
                    ? ''
                    : `, its connection accepted at ${(s.accepted - clientOrigin - x.at).toFixed(0)} ms`;
                return `${x.report} ${x.label} reached the handler at ${reached} ms${accepted}, its answer made in ${s ? s.ms.toFixed(0) : '?'} ms`;
              })
              .join('; ')}`,
          );
          const failed = [...base, ...load].filter((x) => x.status !== 200);
          if (failed.length > 0)
            throw new Error(`${failed.length} answers not 200: ${JSON.stringify(failed[0])}`);
          runs.push({ shared, base, load, pool });
        }
        rounds.push({
          thread,
          variant: variant?.name ?? null,
          runs,
          load: loadavg()
            .map((x) => x.toFixed(1))
            .join(' '),
        });
      } finally {
        await stopIngest?.();
      }
    }
    const statesDays = Math.round((now - statesFrom) / 86_400_000);
    console.log(
      `\nreport-load on ${DIALECT}: ${MACHINES} machines × ${DAYS} days of rollups (${plant.hourlyRows} hourly rows, seeded in ${(plant.seedMs / 1000).toFixed(0)} s), ${statesDays} days of states with ${counts.cycles} cycles and ${counts.adjustments} part adjustments (${(factsMs / 1000).toFixed(0)} s) and their rows recomputed (${(recomputeMs / 1000).toFixed(0)} s); ${reqs.length} requests alone, ${Math.min(reqs.length, PER_CLIENT)} by each of ${CLIENTS} clients; ${INGEST > 0 ? `${INGEST} machines of another company ingesting 1 line/s each` : 'no ingest alongside'}; ${threads > 0 ? `reports computed in ${threads} threads (decision 1253)` : "reports computed in the API's event loop"}`,
    );
    const b50 = pct(
      rounds[0]!.runs[0]!.base.map((x) => x.ms),
      50,
    );
    const row = (name: string, b: number[], l: number[]) =>
      console.log(
        `    ${name.padEnd(12)} 1 client p50 ${pct(b, 50).toFixed(0).padStart(5)} ms (${(pct(b, 50) / b50).toFixed(2)}×) | ${CLIENTS} clients p50 ${pct(l, 50).toFixed(0).padStart(5)} ms (${(pct(l, 50) / b50).toFixed(2)}×), p99 ${pct(l, 99).toFixed(0).padStart(5)} ms (${(pct(l, 99) / b50).toFixed(2)}×)`,
      );
    const named = (thread: boolean | null) =>
      thread === null ? '' : thread ? 'ingest in its own thread' : "ingest in the API's event loop";
    for (const [i, { thread, runs, load }] of rounds.entries()) {
      if (thread !== null)
        console.log(
          ` round ${i + 1}: ${named(thread)}${rounds[i]!.variant !== null ? `, variant ${rounds[i]!.variant}` : ''} (load average at its end ${load})`,
        );
      for (const { shared, base, load: loaded, pool } of runs) {
        console.log(`  shared answers ${shared ? 'on (decision 1148)' : 'off'}:`);
        for (const report of ['oee', 'utilization', 'production', 'downtime'])
          row(
            report,
            base.filter((x) => x.report === report).map((x) => x.ms),
            loaded.filter((x) => x.report === report).map((x) => x.ms),
          );
        const all = loaded.map((x) => x.ms);
        row(
          'all',
          base.map((x) => x.ms),
          all,
        );
        console.log(
          `    p99 under load ${pct(all, 99) < 500 ? 'met' : 'MISSED'} 500 ms (${pct(all, 99).toFixed(0)} ms)`,
        );
        // The slowest calls, with when each started in the part: a wave that started together, or one stall.
        const slowest = [...loaded].sort((a, b) => b.ms - a.ms).slice(0, 4);
        // The first call of each client (all sent at once) against the rest.
        const byStart = [...loaded].sort((a, b) => a.at - b.at);
        const [first, rest] = [byStart.slice(0, CLIENTS), byStart.slice(CLIENTS)].map((xs) =>
          xs.map((x) => x.ms),
        );
        console.log(
          `    the first ${CLIENTS} calls p50 ${pct(first!, 50).toFixed(0)} ms, max ${pct(first!, 100).toFixed(0)} ms; the other ${rest!.length} p50 ${pct(rest!, 50).toFixed(0)} ms, p99 ${pct(rest!, 99).toFixed(0)} ms`,
        );
        console.log(
          `    slowest: ${slowest.map((x) => `${x.report} ${x.label} ${x.ms.toFixed(0)} ms from ${(x.at / 1000).toFixed(1)} s (${x.connected === undefined ? '' : `connected at ${x.connected.toFixed(0)}, `}headers at ${x.headers.toFixed(0)})`).join('; ')}`,
        );
        // By the second each call started in: how many, and the longest of them (a stall shows as one second's).
        const seconds = new Map<number, number[]>();
        for (const x of loaded)
          seconds.set(Math.floor(x.at / 1000), [...(seconds.get(Math.floor(x.at / 1000)) ?? []), x.ms]);
        console.log(
          `    by start second (calls × longest ms): ${[...seconds]
            .sort((a, b) => a[0] - b[0])
            .map(([sec, ms]) => `${sec}s ${ms.length}×${Math.max(...ms).toFixed(0)}`)
            .join(', ')}`,
        );
        for (const line of pool) console.log(`  ${line}`);
      }
    }
    console.log(`  ratios against the single client's p50 with shared answers off (${b50.toFixed(0)} ms)`);
    // Each thread round against the loop round before it (ABAB): the 20 clients' p50 and p99, all reports.
    for (let i = 1; i < rounds.length; i += 2) {
      const [a, b] = [rounds[i - 1]!, rounds[i]!];
      if (a.thread !== false || b.thread !== true) continue;
      for (const shared of SHARING) {
        const ms = (r: (typeof rounds)[number]) =>
          r.runs.find((x) => x.shared === shared)!.load.map((x) => x.ms);
        const [la, lb] = [ms(a), ms(b)];
        console.log(
          `  pair ${(i + 1) / 2}, shared answers ${shared ? 'on' : 'off'}: thread / loop p50 ${(pct(lb, 50) / pct(la, 50)).toFixed(2)} (${pct(la, 50).toFixed(0)} → ${pct(lb, 50).toFixed(0)} ms), p99 ${(pct(lb, 99) / pct(la, 99)).toFixed(2)} (${pct(la, 99).toFixed(0)} → ${pct(lb, 99).toFixed(0)} ms); load ${a.load} / ${b.load}`,
        );
      }
    }
    // Each variant against the first of its cycle (BENCH_VARIANTS): the 20 clients' p50 and p99, all reports.
    for (let i = 0; VARIANTS.length > 1 && i < rounds.length; i++) {
      const a = rounds[i - (i % VARIANTS.length)]!;
      const b = rounds[i]!;
      if (a === b) continue;
      for (const shared of SHARING) {
        const ms = (r: (typeof rounds)[number]) =>
          r.runs.find((x) => x.shared === shared)!.load.map((x) => x.ms);
        const [la, lb] = [ms(a), ms(b)];
        console.log(
          `  cycle ${Math.floor(i / VARIANTS.length) + 1}, shared answers ${shared ? 'on' : 'off'}: ${b.variant} / ${a.variant} p50 ${(pct(lb, 50) / pct(la, 50)).toFixed(2)} (${pct(la, 50).toFixed(0)} → ${pct(lb, 50).toFixed(0)} ms), p99 ${(pct(lb, 99) / pct(la, 99)).toFixed(2)} (${pct(la, 99).toFixed(0)} → ${pct(lb, 99).toFixed(0)} ms); load ${a.load} / ${b.load}`,
        );
      }
    }
    console.log(
      `  the clock ran ${((Date.now() - t0) / 60_000).toFixed(1)} min past the rows' computed_at (the tail built from the facts at the end); load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
    // The heap the kept answers hold (with NODE_OPTIONS=--expose-gc): measured with them, then without.
    const gc = (globalThis as { gc?: () => void }).gc;
    let heap = '';
    if (gc) {
      gc();
      const held = process.memoryUsage().heapUsed;
      useSharedAnswers(h.t.db, true);
      gc();
      heap = `; they held ${((held - process.memoryUsage().heapUsed) / 1e6).toFixed(1)} MB of heap`;
    }
    console.log(
      `  answers kept after the shared part: ${kept.answers}, ${(kept.size / 1e6).toFixed(2)} MB counted (their JSON, twice for the objects kept with their text: decision 1248; budget ${SHARED_ANSWER_BUDGET / 2 ** 20} MiB)${heap}`,
    );
  } finally {
    plantIngest?.stop();
    server.close();
    await h.close();
    await seed.close();
    rmSync(file, { force: true });
  }
}

await main();
process.exit(0);
