// Where a whole-year report call's time goes, and old against new on the same database (decision 1166).
// Seeds 100 machines × DAYS of stored rollups once (bench/support/year-of-rollups.ts), then for each of the
// five whole-day calls by week (the OEE waterfall, OEE by machine and by shift, utilization, production by
// machine × week) and their CSVs: BENCH_PROFILE=dir writes a CPU profile of each call alone (5 computations);
// then each call is timed computed (shared answers off) with the change off and on, interleaved (A B B A …),
// the answers compared byte for byte, with the load average beside the figures.
// BENCH_RELOAD=1 times only the first waterfall after one machine's current week was rewritten (as a recompute
// of another process writes it), the week index reloaded whole (old) or incrementally (new, decision 1168).
// Each call also over the same year from 10:17 on its first day to 18:43 on its last (decision 1125: partial
// days from hourly rows, the cut hours from the facts). BENCH_OLD=dir: "old" is the API of another checkout
// (a worktree of the commit before, its node_modules hard-linked) on the same database, instead of this tree
// with the reasons index off; BENCH_CALLS=regexp times only the calls whose name matches (decision 1183).
// Also over the last month, week and day from mid-day or mid-hour; BENCH_SHARED=1 times them with shared answers
// on, each computed (the cache emptied before every call), as a single manager's call is (decision 1185).
// The waterfall with the week index cold (emptied before each call) last: with BENCH_OLD against the other
// checkout's emptied index (and this process's CPU a call), BENCH_PROFILE profiles 5 cold calls, BENCH_CALLS matching 'index cold' selects it.
// Each pair also gives new / old of this process's CPU a call (median; both APIs run in it, PostgreSQL's server not
// counted): less moved by other processes on a shared machine than the wall time.
// BENCH_KEEP=takt_name: the plant is seeded into a database of that name (a SQLite file in the temporary folder, or a
// database on the test PostgreSQL server) and kept; the next run with the same name, machines and days reuses it
// (bench/support/kept-plant.ts). Drop it when done (rm the file, DROP DATABASE).
// Not a test: figures only.
// Run: npx tsx bench/report-answer.ts [machines] [days] [sqlite|postgres] [pairs]
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { DialectName } from '@takt/db';
import { PRODUCTION_METRICS } from '@takt/domain';
import { useIncrementalReload, useReasonIndex, useWeekIndex } from '@takt/db/rollups';
import { useSharedAnswers } from '../services/api/src/services/report-shared';
import { apiHarness, apiHarnessOn } from '../services/api/src/testing/app';
import type { ApiHarness } from '../services/api/src/testing/app';
import { keptDb, keptYearOfRollups } from './support/kept-plant';
import { oldApiOn } from './support/old-api';
import { aYearOfRollups, YEAR_START } from './support/year-of-rollups';

const MACHINES = Number(process.argv[2] ?? 100);
const DAYS = Number(process.argv[3] ?? 365);
const DIALECT = (process.argv[4] ?? 'sqlite') as DialectName;
const PAIRS = Number(process.argv[5] ?? 2);
const RUNS = 5;
const PROFILE = process.env.BENCH_PROFILE;
const OLD = process.env.BENCH_OLD;
const ONLY = process.env.BENCH_CALLS ? new RegExp(process.env.BENCH_CALLS) : null;
const SHARED = process.env.BENCH_SHARED === '1';
const KEEP = process.env.BENCH_KEEP;
const NOW = YEAR_START + (DAYS + 2) * 86_400_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => loadavg()[0]!.toFixed(1);

