// `npx tsx bench/downtime-report.ts [machines=100] [sqlite|postgres]`: one downtime report call at a time
// (GET /api/reports/downtime over HTTP through the app, shared answers off) on the plant of bench/report-load.ts
// (40 days of state intervals, a change every 20 minutes on average), for the ranges the load mix asks, each
// timed 3 times (median), against GET /api/me in the same run (the ratio is what compares across runs); then
// with shared answers on, a first call and the same call again (given the shared answer if it was kept).
// BENCH_PROFILE=dir: a CPU profile of the calls, written to dir. Not a test: figures only.
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import type { DialectName } from '@takt/db';
import { companyDayRange, epochMs, shopDateOf } from '@takt/domain';
import { sharedAnswersKept, useSharedAnswers } from '../services/api/src/services/report-shared';
import { apiHarness } from '../services/api/src/testing/app';
import { aYearOfRollups, fortyDaysOfStates } from './support/year-of-rollups';

const MACHINES = Number(process.argv[2] ?? 100);
const DIALECT = (process.argv[3] ?? 'sqlite') as DialectName;
const PROFILE = process.env.BENCH_PROFILE;

const h = await apiHarness(DIALECT, 0);
try {
  const plant = await aYearOfRollups(h, MACHINES, 42, 0);
  const { calendar, company, ids } = plant;
  const now = plant.end - (5 * 60 + 17) * 60_000;
  h.clock.now = now;
  await fortyDaysOfStates(h, company.id, ids, now);
  const day = (t: number) => companyDayRange(calendar, shopDateOf(calendar, epochMs(t)));
  const today = day(now);
  const ranges: Array<[string, number, number]> = [
    ['today', today.start, today.end],
    ['yesterday', day(today.start - 1).start, today.start],
    ['7 days', today.start - 7 * 86_400_000, today.start],
    ['28 days mid-hour', now - 28 * 86_400_000 - 1_234_567, now - 3 * 86_400_000 - 777_777],
    ['31 days to now', today.end - 31 * 86_400_000, today.end],
  ];
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
      for (let i = 0; i < 3; i++) await get(`/api/reports/downtime?start=${start}&end=${end}`);
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
