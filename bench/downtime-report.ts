// `npx tsx bench/downtime-report.ts [machines=100] [sqlite|postgres]`: one downtime report call at a time
// (GET /api/reports/downtime over HTTP through the app, shared answers off) on the plant of bench/report-load.ts
// (40 days of state intervals, a change every 20 minutes on average), for the ranges the load mix asks, each
// timed 3 times (median), against GET /api/me in the same run (the ratio is what compares across runs); then
// with shared answers on, a first call and the same call again (given the shared answer if it was kept).
// BENCH_PROFILE=dir: a CPU profile of the calls, written to dir. BENCH_OLD=dir: old against new instead, the API of
// another checkout (a worktree of the commit before, node_modules hard-linked) on the same database through its own
// connection and modules, each range's figures-only call and its CSV (every period) in BENCH_PAIRS pairs (old new,
// new old, ...), wall and process CPU time (medians) and the answers compared as text (decision 1186).
// BENCH_ANNOTATIONS=1: two of every three stops categorized by an operator (one of three reasons, the stop's bounds).
// BENCH_ONLY=today,yesterday: those ranges only. With BENCH_OLD each call's queries are counted (decision 1198), and
// BENCH_SQL=1 prints each query's time from issue to answer and its text.
// BENCH_DIRTY=1: machine i's rollups marked dirty from (i % 12) × 7 hours before now (late data), after the seeding.
// BENCH_RECOMPUTED=1: the 40 days' rollups then rewritten by the recompute itself at now (with the downtime figures
// the report reads, decision 1193) instead of the synthetic year's.
// Not a test: figures only.
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { Session } from 'node:inspector/promises';
import { companyScope } from '@takt/db';
import type { DialectName } from '@takt/db';
import { historyChanged } from '@takt/db/rollups';
import { companyDayRange, epochMs, shopDateOf } from '@takt/domain';
import { sharedAnswersKept, useSharedAnswers } from '../services/api/src/services/report-shared';
import { apiHarness } from '../services/api/src/testing/app';
import { categorizedStops } from './support/categorized';
import { aYearOfRollups, fortyDaysOfStates, recomputeFortyDays } from './support/year-of-rollups';

const MACHINES = Number(process.argv[2] ?? 100);
const DIALECT = (process.argv[3] ?? 'sqlite') as DialectName;
const PROFILE = process.env.BENCH_PROFILE;
/** BENCH_ONLY=today,yesterday: only these ranges (their labels). */
const ONLY = process.env.BENCH_ONLY?.split(',');

