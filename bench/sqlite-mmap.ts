// Benchmark (decision 1229): SQLite's mmap_size for the report mix. On the plant of bench/report-load.ts (machines ×
// days of stored rollups, 40-odd days of states with their rows recomputed; bench/support/report-mix.ts), one client
// runs the whole mix (OEE, utilization, production, downtime; quick links and mid-hour ranges; shared answers off, so
// every call is computed) through the API in this process, again and again, alternating mmap_size 0 (SQLite's
// default: pages read with read(2) into its cache) and `mmap` MiB (pages read in place from the OS's file cache), on
// the same connection and file: rounds ABAB…, so the ratio holds whatever the machine's load of the moment. The
// first two rounds warm the file cache and are not counted. Printed: each mode's per-report p50 and the mix's total
// per round, the ratios, the load averages. Not a test.
//   npx tsx bench/sqlite-mmap.ts [machines=100] [days=120] [rounds=8] [mmap MiB=1024]
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { useSharedAnswers } from '../services/api/src/services/report-shared';
import { apiHarness } from '../services/api/src/testing/app';
import { aReportPlant } from './support/report-mix';

const MACHINES = Number(process.argv[2] ?? 100);
const DAYS = Number(process.argv[3] ?? 120);
const ROUNDS = Number(process.argv[4] ?? 8);
const MMAP = Number(process.argv[5] ?? 1024) * 2 ** 20;

const pct = (xs: readonly number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

const h = await apiHarness('sqlite', 0);
try {
  const { plant, reqs } = await aReportPlant(h, MACHINES, DAYS);
  useSharedAnswers(h.t.db, false);
  const cookie = await h.login(plant.user.email, plant.user.password);
  const times = { off: new Map<string, number[]>(), on: new Map<string, number[]>() };
  const totals = { off: [] as number[], on: [] as number[] };
  const loads: string[] = [];
  for (let round = 0; round < ROUNDS + 2; round++) {
    const mode = round % 2 === 0 ? 'off' : 'on';
    await sql`pragma ${sql.raw(`mmap_size = ${mode === 'on' ? MMAP : 0}`)}`.execute(h.t.db);
    const t0 = performance.now();
    for (const r of reqs) {
      const t = performance.now();
      const res =
        r.method === 'GET' ? await h.get(r.path, cookie) : await h.send(r.method, r.path, cookie, r.body);
      if (res.status !== 200) throw new Error(`${r.path}: ${res.status}`);
      await res.arrayBuffer();
      if (round < 2) continue; // warming the file cache
      const list = times[mode].get(r.report) ?? [];
      list.push(performance.now() - t);
      times[mode].set(r.report, list);
    }
    if (round >= 2) {
      totals[mode].push(performance.now() - t0);
      loads.push(load());
    }
  }
  const { rows } = await sql<{ mmap_size: number }>`pragma mmap_size`.execute(h.t.db);
  console.log(
    `sqlite-mmap: ${MACHINES} machines × ${DAYS} days, ${reqs.length} requests a round, ${ROUNDS} rounds ABAB ` +
      `(mmap_size 0 | ${MMAP / 2 ** 20} MiB, last set ${rows[0]?.mmap_size}); load averages ${loads.join(' | ')}`,
  );
  for (const report of [...times.off.keys(), 'all']) {
    const of = (mode: 'off' | 'on') =>
      report === 'all' ? [...times[mode].values()].flat() : (times[mode].get(report) ?? []);
    const a = pct(of('off'), 50);
    const b = pct(of('on'), 50);
    console.log(
      `  ${report.padEnd(12)} p50 mmap off ${a.toFixed(1)} ms, on ${b.toFixed(1)} ms: ${(b / a).toFixed(2)}×`,
    );
  }
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  console.log(
    `  the mix a round: off ${totals.off.map((x) => x.toFixed(0)).join(', ')} ms; on ${totals.on.map((x) => x.toFixed(0)).join(', ')} ms: ` +
      `${(sum(totals.on) / sum(totals.off)).toFixed(2)}×`,
  );
} finally {
  await h.close();
}
process.exit(0);
