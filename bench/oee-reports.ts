// `npm run bench oee-reports`: POST /api/reports/warehouse/production for 100 machines × 1 year by week
// (every metric, groupBy machine × interval: each machine's sparkline), through app.request on the stored
// rollups (hourly buckets, as ingest stores them, decision 0009), on SQLite and on PostgreSQL. Printed as a
// ratio against a raw scan of the same rollup rows (select them all) measured in the same run, plus the
// scan with JSON parsing (loadRollups) and the summing alone. Not a test: figures only.
// Run: npx tsx bench/oee-reports.ts [machines] [days] [sqlite|postgres|both]
import { performance } from 'node:perf_hooks';
import type { DialectName } from '@takt/db';
import { companyScope } from '@takt/db';
import { loadCalendar, loadRollups } from '@takt/db/rollups';
import type { EpochMs, ProductionResponse, RollupMeasures } from '@takt/domain';
import {
  efficiency,
  efficiencyTotalsSeries,
  packRollups,
  reportIntervals,
  rollupBuckets,
} from '@takt/domain';
import { apiHarness } from '../services/api/src/testing/app';
import { aCompany, aMachine, aUser } from '../services/api/src/testing/builders';
import { aShift } from '../services/api/src/testing/live-builders';

const MACHINES = Number(process.argv[2] ?? 100);
const DAYS = Number(process.argv[3] ?? 365);
const WHICH = process.argv[4] ?? 'both';
const DIALECTS: DialectName[] = WHICH === 'both' ? ['sqlite', 'postgres'] : [WHICH as DialectName];
const RUNS = 3;
const START = Date.UTC(2024, 0, 1, 6); // 2024-01-01 00:00 in Chicago
const END = START + DAYS * 86_400_000 + 3_600_000; // whole company days (one DST hour more than lost)
const NOW = END + 86_400_000;

/** Deterministic PRNG (mulberry32) so runs are comparable. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

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
    expectedMs: cycles * 60_000,
    parts: cycles,
    adjustmentCount: 0,
    rejected,
    rejectsByType: rejected ? { burr: rejected } : {},
    minExpectedPartTime: 60_000,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
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
    const buckets = rollupBuckets(calendar, { start: START as EpochMs, end: END as EpochMs });
    const scope = companyScope(db, company.id);
    const ids: string[] = [];
    const s0 = performance.now();
    for (let m = 0; m < MACHINES; m++) {
      const id = await aMachine(db, company, { name: `M${String(m).padStart(3, '0')}`, sortOrder: m });
      ids.push(id);
      const rnd = prng(m + 1);
      const rows = buckets.map((b) => ({
        machine_id: id,
        start_at: b.start,
        end_at: b.end,
        shift_id: b.shiftId,
        measures: JSON.stringify(measures(rnd, b.end - b.start, b.shiftId !== null)),
        computed_at: NOW,
      }));
      await db.transaction().execute(async (trx) => {
        const t = companyScope(trx, company.id);
        for (let i = 0; i < rows.length; i += 1000)
          await t.insertInto('rollups', rows.slice(i, i + 1000)).execute();
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
    const call = async () => {
      const res = await h.send('POST', '/api/reports/warehouse/production', cookie, body);
      if (res.status !== 200) throw new Error(`production call: ${res.status} ${await res.text()}`);
      check = (await res.json()) as ProductionResponse;
    };
    const raw = () =>
      scope
        .selectFrom('rollups')
        .select(['machine_id', 'start_at', 'end_at', 'shift_id', 'measures'])
        .where('start_at', '<', END)
        .where('end_at', '>', START)
        .execute();
    const parsed = () => loadRollups(scope, { machineIds: ids, start: START, end: END });

    const rawMs = await timed(raw);
    const parsedMs = await timed(parsed);
    const callMs = await timed(call);
    // The summing alone, on rows already loaded (what the service does after loading).
    const rows = await parsed();
    const byMachine = new Map<string, typeof rows>(ids.map((id) => [id, []]));
    for (const r of rows) byMachine.get(r.machineId)!.push(r);
    const weeks = reportIntervals(calendar, { start: START as EpochMs, end: END as EpochMs }, 'week');
    const sumMs = await timed(async () => {
      for (const list of byMachine.values()) {
        const s = packRollups(list);
        for (const w of weeks) efficiency(efficiencyTotalsSeries(s, w), { shiftFiltered: false });
      }
    });
    const result = check as ProductionResponse | null;
    if (!result || result.items.length !== MACHINES * weeks.length || result.aggregate.oee == null)
      throw new Error('the call did not answer from the stored rollups');

    const f = (ms: number) => `${ms.toFixed(0).padStart(6)} ms`;
    console.log(
      `\n${dialect}: ${MACHINES} machines × ${DAYS} days, ${rowCount} hourly rollup rows (seeded in ${f(seedMs)})`,
    );
    console.log(`  raw scan (select the rows)          ${f(rawMs)}   1.00`);
    console.log(`  scan + JSON parse (loadRollups)     ${f(parsedMs)}   ${(parsedMs / rawMs).toFixed(2)}`);
    console.log(
      `  POST warehouse/production by week   ${f(callMs)}   ${(callMs / rawMs).toFixed(2)}   (target < 200 ms)`,
    );
    console.log(
      `  summing alone (pack + ${MACHINES}×${weeks.length} cells)  ${f(sumMs)}   ${(sumMs / rawMs).toFixed(2)}`,
    );
    console.log(`  aggregate OEE ${(result.aggregate.oee * 100).toFixed(1)} %, ${result.items.length} items`);
  } finally {
    await h.close();
  }
}

for (const d of DIALECTS) await bench(d);
