// `npm run bench oee-reports`: the OEE and utilization report calls for 100 machines × 1 year by week
// (POST /api/reports/warehouse/production with every metric grouped by machine × interval, POST
// /api/oee/bymachine and /byabstractshift, GET /api/reports/utilization and /api/reports/oee), through
// app.request on stored rollups (hourly rows as ingest stores them, decision 0009, and the day rows written
// with them, decision 0804), on SQLite and on PostgreSQL. Printed as a ratio against a raw scan of the hourly
// rollup rows (select them all) measured in the same run; also the production call on a range that starts
// mid-day (the hourly path), the scans of the day rows and the week and day rows the calls read for week cells
// (loadRollupCells), and whether each call met the 200 ms target. Not a test: figures only.
// Run: npx tsx bench/oee-reports.ts [machines] [days] [sqlite|postgres|both]  (BENCH_PROFILE=dir: a CPU
// profile of the five calls alone, written to dir)
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import type { DialectName } from '@takt/db';
import { companyScope } from '@takt/db';
import {
  loadCalendar,
  loadRollupCells,
  loadRollupDays,
  loadRollups,
  writeRollupDays,
} from '@takt/db/rollups';
import type { EpochMs, ProductionResponse, Rollup, RollupMeasures } from '@takt/domain';
import {
  efficiency,
  companyDayRange,
  efficiencyTotalsSeries,
  epochMs,
  packRollups,
  reportIntervals,
  rollupBuckets,
  shopDateOf,
} from '@takt/domain';
import { apiHarness } from '../services/api/src/testing/app';
import { aCompany, aMachine, aUser } from '../services/api/src/testing/builders';
import { aShift } from '../services/api/src/testing/live-builders';
import { mulberry32 } from '../services/ingest/src/demo/demo-script';

const MACHINES = Number(process.argv[2] ?? 100);
const DAYS = Number(process.argv[3] ?? 365);
const WHICH = process.argv[4] ?? 'both';
const DIALECTS: DialectName[] = WHICH === 'both' ? ['sqlite', 'postgres'] : [WHICH as DialectName];
const RUNS = 3;
/** BENCH_PROFILE=dir: also write a CPU profile of the five calls (after seeding) to dir. */
const PROFILE = process.env.BENCH_PROFILE;
const START = Date.UTC(2024, 0, 1, 6); // 2024-01-01 00:00 in Chicago
/** About DAYS days on; bench() moves it to the nearest company-day start (DST changes on the way). */
const END_GUESS = START + DAYS * 86_400_000;
const NOW = END_GUESS + 2 * 86_400_000;

