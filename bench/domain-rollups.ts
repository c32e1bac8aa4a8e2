// Build rollups for 100 machines × 365 days at about one state change per minute, then
// sum a year-by-week OEE report per machine from them. Prints both times (the sum should take < 50 ms),
// with a baseline measured in the same run (a bare loop over the same rows) as a ratio.
// Run: npx tsx bench/domain-rollups.ts [machines] [days]
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type {
  CompanyCalendar,
  EpochMs,
  MachineCycle,
  MachineState,
  Rollup,
  StateInterval,
} from '@takt/domain';
import {
  applyStandards,
  buildRollups,
  efficiency,
  efficiencyTotalsSeries,
  efficiencyTotalsSorted,
  packRollups,
  reportIntervals,
  rollupBuckets,
  type RunStandards,
} from '@takt/domain';
import { mulberry32 } from '../services/ingest/src/demo/demo-script';

const MACHINES = Number(process.argv[2] ?? 100);
const DAYS = Number(process.argv[3] ?? 365);

const calendar: CompanyCalendar = {
  timezone: 'America/Chicago',
  currentTimeContext: { offset_millis: 0 },
  shifts: [
    {
      id: 'day',
      name: 'Day',
      versions: [
        {
          startoffsetminutes: 360,
          endoffsetminutes: 840,
          byweekday: [0, 1, 2, 3, 4],
          effectivedate: '2020-01-01',
        },
      ],
    },
    {
      id: 'swing',
      name: 'Swing',
      versions: [
        {
          startoffsetminutes: 840,
          endoffsetminutes: 1320,
          byweekday: [0, 1, 2, 3, 4],
          effectivedate: '2020-01-01',
        },
      ],
    },
  ],
};
const start = Date.parse('2024-01-01T06:00:00Z') as EpochMs; // 00:00 in Chicago
const end = (start + DAYS * 86_400_000 + 3_600_000) as EpochMs; // + the DST hour, still whole days
const range = { start, end };

/** One machine's history: state changes on average once a minute, a cycle every few active minutes. */
function history(seed: number): { intervals: StateInterval[]; cycles: MachineCycle[] } {
  const rnd = mulberry32(seed);
  const intervals: StateInterval[] = [];
  const cycles: MachineCycle[] = [];
  const states: MachineState[] = [
    'ACTIVE',
    'INACTIVE',
    'ACTIVE',
    'FAULT',
    'ACTIVE',
    'INACTIVE',
    'UNAVAILABLE',
  ];
  let t: number = start;
  let k = 0;
  while (t < end) {
    const len = Math.max(1000, Math.round(-Math.log(1 - rnd()) * 60_000)); // exponential, mean 1 min
    const e = Math.min(end, t + len);
    const state = states[k++ % states.length] as MachineState;
    intervals.push({ start: t as EpochMs, end: e as EpochMs, state, reason: null });
    if (state === 'ACTIVE' && rnd() < 0.5) {
      cycles.push({
        start: t as EpochMs,
        end: e as EpochMs,
        duration: (e - t) as never,
        count: 1,
        source: 'part_count',
        setup: false,
      });
    }
    t = e;
  }
  return { intervals, cycles };
}

const run: RunStandards = {
  id: 'run',
  jobId: 'job',
  start,
  end: null,
  productionStart: start,
  expectedCycleTime: 60_000,
  idealCycleTime: 45_000,
  partBehavior: 'one',
  startInSetup: 'none',
};

const t0 = performance.now();
const buckets = rollupBuckets(calendar, range);
const tBuckets = performance.now() - t0;

let intervalCount = 0;
const rowsByMachine: Rollup[][] = [];
let generateMs = 0;
let buildMs = 0;
for (let m = 0; m < MACHINES; m++) {
  const g0 = performance.now();
  const h = history(m + 1);
  const g1 = performance.now();
  intervalCount += h.intervals.length;
  rowsByMachine.push(
    buildRollups(
      { machineId: `m${m}`, intervals: h.intervals, cycles: applyStandards(h.cycles, [run]), runs: [run] },
      buckets,
    ),
  );
  buildMs += performance.now() - g1;
  generateMs += g1 - g0;
}
const rowCount = rowsByMachine.reduce((s, r) => s + r.length, 0);

const weeks = reportIntervals(calendar, range, 'week');

const p0 = performance.now();
const series = rowsByMachine.map((rows) => packRollups(rows));
const packMs = performance.now() - p0;

/** The report from packed series (how the API keeps loaded rollups). */
function sumReport(): number {
  let check = 0;
  for (const s of series) {
    for (const w of weeks) {
      const e = efficiency(efficiencyTotalsSeries(s, w), { shiftFiltered: false });
      check += e.oee ?? 0;
    }
  }
  return check;
}

/** The same report straight from the row objects. */
function sumReportRows(): number {
  let check = 0;
  for (const rows of rowsByMachine) {
    for (const w of weeks) {
      const e = efficiency(efficiencyTotalsSorted(rows, w), { shiftFiltered: false });
      check += e.oee ?? 0;
    }
  }
  return check;
}

function baseline(): number {
  // The floor: touching every row once and adding one field.
  let s = 0;
  for (const rows of rowsByMachine) for (const r of rows) s += r.stateMs.ACTIVE;
  return s;
}

// Let the collector finish with the build's garbage first, so the timing is the report's own work.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
gc();
// Warm up, then take the median of several runs.
sumReport();
sumReportRows();
baseline();
if (Math.abs(sumReport() - sumReportRows()) > 1e-9) throw new Error('packed and row sums differ');
const median = (f: () => unknown, n = 7) => {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = performance.now();
    f();
    times.push(performance.now() - a);
  }
  return times.sort((x, y) => x - y)[Math.floor(n / 2)] as number;
};
const sumMs = median(sumReport);
const rowsMs = median(sumReportRows);
const baseMs = median(baseline);
const coldStart = performance.now();
sumReport();
const once = performance.now() - coldStart;

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
console.log(
  `machines ${MACHINES}, days ${DAYS}, state intervals ${intervalCount.toLocaleString('en-US')}, rollup rows ${rowCount.toLocaleString('en-US')}`,
);
console.log(`buckets for the range (once per company): ${buckets.length} in ${fmt(tBuckets)}`);
console.log(`generate synthetic history: ${fmt(generateMs)}`);
console.log(
  `build rollups: ${fmt(buildMs)} (${((buildMs / intervalCount) * 1e6).toFixed(0)} ns per interval)`,
);
console.log(`pack rows into series (once per load): ${fmt(packMs)}`);
console.log(
  `year-by-week OEE report per machine (${MACHINES} × ${weeks.length} cells) from series: median ${fmt(sumMs)}, last ${fmt(once)} — target < 50 ms`,
);
console.log(`same report from row objects: median ${fmt(rowsMs)}`);
console.log(
  `baseline (bare loop reading one field of every row object): ${fmt(baseMs)}; series report / baseline = ${(sumMs / Math.max(baseMs, 1e-3)).toFixed(2)}×`,
);
if (sumMs >= 50) {
  console.log('WARNING: the report sum is above the 50 ms target');
}