const h = await apiHarness(DIALECT, 0);
try {
  const plant = await aYearOfRollups(h, MACHINES, 42, 0);
  const { calendar, company, ids } = plant;
  const now = plant.end - (5 * 60 + 17) * 60_000;
  h.clock.now = now;
  await fortyDaysOfStates(h, company.id, ids, now);
  if (process.env.BENCH_ANNOTATIONS) await categorizedStops(h, company, now);
  if (process.env.BENCH_RECOMPUTED)
    await recomputeFortyDays(h, { companyId: company.id, calendar, now }, ids);
  const day = (t: number) => companyDayRange(calendar, shopDateOf(calendar, epochMs(t)));
  const today = day(now);
  // Late data (decision 1198): machine i's rows hold only up to a pending mark i % 12 × 7 hours before now, so their
  // rows stop at a dozen different hours (the report reads each machine's tail from its own hour).
  if (process.env.BENCH_DIRTY)
    for (const [i, id] of ids.entries())
      await historyChanged(companyScope(h.t.db, company.id), id, now - (i % 12) * 7 * 3_600_000 - 1);
  const ranges: Array<[string, number, number]> = [
    ['today', today.start, today.end],
    ['yesterday', day(today.start - 1).start, today.start],
    ['7 days', today.start - 7 * 86_400_000, today.start],
    ['28 days mid-hour', now - 28 * 86_400_000 - 1_234_567, now - 3 * 86_400_000 - 777_777],
    ['31 days to now', today.end - 31 * 86_400_000, today.end],
  ].filter(([label]) => !ONLY || ONLY.includes(label as string)) as Array<[string, number, number]>;
  useSharedAnswers(h.t.db, false);
  const cookie = await h.login(plant.user.email, plant.user.password);
  const get = async (path: string) => {
    const res = await h.get(path, cookie);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.text();
  };
  const timed = async (f: () => Promise<unknown>, n: number) => {
    await f();
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await f();
      ms.push(performance.now() - t0);
    }
    return ms.sort((a, b) => a - b)[Math.floor(n / 2)]!;
  };
  if (process.env.BENCH_OLD) {
    await oldAgainstNew(process.env.BENCH_OLD, ranges, get, cookie);
    await h.close();
    process.exit(0);
  }
  const me = await timed(() => get('/api/me'), 20);
  console.log(
    `downtime report on ${DIALECT}, ${MACHINES} machines, 40 days of states; GET /api/me ${me.toFixed(1)} ms`,
  );
  for (const [label, start, end] of ranges) {
    const path = `/api/reports/downtime?start=${start}&end=${end}`;
    useSharedAnswers(h.t.db, false);
    const ms = await timed(() => get(path), 3);
    const size = (await get(path)).length;
    // Shared answers on (decision 1148): the first call computes, the second is given the shared answer when it
    // was kept (an answer over SHARED_ANSWER_MAX is computed each time).
    useSharedAnswers(h.t.db, true);
    const t0 = performance.now();
    await get(path);
    const first = performance.now() - t0;
    const t1 = performance.now();
    await get(path);
    const again = performance.now() - t1;
    const kept = sharedAnswersKept(h.t.db);
    console.log(
      `  ${label.padEnd(18)} ${ms.toFixed(0).padStart(6)} ms (${(ms / me).toFixed(0)}× /api/me), ${size} bytes; shared: first ${first.toFixed(0)} ms, again ${again.toFixed(0)} ms (${(again / first).toFixed(3)}×), kept ${kept.answers} answer(s) of ${(kept.size / 1e6).toFixed(2)} MB`,
    );
  }
  useSharedAnswers(h.t.db, false);
  if (PROFILE) {
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    for (const [, start, end] of ranges)
      for (let i = 0; i < Number(process.env.BENCH_PROFILE_CALLS ?? 3); i++)
        await get(`/api/reports/downtime?start=${start}&end=${end}`);
    const { profile } = await session.post('Profiler.stop');
    const file = `${PROFILE}/downtime-report-${DIALECT}.cpuprofile`;
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
    console.log(`profile: ${file}`);
  }
} finally {
  await h.close();
}
process.exit(0);

/**
 * A counter of the queries run through `db` (a Kysely instance of either checkout): its executor's class is
 * patched, so every Kysely of that module counts into the last counter made for it (one connection each here).
 */
function countQueries(db: object): { n: number } {
  const counter = { n: 0 };
  let proto = Object.getPrototypeOf((db as { getExecutor(): object }).getExecutor()) as Record<
    string,
    unknown
  >;
  while (proto && !Object.prototype.hasOwnProperty.call(proto, 'executeQuery'))
    proto = Object.getPrototypeOf(proto);
  const run = proto.executeQuery as (...args: unknown[]) => unknown;
  proto.executeQuery = function (this: unknown, ...args: unknown[]) {
    counter.n++;
    if (process.env.BENCH_SQL) {
      const t0 = performance.now();
      const text = String((args[0] as { sql?: string }).sql)
        .replace(/\s+/g, ' ')
        .slice(0, 110);
      return (run.apply(this, args) as Promise<unknown>).then((r) => {
        console.log(`${(performance.now() - t0).toFixed(1).padStart(6)} ms ${text}`);
        return r;
      });
    }
    return run.apply(this, args);
  };
  return counter;
}