const h = KEEP ? apiHarnessOn(await keptDb(DIALECT, KEEP), NOW) : await apiHarness(DIALECT, NOW);
let closeOld = async () => {};
try {
  const db = h.t.db;
  const plant = KEEP
    ? await keptYearOfRollups(h, MACHINES, DAYS, NOW)
    : { ...(await aYearOfRollups(h, MACHINES, DAYS, NOW)), reused: false };
  // The test server runs without autovacuum: a production database's statistics and visibility map (an
  // index-only stamp read; without them a bitmap scan of every week row, 27 against 4 ms).
  if (DIALECT === 'postgres' && !plant.reused) await sql`vacuum analyze`.execute(db);
  const { cookie } = plant;
  const [start, end] = [YEAR_START, plant.end];
  const data = [...PRODUCTION_METRICS];
  // The other checkout's API on the same database and session (its own modules: its own week index and cache).
  const oldApi = OLD ? await oldApiOn(OLD, h, NOW) : null;
  if (oldApi) closeOld = oldApi.close;
  const oldH = oldApi ? oldApi.h : h;
  const text = async (res: Response) => {
    if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
    return res.text();
  };
  /** The calls over [start, end), each on a harness (old or new). */
  const callsOver = (label: string, start: number, end: number, interval = 'week') => {
    const production = { start, end, interval, data, groupBy: ['machine', 'interval'] };
    const by = { start, end, intervalType: interval };
    const range = `start=${start}&end=${end}&interval=${interval}`;
    const list: Array<[string, (on: ApiHarness) => Promise<string>]> = [
      ['reports/oee', async (on) => text(await on.get(`/api/reports/oee?${range}`, cookie))],
      ['oee/bymachine', async (on) => text(await on.send('POST', '/api/oee/bymachine', cookie, by))],
      [
        'oee/byabstractshift',
        async (on) => text(await on.send('POST', '/api/oee/byabstractshift', cookie, by)),
      ],
      ['reports/utilization', async (on) => text(await on.get(`/api/reports/utilization?${range}`, cookie))],
      [
        'reports/utilization csv',
        async (on) => text(await on.get(`/api/reports/utilization?${range}&format=csv`, cookie)),
      ],
      [
        'production',
        async (on) => text(await on.send('POST', '/api/reports/warehouse/production', cookie, production)),
      ],
      [
        'production csv',
        async (on) =>
          text(
            await on.get(
              `/api/reports/warehouse/production/csv?request=${encodeURIComponent(JSON.stringify(production))}`,
              cookie,
            ),
          ),
      ],
    ];
    return list.map(([name, f]) => [name + label, f] as const);
  };
  const MID_START = start + (10 * 60 + 17) * 60_000;
  const MID_END = end - (5 * 60 + 17) * 60_000;
  const DAY = 86_400_000;
  const all = [
    ...callsOver('', start, end),
    ...callsOver(' 10:17→18:43', MID_START, MID_END),
    // The last month, week and day of the plant by day, mid-day and mid-hour (decision 1185).
    ...callsOver(' month 10:17→18:43', MID_START + (DAYS - 31) * DAY, MID_END, 'day'),
    ...callsOver(' week :17→:43', end - 7 * DAY + 17 * 60_000, end - 17 * 60_000, 'day'),
    ...callsOver(' day 10:17→18:43', MID_END - (8 * 60 + 26) * 60_000, MID_END, 'day'),
  ];
  const calls = all.filter(([name]) => !ONLY || ONLY.test(name));
  useSharedAnswers(db, false); // computed answers only
  oldApi?.useSharedAnswers(false);
  console.log(
    `${DIALECT}: ${MACHINES} machines × ${DAYS} days (${plant.reused ? `kept in ${KEEP}` : `seeded in ${(plant.seedMs / 1000).toFixed(0)} s`})`,
  );
  if (process.env.BENCH_RELOAD) {
    await firstAfterRecompute(db, () => all[0]![1](h));
    await h.close();
    process.exit(0); // this measure only
  }
  if (PROFILE) {
    for (const [name, f] of calls) {
      await f(h);
      const session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      for (let i = 0; i < 5; i++) await f(h);
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      const file = `${PROFILE}/${name.replace(/[/ ]/g, '-')}-${DIALECT}.cpuprofile`;
      await writeFile(file, JSON.stringify(profile));
      console.log(`profile of ${name}: ${file}`);
    }
  }
  const timeOf = async (on: boolean, f: (api: ApiHarness) => Promise<string>) => {
    if (!oldApi) useReasonIndex(db, on);
    const api = on ? h : oldH;
    // BENCH_SHARED=1: sharing on, each call computed (its cache emptied first), as a single manager's call is.
    const fresh = () => {
      if (!SHARED) return;
      if (on) useSharedAnswers(db, true);
      else if (oldApi) oldApi.useSharedAnswers(true);
      else useSharedAnswers(db, true);
    };
    fresh();
    const answer = await f(api); // warm (and, on, the index loaded)
    const times: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      fresh();
      const [a, c] = [performance.now(), process.cpuUsage()];
      await f(api);
      times.push(performance.now() - a);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
    }
    return { ms: median(times), cpu: median(cpu), answer };
  };
  for (const [name, f] of calls) {
    const line: string[] = [];
    for (let p = 0; p < PAIRS; p++) {
      // Interleaved: old, new, then new, old.
      const order = p % 2 === 0 ? [false, true] : [true, false];
      const r = new Map<boolean, { ms: number; cpu: number; answer: string }>();
      const l0 = load();
      for (const on of order) r.set(on, await timeOf(on, f));
      const [o, n] = [r.get(false)!, r.get(true)!];
      if (o.answer !== n.answer) throw new Error(`${name}: the answers differ`);
      line.push(
        `${o.ms.toFixed(0)} → ${n.ms.toFixed(0)} ms (${(n.ms / o.ms).toFixed(2)}, CPU ${(n.cpu / o.cpu).toFixed(2)}, load ${l0}–${load()})`,
      );
    }
    console.log(`  ${name.padEnd(36)} ${line.join('   ')}   answers equal`);
  }
  // The first waterfall after the index is emptied (as after a process start or a recompute that moved its stamp):
  // the week rows and reasons read again. With BENCH_OLD, old is the other checkout's (its own index emptied);
  // without, old is this tree with the reasons read by every call. BENCH_PROFILE: a CPU profile of 5 cold calls.
  const COLD = 'reports/oee, index cold';
  const coldAnswers = new Map<boolean, string>();
  const cold = async (on: boolean) => {
    if (!oldApi) useReasonIndex(db, on);
    const empty = () => {
      if (!on && oldApi) {
        oldApi.useWeekIndex(false);
        oldApi.useWeekIndex(true);
      } else {
        useWeekIndex(db, false);
        useWeekIndex(db, true);
      }
    };
    const times: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      empty();
      const [a, c] = [performance.now(), process.cpuUsage()];
      coldAnswers.set(on, await all[0]![1](on ? h : oldH));
      times.push(performance.now() - a);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
    }
    coldCpu.push([on, median(cpu)]);
    return median(times);
  };
  // This process's CPU a cold call (both APIs run in it; on PostgreSQL the server's is not counted): a measure less
  // moved by other processes on a shared machine than the wall time.
  const coldCpu: Array<[boolean, number]> = [];
  if (!ONLY || ONLY.test(COLD)) {
    if (PROFILE) {
      await cold(true); // the cold path's code compiled first, as in the timed pairs below
      const session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      await cold(true);
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      const file = `${PROFILE}/reports-oee-cold-${DIALECT}.cpuprofile`;
      await writeFile(file, JSON.stringify(profile));
      console.log(`profile of ${COLD}: ${file}`);
    }
    coldCpu.length = 0;
    const line = await interleaved(cold);
    if (coldAnswers.get(false) !== coldAnswers.get(true)) throw new Error(`${COLD}: the answers differ`);
    console.log(`  ${COLD.padEnd(36)} ${line}   answers equal`);
    const pairs: string[] = [];
    for (let i = 0; i + 1 < coldCpu.length; i += 2) {
      const o = coldCpu[i]![0] ? coldCpu[i + 1]![1] : coldCpu[i]![1];
      const n = coldCpu[i]![0] ? coldCpu[i]![1] : coldCpu[i + 1]![1];
      pairs.push(`${o.toFixed(0)} → ${n.toFixed(0)} ms (${(n / o).toFixed(2)})`);
    }
    console.log(`  ${`${COLD}, CPU`.padEnd(36)} ${pairs.join('   ')}`);
  }
} finally {
  useReasonIndex(h.t.db, true);
  await closeOld();
  await h.close();
}

