// Statements a report call runs on PostgreSQL, by report and range (decision 1197): the report-load mix
// (bench/support/report-mix.ts) over MACHINES × DAYS of stored rollups and 40-odd days of states (their rows
// recomputed, decision 1211), each call once warm, then counted (bench/support/pool-watch.ts). BENCH_TEXTS=1 also
// prints the statements repeated within a call (the N+1 reads), most repeated first, and the texts that ran longest.
// call's answer from that checkout's API on the same database (bench/support/old-api.ts), compared byte for byte
// (its statements are not counted: its own pg).
// Figures only; each call's wall time beside its statements (decision 1201), noisy: compare in one run.
// BENCH_OLD with BENCH_REPEAT=n: n more calls of each side per call, alternating, medians and the ratio new/old.
// BENCH_ONLY=regexp of report/label: only those calls.
// Run: npx tsx bench/report-statements.ts [machines=100] [days=120] [postgres|sqlite]
//   e.g. BENCH_OLD=/work/old BENCH_REPEAT=5 BENCH_ONLY=downtime npx tsx bench/report-statements.ts 100 120
import { CompiledQuery } from 'kysely';
import { useSharedAnswers } from '../services/api/src/services/report-shared';
import { apiHarness } from '../services/api/src/testing/app';
import { oldApiOn } from './support/old-api';
import {
  apiStatements,
  asApi,
  keepTexts,
  keptTexts,
  keptTimes,
  resetTallies,
  watchPools,
} from './support/pool-watch';
import { aReportPlant } from './support/report-mix';

const MACHINES = Number(process.argv[2] ?? 100);
const DAYS = Number(process.argv[3] ?? 120);
const TEXTS = process.env.BENCH_TEXTS === '1' || process.env.BENCH_CALL !== undefined;
const REPEAT = Number(process.env.BENCH_REPEAT ?? 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

watchPools();
if (TEXTS) keepTexts();
// A third argument `sqlite` runs the calls on SQLite (decision 1205: for the old/new times; statements counted 0).
const DIALECT = process.argv[4] === 'sqlite' ? 'sqlite' : 'postgres';
const h = await apiHarness(DIALECT, 0);
try {
  // The plant of report-load (decision 1211: the last 40-odd days' rows recomputed from their states).
  const { plant, now, reqs } = await aReportPlant(h, MACHINES, DAYS);
  useSharedAnswers(h.t.db, false); // every call computed
  const cookie = await h.login(plant.user.email, plant.user.password);
  const old = process.env.BENCH_OLD ? await oldApiOn(process.env.BENCH_OLD, h, now) : null;
  old?.useSharedAnswers(false);
  const call = async (r: (typeof reqs)[number], on = h) => {
    const res = await asApi(() =>
      r.method === 'GET' ? on.get(r.path, cookie) : on.send('POST', r.path, cookie, r.body),
    );
    if (res.status !== 200) throw new Error(`${r.path}: ${res.status} ${await res.text()}`);
    return res.text();
  };
  let equal = 0;
  for (const r of reqs) await call(r); // warm: caches as a running node holds them
  const byReport = new Map<string, number[]>();
  const repeated = new Map<string, number>();
  console.log(
    `statements a call on ${DIALECT}, ${MACHINES} machines × ${DAYS} days (warm, every call computed):`,
  );
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
  for (const r of reqs) {
    if (only && !only.test(`${r.report}/${r.label}`)) continue;
    resetTallies();
    const t0 = performance.now();
    const answer = await call(r);
    const ms = performance.now() - t0;
    const n = apiStatements();
    let vsOld = '';
    if (old) {
      old.h.clock.now = now;
      if ((await call(r, old.h)) !== answer) throw new Error(`${r.report} ${r.label}: the answers differ`);
      equal++;
      // BENCH_REPEAT=n (decision 1205): n more calls of each side, alternating which goes first (ABBA), their
      // medians and the ratio new/old.
      const times = { old: [] as number[], new: [] as number[] };
      const timed = async (side: 'old' | 'new') => {
        const t = performance.now();
        await call(r, side === 'old' ? old.h : h);
        times[side].push(performance.now() - t);
      };
      for (let k = 0; k < REPEAT; k++)
        for (const side of k % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const))
          await timed(side);
      if (REPEAT > 0) {
        const [o, n] = [median(times.old), median(times.new)];
        vsOld = ` | old ${o.toFixed(0).padStart(5)} ms, new ${n.toFixed(0).padStart(5)} ms (${(n / o).toFixed(2)})`;
      }
    }
    byReport.set(r.report, [...(byReport.get(r.report) ?? []), n]);
    const counts = new Map<string, number>();
    for (const t of keptTexts()) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [t, c] of counts) if (c > 1) repeated.set(t, (repeated.get(t) ?? 0) + c);
    console.log(
      `  ${r.report.padEnd(12)} ${r.label.padEnd(18)} ${String(n).padStart(4)} ${ms.toFixed(0).padStart(6)} ms${vsOld}`,
    );
    // BENCH_CALL=regexp of report/label: those calls's statements, in order.
    if (process.env.BENCH_CALL && new RegExp(process.env.BENCH_CALL).test(`${r.report}/${r.label}`))
      for (const t of keptTexts()) console.log(`      ${t.replace(/\s+/g, ' ').slice(0, 200)}`);
  }
  for (const [report, ns] of byReport)
    console.log(
      `  ${report.padEnd(12)} mean ${(ns.reduce((a, b) => a + b, 0) / ns.length).toFixed(1)}, max ${Math.max(...ns)}`,
    );
  const all = [...byReport.values()].flat();
  if (old) console.log(`  answers equal to ${process.env.BENCH_OLD}'s: ${equal} of ${equal}`);
  console.log(
    `  all          mean ${(all.reduce((a, b) => a + b, 0) / all.length).toFixed(1)} over ${all.length} calls`,
  );
  if (TEXTS)
    for (const [t, c] of [...repeated].sort((a, b) => b[1] - a[1]).slice(0, 25))
      console.log(`  ×${c} ${t.replace(/\s+/g, ' ').slice(0, 300)}`);
  // The texts that ran longest in all (every call, BENCH_REPEAT's included).
  if (TEXTS)
    for (const [t, { n, ms }] of keptTimes().slice(0, 15))
      console.log(
        `  ${(ms / 1000).toFixed(2)} s in ${n} runs (${(ms / n).toFixed(1)} ms each): ${t.replace(/\s+/g, ' ').slice(0, 300)}`,
      );
  // BENCH_EXPLAIN=n: the plans of the n texts that ran longest, with their slowest run's values (PostgreSQL).
  for (const [t, { values }] of keptTimes().slice(0, Number(process.env.BENCH_EXPLAIN ?? 0))) {
    const plan = await h.t.db.executeQuery<Record<string, string>>(
      CompiledQuery.raw(`explain (analyze, buffers) ${t}`, values ?? []),
    );
    console.log(`\n  ${t.replace(/\s+/g, ' ').slice(0, 200)}`);
    for (const row of plan.rows) console.log(`    ${Object.values(row)[0]}`);
  }
  await old?.close();
} finally {
  await h.close();
}
process.exit(0);
