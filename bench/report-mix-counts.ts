// Decision 1218: on the plant of bench/report-load.ts (bench/support/report-mix.ts `aReportPlant`, its recent days
// with runs, cycles, rejects and corrections: bench/support/recent-counts.ts), each OEE, utilization and production
// call of the mix answered twice: from the stored rows as the plant has them, and with every machine marked dirty
// from the states' first day (decision 1067: the rows before the mark read stored, everything from it built from
// the facts by the domain's code), compared as JSON (all but `recomputing`, which lists the marked machines). Also
// the plant's performance and quality over the states' days (not 0 nor null: the counts are there). Throws if any
// answer differs. Shared answers off. Not a test: a check of the bench's seed, and each call's time beside it.
// Run: npx tsx bench/report-mix-counts.ts [machines=100] [days=120] [sqlite|postgres]
import { loadavg } from 'node:os';
import type { DialectName } from '@takt/db';
import { useSharedAnswers } from '../services/api/src/services/report-shared';
import { apiHarness } from '../services/api/src/testing/app';
import { aReportPlant } from './support/report-mix';
import type { Req } from './support/report-mix';

const MACHINES = Number(process.argv[2] ?? 100);
const DAYS = Number(process.argv[3] ?? 120);
const DIALECT = (process.argv[4] ?? 'sqlite') as DialectName;

/** Where two answers first differ (a path and both values). */
function firstDifference(a: unknown, b: unknown, path = ''): string {
  if (JSON.stringify(a) === JSON.stringify(b)) return '';
  if (a && b && typeof a === 'object' && typeof b === 'object')
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        `${path}.${k}`,
      );
      if (d) return d;
    }
  return `${path}: ${JSON.stringify(a)?.slice(0, 200)} against ${JSON.stringify(b)?.slice(0, 200)}`;
}

const h = await apiHarness(DIALECT, 0);
try {
  const t0 = performance.now();
  const { plant, now, reqs, statesFrom, counts, factsMs, recomputeMs } = await aReportPlant(
    h,
    MACHINES,
    DAYS,
  );
  const buildS = (performance.now() - t0) / 1000;
  useSharedAnswers(h.t.db, false);
  const cookie = await h.login(plant.user.email, plant.user.password);
  const answer = async (r: Req) => {
    const s = performance.now();
    const res = await (r.method === 'GET' ? h.get(r.path, cookie) : h.send('POST', r.path, cookie, r.body));
    if (res.status !== 200) throw new Error(`${r.path}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as Record<string, unknown>;
    // Not figures: the machines being recomputed and the fingerprint of the rows read (both name the marks).
    delete body.recomputing;
    delete body.cacheToken;
    return { body, text: JSON.stringify(body), ms: performance.now() - s };
  };
  const days = Math.round((now - statesFrom) / 86_400_000);
  console.log(
    `OEE, utilization and production calls of the report mix on ${DIALECT}, ${MACHINES} machines × ${DAYS} days; ${days} days of states with ${counts.cycles} cycles, ${counts.runs} job runs, ${counts.adjustments} part adjustments; plant built in ${buildS.toFixed(0)} s (year ${(plant.seedMs / 1000).toFixed(0)} s, states and counts ${(factsMs / 1000).toFixed(0)} s, recompute ${(recomputeMs / 1000).toFixed(0)} s)`,
  );
  const calls = reqs.filter((r) => r.report !== 'downtime');
  const stored = [];
  for (const r of calls) stored.push(await answer(r));
  // Every machine's rows from the states' first day on are stale as far as the reports know: built from the facts.
  await h.t.db
    .insertInto('rollup_dirty')
    .values(
      plant.ids.map((machine_id) => ({
        machine_id,
        company_id: plant.company.id,
        from_at: statesFrom,
        marked_at: now,
      })),
    )
    .execute();
  let equal = 0;
  for (const [i, r] of calls.entries()) {
    const built = await answer(r);
    if (built.text !== stored[i]!.text)
      throw new Error(
        `${firstDifference(stored[i]!.body, built.body)}; ` +
          `${r.report} ${r.label}: the stored rows' answer differs from the facts'`,
      );
    equal++;
    console.log(
      `  ${r.report.padEnd(12)} ${r.label.padEnd(18)} stored rows ${stored[i]!.ms.toFixed(0).padStart(5)} ms, from the facts ${built.ms.toFixed(0).padStart(6)} ms`,
    );
  }
  await h.t.db.deleteFrom('rollup_dirty').execute();
  // The plant's factors over the states' whole days (the figures the mix's recent calls read).
  const week = calls.find((r) => r.report === 'oee' && r.label === 'last week')!;
  const { body } = await answer(week);
  console.log(`  last week's efficiency: ${JSON.stringify(body.efficiency)}`);
  console.log(
    `  answers equal to the facts': ${equal} of ${calls.length}; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await h.close();
}
process.exit(0);