/**
 * The first call after one machine's current week rows were rewritten with a later computed_at (old: the whole
 * company's week rows and reasons read again; new: that machine's), RUNS times per side, interleaved, then the
 * answer after a last rewrite compared with the one of an emptied index (a full reload).
 */
async function firstAfterRecompute(db: typeof h.t.db, call: () => Promise<string>) {
  const last = await db
    .selectFrom('rollup_weeks')
    .select(['machine_id', 'start_at'])
    .orderBy('start_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  let at = NOW;
  const rewrite = () =>
    db
      .updateTable('rollup_weeks')
      .set((eb) => ({ parts: eb('parts', '+', 1), computed_at: ++at }))
      .where('machine_id', '=', last.machine_id)
      .where('start_at', '=', last.start_at)
      .execute();
  const side = async (incremental: boolean) => {
    useIncrementalReload(db, incremental);
    await call(); // the index and its reasons loaded
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await rewrite();
      const a = performance.now();
      await call();
      times.push(performance.now() - a);
    }
    return median(times);
  };
  console.log(`  ${'reports/oee, 1 machine recomputed'.padEnd(34)} ${await interleaved(side)}`);
  await rewrite();
  const incremental = await call();
  useWeekIndex(db, false);
  useWeekIndex(db, true);
  if ((await call()) !== incremental) throw new Error('the incremental answer differs from a full reload');
  console.log('  answer after an incremental reload equals a full reload');
}

/** PAIRS medians of `side` old (false) and new (true), interleaved (old new, new old, …), with the load. */
async function interleaved(side: (on: boolean) => Promise<number>): Promise<string> {
  const line: string[] = [];
  for (let p = 0; p < PAIRS; p++) {
    const l0 = load();
    const [o, n] =
      p % 2 === 0 ? [await side(false), await side(true)] : [await side(true), await side(false)].reverse();
    line.push(`${o!.toFixed(0)} → ${n!.toFixed(0)} ms (${(n! / o!).toFixed(2)}, load ${l0}–${load()})`);
  }
  return line.join('   ');
}