/** Old (the checkout at `dir`) against new on this database, interleaved; throws when an answer differs. */
async function oldAgainstNew(
  dir: string,
  ranges: ReadonlyArray<[string, number, number]>,
  get: (path: string) => Promise<string>,
  cookie: string,
) {
  type OldModules = {
    apiHarnessOn: (t: object, start: number) => typeof h;
    openDb: (url: string, options?: { poolSize?: number }) => { close(): Promise<void> };
    useSharedAnswers: (db: object, on: boolean) => void;
  };
  const old = {
    ...(await import(`${dir}/services/api/src/testing/app.ts`)),
    ...(await import(`${dir}/packages/db/src/connect.ts`)),
    ...(await import(`${dir}/services/api/src/services/report-shared.ts`)),
  } as OldModules;
  // Its own connection: its query builder's classes (the dialect checks) are its own modules'.
  const oldDb = old.openDb(h.t.url, { poolSize: 4 }) as { db: object; close(): Promise<void> };
  const oldH = old.apiHarnessOn({ ...h.t, ...oldDb, cleanup: () => oldDb.close() }, h.clock.now);
  // The queries each side runs (each connection's own Kysely executor, counted where every query passes).
  const queries = { old: countQueries(oldDb.db), new: countQueries(h.t.db) };
  oldH.clock.now = h.clock.now;
  old.useSharedAnswers(oldDb.db, false);
  const oldGet = async (path: string) => {
    const res = await oldH.get(path, cookie);
    if (res.status !== 200) throw new Error(`old ${path}: ${res.status} ${await res.text()}`);
    return res.text();
  };
  const pairs = Number(process.env.BENCH_PAIRS ?? 3);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const one = async (f: (path: string) => Promise<string>, path: string, counter: { n: number }) => {
    counter.n = 0;
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const text = await f(path);
    const ms = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    return { text, ms, cpu: (used.user + used.system) / 1000, queries: counter.n };
  };
  console.log(
    `old ${dir} against new on ${DIALECT}, ${MACHINES} machines, ${pairs} pairs, load ${loadavg()[0]!.toFixed(1)}`,
  );
  for (const [label, start, end] of ranges)
    for (const [kind, suffix] of [
      ['figures', ''],
      ['csv', '&format=csv'],
    ] as const) {
      const path = `/api/reports/downtime?start=${start}&end=${end}${suffix}`;
      await oldGet(path);
      await get(path);
      const times = {
        old: [] as number[],
        new: [] as number[],
        oldCpu: [] as number[],
        newCpu: [] as number[],
        oldQueries: 0,
        newQueries: 0,
      };
      for (let i = 0; i < pairs; i++) {
        const order = i % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const);
        const answers: Record<string, string> = {};
        for (const which of order) {
          const r = await one(which === 'old' ? oldGet : get, path, queries[which]);
          answers[which] = r.text;
          times[which === 'old' ? 'oldQueries' : 'newQueries'] = r.queries;
          times[which].push(r.ms);
          times[which === 'old' ? 'oldCpu' : 'newCpu'].push(r.cpu);
        }
        if (answers.old !== answers.new) throw new Error(`${label} ${kind}: the answers differ`);
      }
      const [o, n, oc, nc] = [times.old, times.new, times.oldCpu, times.newCpu].map(median) as [
        number,
        number,
        number,
        number,
      ];
      console.log(
        `  ${label.padEnd(18)} ${kind.padEnd(7)} wall ${o.toFixed(0).padStart(5)} -> ${n.toFixed(0).padStart(5)} ms (${(n / o).toFixed(2)}), cpu ${oc.toFixed(0).padStart(5)} -> ${nc.toFixed(0).padStart(5)} ms (${(nc / oc).toFixed(2)}), queries ${times.oldQueries} -> ${times.newQueries}, answers equal, load ${loadavg()[0]!.toFixed(1)}`,
      );
    }
  await oldH.close();
}
