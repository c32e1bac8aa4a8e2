// Benchmark: the route fuzz (services/api/src/testing/fuzz-routes.ts) at scale. At least 100,000 generated
// requests spread evenly over every route of the app's route table, as a signed-in root admin, on a fresh
// database; then the same number of GET /healthz in the same run as the baseline. A route that waits by design
// (POST /api/tablets/refresh-all waits for the tablets' sockets to answer) keeps its first-round share only, and
// the others take its cases, so the run stays minutes long. Prints the answers by
// status, cases/s of both and their ratio, the slowest routes, resident memory by tenths of the run (it must
// stay flat), and every 5xx or content-type failure (decision 0994: 415 exactly for a non-empty body not
// labelled JSON; there must be none: the run exits 1 otherwise, and also when /healthz does not answer 200
// afterwards).
//
//   npm run bench -- fuzz-routes            (SQLite)
//   node --import tsx bench/fuzz-routes.ts postgres [cases]
//   node --expose-gc --import tsx bench/fuzz-routes.ts sqlite 100000   (also the live heap after each collection)
import type { DialectName } from '@takt/db';
import { apiHarness } from '../services/api/src/testing/app';
import { aFuzzCaller, fuzz, fuzzTargets } from '../services/api/src/testing/fuzz-routes';

const dialect = (process.argv[2] ?? 'sqlite') as DialectName;
const wanted = Number(process.argv[3] ?? 100_000);

const h = await apiHarness(dialect);
try {
  const caller = await aFuzzCaller(h);
  const targets = fuzzTargets(h.app, caller.shop);
  const seed = Date.now();
  const FIRST = 16;
  /** A route slower than this per case in the first round is one that waits by design. */
  const WAITING_MS = 200;

  const spent = new Map<string, number>();
  const byStatus = new Map<number, number>();
  const failures: string[] = [];
  let cases = 0;
  // Memory over the run: one sample per tenth of the wanted cases, to show it stays flat. Resident memory, and
  // the live heap after a full collection when node runs with --expose-gc (RSS alone also shows how lazily V8
  // gives memory back).
  const MB = 1024 * 1024;
  const gc = (globalThis as { gc?: () => void }).gc;
  const memory = async () => {
    // Collect, let the finalizers it queued run, collect what they freed.
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc?.();
    const m = process.memoryUsage();
    return { cases, mb: m.rss / MB, heapMb: m.heapUsed / MB };
  };
  const rss: Array<{ cases: number; mb: number; heapMb: number }> = [await memory()];
  const sampleRss = async () => {
    if (cases >= (rss.at(-1)!.cases || 0) + wanted / 10) rss.push(await memory());
  };
  const round = async (list: typeof targets, runs: number, offset: number) => {
    for (const [n, target] of list.entries()) {
      const t0 = performance.now();
      const r = await fuzz(h, caller, [target], runs, seed + offset + n);
      const route = `${target.method} ${target.path}`;
      spent.set(route, (spent.get(route) ?? 0) + performance.now() - t0);
      for (const [s, k] of r.byStatus) byStatus.set(s, (byStatus.get(s) ?? 0) + k);
      failures.push(...r.failures);
      cases += r.cases;
      await sampleRss();
    }
  };
  const started = performance.now();
  await round(targets, FIRST, 0);
  const quick = targets.filter((t) => spent.get(`${t.method} ${t.path}`)! / FIRST < WAITING_MS);
  const waiting = targets.filter((t) => !quick.includes(t)).map((t) => `${t.method} ${t.path}`);
  const runs = Math.ceil(Math.max(0, wanted - cases) / quick.length);
  console.log(
    `${targets.length} routes on ${dialect} (fast-check seed ${seed}): ${FIRST} cases each, then ${runs} more for ` +
      `each of ${quick.length}${waiting.length ? ` (not for ${waiting.join(', ')}: they wait by design)` : ''}`,
  );
  await round(quick, runs, 1_000_000);
  const fuzzSeconds = (performance.now() - started) / 1000;

  const baseStarted = performance.now();
  for (let i = 0; i < cases; i++) {
    const res = await h.app.request('/healthz');
    await res.body?.cancel();
  }
  const baseSeconds = (performance.now() - baseStarted) / 1000;
  const healthy = (await h.app.request('/healthz')).status === 200;

  const rate = cases / fuzzSeconds;
  const baseRate = cases / baseSeconds;
  console.log(`fuzzed cases:    ${cases} in ${fuzzSeconds.toFixed(1)} s = ${rate.toFixed(0)} cases/s`);
  console.log(`GET /healthz:    ${cases} in ${baseSeconds.toFixed(1)} s = ${baseRate.toFixed(0)} requests/s`);
  console.log(`ratio:           ${(rate / baseRate).toFixed(3)}x the baseline's rate`);
  console.log('answers by status:');
  for (const [status, count] of [...byStatus].sort((a, b) => a[0] - b[0]))
    console.log(`  ${status}: ${count}`);
  console.log('slowest routes (s for all their cases):');
  for (const [route, ms] of [...spent].sort((a, b) => b[1] - a[1]).slice(0, 8))
    console.log(`  ${(ms / 1000).toFixed(1).padStart(6)}  ${route}`);
  rss.push(await memory());
  console.log(`RSS (MB) by cases: ${rss.map((r) => `${r.cases}: ${r.mb.toFixed(0)}`).join(', ')}`);
  if (gc) {
    console.log(
      `heap after GC (MB) by cases: ${rss.map((r) => `${r.cases}: ${r.heapMb.toFixed(0)}`).join(', ')}`,
    );
  }
  const afterFirstTenth = rss[1]?.mb ?? rss[0]!.mb;
  console.log(
    `RSS growth after the first tenth: ${(rss.at(-1)!.mb - afterFirstTenth).toFixed(0)} MB ` +
      `(max ${Math.max(...rss.map((r) => r.mb)).toFixed(0)} MB)`,
  );
  console.log(`failures (5xx, or 415 not exactly for bodies not labelled JSON): ${failures.length}`);
  for (const f of failures.slice(0, 50)) console.log(`  ${f}`);
  console.log(`GET /healthz after the fuzz: ${healthy ? '200' : 'NOT 200'}`);
  process.exitCode = failures.length > 0 || !healthy ? 1 : 0;
} finally {
  await h.close();
}