/** Plausible measures of one bucket: in cycle a random share, the rest split over planned setup and reasons. */
function measures(rnd: () => number, durationMs: number, inShift: boolean): RollupMeasures {
  const active = Math.floor(durationMs * rnd());
  const rest = durationMs - active;
  const setup = inShift ? Math.floor(rest * rnd() * 0.3) : 0;
  const jam = Math.floor((rest - setup) * rnd());
  const idle = rest - setup - jam;
  const cycles = Math.floor(active / 60_000);
  const rejected = rnd() < 0.1 ? 1 : 0;
  return {
    durationMs,
    stateMs: { ACTIVE: active, SETUP: setup, INACTIVE: idle, FAULT: jam, UNAVAILABLE: 0 },
    spindleMs: Math.floor(active * 0.9),
    inCutMs: Math.floor(active * 0.7),
    plannedDowntimeMs: setup,
    unplannedDowntimeMs: jam + idle,
    downtimeByReason: {
      setup: { plannedMs: setup, unplannedMs: 0 },
      jam: { plannedMs: 0, unplannedMs: jam },
      uncategorized: { plannedMs: 0, unplannedMs: idle },
    },
    cycles,
    idealMs: cycles * 45_000,
    standardRunMs: active,
    expectedMs: cycles * 60_000,
    parts: cycles,
    adjustmentCount: 0,
    rejected,
    rejectsByType: rejected ? { burr: rejected } : {},
    minExpectedPartTime: 60_000,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** One timed run, not warmed: for the hourly paths, which take seconds each (after the fast ones ran). */
async function timedOnce(f: () => Promise<unknown>): Promise<number> {
  const a = performance.now();
  await f();
  return performance.now() - a;
}
async function timed(f: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  await f(); // warm
  for (let i = 0; i < RUNS; i++) {
    const a = performance.now();
    await f();
    times.push(performance.now() - a);
  }
  return median(times);
}

async function bench(dialect: DialectName) {
  const h = await apiHarness(dialect, NOW);
  try {
    const db = h.t.db;
    const company = await aCompany(db, { timezone: 'America/Chicago', productTier: 'full' });
    const user = await aUser(db, company);
    const cookie = await h.login(user.email, user.password);
    await aShift(db, company, {
      name: 'Day',
      startoffsetminutes: 360,
      endoffsetminutes: 840,
      byweekday: [0, 1, 2, 3, 4],
    });
    await aShift(db, company, {
      name: 'Swing',
      startoffsetminutes: 840,
      endoffsetminutes: 1320,
      byweekday: [0, 1, 2, 3, 4],
    });
    const calendar = await loadCalendar(db, company.id);
    // Whole company days, so day-aligned reports may read the day rows (decision 0804).
    const END = companyDayRange(calendar, shopDateOf(calendar, epochMs(END_GUESS + 7_200_000))).start;
    const buckets = rollupBuckets(calendar, { start: START as EpochMs, end: END as EpochMs });
    const scope = companyScope(db, company.id);
    const ids: string[] = [];
    const s0 = performance.now();
    for (let m = 0; m < MACHINES; m++) {
      const id = await aMachine(db, company, { name: `M${String(m).padStart(3, '0')}`, sortOrder: m });
      ids.push(id);
      const rnd = mulberry32(m + 1);
      const domainRows: Rollup[] = buckets.map((b) => ({
        ...measures(rnd, b.end - b.start, b.shiftId !== null),
        machineId: id,
        start: epochMs(b.start),
        end: epochMs(b.end),
        shiftId: b.shiftId,
      }));
      const rows = domainRows.map(({ machineId: _m, start, end, shiftId, ...values }) => ({
        machine_id: id,
        start_at: start,
        end_at: end,
        shift_id: shiftId,
        measures: JSON.stringify(values),
        computed_at: NOW,
      }));
      await db.transaction().execute(async (trx) => {
        const t = companyScope(trx, company.id);
        for (let i = 0; i < rows.length; i += 1000)
          await t.insertInto('rollups', rows.slice(i, i + 1000)).execute();
        // The day rows as recomputeRollups writes them (the same writer, same transaction).
        await writeRollupDays(trx, {
          companyId: company.id,
          machineId: id,
          clock: calendar,
          from: START,
          to: END,
          rows: domainRows,
          computedAt: NOW,
        });
      });
    }
    const seedMs = performance.now() - s0;
    const rowCount = MACHINES * buckets.length;

    const body = {
      start: START,
      end: END,
      interval: 'week',
      data: [
        'oee',
        'ooe',
        'teep',
        'availability',
        'performance',
        'quality',
        'timeInCut',
        'timeInCycle',
        'timeSpindleRotating',
        'allTime',
        'utilizationRate',
      ],
      groupBy: ['machine', 'interval'],
    };
    let check: ProductionResponse | null = null;
    const send = async (method: 'GET' | 'POST', path: string, b?: unknown) => {
      const res = method === 'GET' ? await h.get(path, cookie) : await h.send(method, path, cookie, b);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    const call = async () => {
      check = (await send('POST', '/api/reports/warehouse/production', body)) as ProductionResponse;
    };
    // The same call on a range starting one hour into the first day: not on a company-day start, so it is
    // summed from the hourly rows (decision 0804 falls back to them), as every call was before.
    const hourlyCall = () =>
      send('POST', '/api/reports/warehouse/production', { ...body, start: START + 3_600_000 });
    const byBody = { start: START, end: END, intervalType: 'week' };
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['POST warehouse/production by week', call],
      ['POST oee/bymachine by week', () => send('POST', '/api/oee/bymachine', byBody)],
      ['POST oee/byabstractshift by week', () => send('POST', '/api/oee/byabstractshift', byBody)],
      [
        'GET reports/utilization by week',
        () => send('GET', `/api/reports/utilization?start=${START}&end=${END}&interval=week`),
      ],
      [
        'GET reports/oee by week',
        () => send('GET', `/api/reports/oee?start=${START}&end=${END}&interval=week`),
      ],
    ];
    const raw = () =>
      scope
        .selectFrom('rollups')
        .select(['machine_id', 'start_at', 'end_at', 'shift_id', 'measures'])
        .where('start_at', '<', END)
        .where('end_at', '>', START)
        .execute();
    const rawDays = () =>
      scope
        .selectFrom('rollup_days')
        .selectAll()
        .where('start_at', '>=', START)
        .where('start_at', '<', END)
        .execute();
    const parsed = () => loadRollups(scope, { machineIds: ids, start: START, end: END });
    const parsedDays = (reasons: boolean) => () =>
      loadRollupDays(scope, { machineIds: ids, start: START, end: END, reasons });

    const weekStarts = reportIntervals(
      calendar,
      { start: START as EpochMs, end: END as EpochMs },
      'week',
    ).map((w) => w.start);
    const cellsByWeek = () =>
      loadRollupCells(scope, {
        machineIds: ids,
        start: START,
        end: END,
        cellStarts: weekStarts,
        clock: calendar,
      });

    if (PROFILE) {
      // Only the five calls, each 5 times, in a CPU profile (open it in Chrome DevTools or speedscope).
      const session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      for (const [, f] of calls) for (let i = 0; i < 5; i++) await f();
      const { profile } = await session.post('Profiler.stop');
      const file = `${PROFILE}/oee-reports-${dialect}.cpuprofile`;
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
      console.log(`profile of the calls: ${file}`);
    }
    const rawMs = await timed(raw);
    const rawDaysMs = await timed(rawDays);
    const daysMs = await timed(parsedDays(false));
    const daysReasonsMs = await timed(parsedDays(true));
    const cellsMs = await timed(cellsByWeek);
    const cellCount = [...(await cellsByWeek()).series.values()].reduce((t, s) => t + s.length, 0);
    const callMs: Array<[string, number]> = [];
    for (const [name, f] of calls) callMs.push([name, await timed(f)]);
    const parsedMs = await timedOnce(parsed);
    const hourlyMs = await timedOnce(hourlyCall);
    // The summing alone, on rows already loaded (what the service does after loading).
    const rows = await parsed();
    const byMachine = new Map<string, typeof rows>(ids.map((id) => [id, []]));
    for (const r of rows) byMachine.get(r.machineId)!.push(r);
    const weeks = reportIntervals(calendar, { start: START as EpochMs, end: END as EpochMs }, 'week');
    const sumMs = await timedOnce(async () => {
      for (const list of byMachine.values()) {
        const s = packRollups(list);
        for (const w of weeks) efficiency(efficiencyTotalsSeries(s, w), { shiftFiltered: false });
      }
    });
    const dayCount = (await rawDays()).length;
    const result = check as ProductionResponse | null;
    if (!result || result.items.length !== MACHINES * weeks.length || result.aggregate.oee == null)
      throw new Error('the call did not answer from the stored rollups');

    const f = (ms: number) => `${ms.toFixed(0).padStart(6)} ms`;
    const line = (name: string, ms: number, note = '') =>
      console.log(`  ${name.padEnd(40)} ${f(ms)}   ${(ms / rawMs).toFixed(2)}${note}`);
    console.log(
      `\n${dialect}: ${MACHINES} machines × ${DAYS} days, ${rowCount} hourly rollup rows, ${dayCount} day rows (seeded in ${f(seedMs)})`,
    );
    line('raw scan of the hourly rows', rawMs);
    line('hourly rows + JSON parse (loadRollups)', parsedMs);
    line('raw scan of the day rows', rawDaysMs);
    line('day rows, numeric (loadRollupDays)', daysMs);
    line('day rows with reason maps', daysReasonsMs);
    line(`week/day rows for week cells (${cellCount})`, cellsMs);
    line('production, hourly path (mid-day start)', hourlyMs);
    for (const [name, ms] of callMs) line(name, ms);
    line(`summing alone, hourly (${MACHINES}×${weeks.length} cells)`, sumMs);
    console.log(`  aggregate OEE ${(result.aggregate.oee * 100).toFixed(1)} %, ${result.items.length} items`);
    // issue target: each call under 200 ms for 100 machines × 1 year by week (the median above).
    for (const [name, ms] of callMs)
      console.log(`  ${name.padEnd(40)} ${ms < 200 ? 'met' : 'MISSED'} 200 ms (${f(ms).trim()})`);
  } finally {
    await h.close();
  }
}

for (const d of DIALECTS) await bench(d);
