// `npm run bench report-live-marks`: the 30-day OEE report of 12 machines while ingest runs (decision 1067).
// Live ingest keeps a dirty mark minutes old on every machine; before decision 1067 such a machine was built
// wholly from its facts for any range ending now. Seeds 12 machines × 30 days of facts (state intervals of a
// few minutes, a cycle every two minutes in cycle, a job run), stores their rollups as the worker does, then
// times GET /api/reports/oee (interval day and hour) over the 30 days up to now with each machine's mark
// (a) at the range's start, so every machine is built from its facts (what every live report did before),
// and (b) ten minutes before now (stored rows plus a ten-minute tail, decision 1067); also the longest
// event-loop stall during each call (a 5 ms timer's lateness). Figures only, the ratio of (b) to (a) in the
// same run; not a test. Run: npx tsx bench/report-live-marks.ts [machines] [days] [sqlite|postgres|both]
import { performance } from 'node:perf_hooks';
import type { DialectName } from '@takt/db';
import { companyScope } from '@takt/db';
import { recomputeRollups } from '@takt/db/rollups';
import { apiHarness } from '../services/api/src/testing/app';
import { aCompany, aMachine, aUser } from '../services/api/src/testing/builders';
import { aShift } from '../services/api/src/testing/live-builders';
import { aJobWithRun, someCycles } from '../services/api/src/testing/report-plant';
import { mulberry32 } from '../services/ingest/src/demo/demo-script';

const MACHINES = Number(process.argv[2] ?? 12);
const DAYS = Number(process.argv[3] ?? 30);
const WHICH = process.argv[4] ?? 'sqlite';
const DIALECTS: DialectName[] = WHICH === 'both' ? ['sqlite', 'postgres'] : [WHICH as DialectName];
const DAY = 86_400_000;
const MIN = 60_000;
/** Now: mid-afternoon in Chicago; the facts run from DAYS days before. */
const NOW = Date.UTC(2025, 10, 4, 21, 37, 12);
const T0 = NOW - DAYS * DAY;
const RUNS = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** ms of one call and the longest event-loop stall while it ran. */
async function timed(call: () => Promise<unknown>) {
  let stall = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const t = performance.now();
    stall = Math.max(stall, t - last - 5);
    last = t;
  }, 5);
  const a = performance.now();
  await call();
  const ms = performance.now() - a;
  clearInterval(timer);
  stall = Math.max(stall, performance.now() - last - 5);
  return { ms, stall };
}

async function bench(dialect: DialectName) {
  const h = await apiHarness(dialect, NOW);
  try {
    const db = h.t.db;
    const company = await aCompany(db, { timezone: 'America/Chicago', productTier: 'full' });
    const user = await aUser(db, company);
    const cookie = await h.login(user.email, user.password);
    await aShift(db, company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 870 });
    await aShift(db, company, { name: 'Swing', startoffsetminutes: 870, endoffsetminutes: 1320 });
    const scope = companyScope(db, company.id);
    const ids: string[] = [];
    const s0 = performance.now();
    let facts = 0;
    for (let m = 0; m < MACHINES; m++) {
      const id = await aMachine(db, company, { name: `M${String(m).padStart(2, '0')}`, sortOrder: m });
      ids.push(id);
      const rnd = mulberry32(m + 1);
      const states: Array<{ machine_id: string; start_at: number; end_at: number | null; state: string }> =
        [];
      const cycles: Array<{ start: number; end: number }> = [];
      for (let t = T0; t < NOW;) {
        const len = Math.floor((2 + rnd() * 10) * MIN);
        const state = rnd() < 0.65 ? 'ACTIVE' : rnd() < 0.8 ? 'INACTIVE' : 'FAULT';
        const end = Math.min(t + len, NOW);
        states.push({ machine_id: id, start_at: t, end_at: end >= NOW ? null : end, state });
        if (state === 'ACTIVE')
          for (let c = t + 2 * MIN; c <= end; c += 2 * MIN) cycles.push({ start: c - 2 * MIN, end: c });
        t = end;
      }
      for (let i = 0; i < states.length; i += 500)
        await scope.insertInto('state_intervals', states.slice(i, i + 500)).execute();
      for (let i = 0; i < cycles.length; i += 500) await someCycles(scope, id, cycles.slice(i, i + 500));
      await aJobWithRun(scope, {
        machineId: id,
        name: `Job ${m}`,
        expected: 2 * MIN,
        ideal: 110_000,
        jobCreatedAt: T0,
        start: T0,
        end: null,
      });
      facts += states.length + cycles.length;
      await recomputeRollups(db, {
        companyId: company.id,
        machineId: id,
        from: T0,
        to: NOW,
        now: NOW - 20 * MIN,
      });
    }
    console.log(
      `${dialect}: ${MACHINES} machines × ${DAYS} days, ${facts} state intervals and cycles, rollups stored (${Math.round(performance.now() - s0)} ms)`,
    );
    const mark = async (from: number) => {
      await db.deleteFrom('rollup_dirty').execute();
      await db
        .insertInto('rollup_dirty')
        .values(ids.map((id) => ({ machine_id: id, company_id: company.id, from_at: from, marked_at: NOW })))
        .execute();
    };
    const start = T0 + DAY - ((T0 + DAY) % DAY) + 6 * 3_600_000; // a Chicago midnight (CST)
    // By day up to tomorrow's start (day-aligned: the day rows, decision 0804); by hour up to now.
    const dayEnd = start + Math.ceil((NOW - start) / DAY) * DAY;
    const call = (interval: string) => async () => {
      const end = interval === 'day' ? dayEnd : NOW;
      const res = await h.get(`/api/reports/oee?start=${start}&end=${end}&interval=${interval}`, cookie);
      if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
      await res.json();
    };
    const results: Array<[string, number, number]> = [];
    for (const [label, from] of [
      ['marks at the range start (all from facts, as before)', start],
      ['marks 10 minutes before now (stored + tail)', NOW - 10 * MIN],
    ] as const) {
      await mark(from);
      for (const interval of ['day', 'hour']) {
        await call(interval)(); // warm
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(await timed(call(interval)));
        const ms = median(runs.map((r) => r.ms));
        const stall = Math.max(...runs.map((r) => r.stall));
        results.push([`${label}, by ${interval}`, ms, stall]);
      }
    }
    // Reference: no mark and rows computed up to now, so the stored rows alone (no fact read at all).
    for (const id of ids)
      await recomputeRollups(db, {
        companyId: company.id,
        machineId: id,
        from: NOW - DAY,
        to: NOW,
        now: NOW,
      });
    await db.deleteFrom('rollup_dirty').execute();
    for (const interval of ['day', 'hour']) {
      await call(interval)();
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await timed(call(interval)));
      results.push([
        `no mark, rows computed up to now (stored rows only), by ${interval}`,
        median(runs.map((r) => r.ms)),
        Math.max(...runs.map((r) => r.stall)),
      ]);
    }
    const base = results[0]![1];
    for (const [label, ms, stall] of results)
      console.log(
        `  ${label}: ${Math.round(ms)} ms (${(ms / base).toFixed(3)}), longest event-loop stall ${Math.round(stall)} ms`,
      );
  } finally {
    await h.close();
  }
}

for (const d of DIALECTS) await bench(d);
