// The cold week index's read of a company's packs (decision 1235) on PostgreSQL: this tree's storedWeekPacks (decision
// 1240: COPY's binary format, the bytes as stored) against another checkout's (BENCH_OLD=dir: its own pg and kysely on
// the same database, e.g. a select with encode(pack, 'base64')), alternating, ROUNDS a side: medians of the wall time
// and of this process's CPU a read (PostgreSQL's own CPU not counted), with the load average; the packs read equal.
// On the kept plant of bench/report-answer.ts (BENCH_KEEP=takt_name, seeded there first). Figures only.
// BENCH_KEEP_OLD=takt_name: the old checkout reads that database instead (decision 1242: packs of another version, the
// same plant: e.g. a copy of BENCH_KEEP's with its packs as the old writer stored them, testing's writeVersionOnePacks).
// Run: BENCH_KEEP=takt_h4 BENCH_OLD=/work/old npx tsx bench/week-pack-reads.ts [rounds=20]
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { companyScope, openDb } from '@takt/db';
import type { CompanyScope, Database } from '@takt/db';
import { storedWeekPacks } from '@takt/db/rollups';
import type { PackedWeeks } from '@takt/db/rollups';
import { TEST_PG_URL } from '@takt/db/testing';
import type { Kysely } from 'kysely';

const ROUNDS = Number(process.argv[2] ?? 20);
const KEEP = process.env.BENCH_KEEP;
const OLD = process.env.BENCH_OLD;
const KEEP_OLD = process.env.BENCH_KEEP_OLD ?? KEEP;
if (!KEEP || !/^takt_[a-z0-9_]+$/.test(KEEP) || !/^takt_[a-z0-9_]+$/.test(KEEP_OLD ?? '') || !OLD)
  throw new Error('BENCH_KEEP=takt_… and BENCH_OLD=dir needed');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const url = new URL(TEST_PG_URL);
url.pathname = `/${KEEP}`;
const oldUrl = new URL(TEST_PG_URL);
oldUrl.pathname = `/${KEEP_OLD}`;

type Read = (scope: CompanyScope) => Promise<PackedWeeks>;
const old = {
  ...(await import(`${OLD}/packages/db/src/connect.ts`)),
  ...(await import(`${OLD}/packages/db/src/scope.ts`)),
  ...(await import(`${OLD}/packages/db/src/rollups/week-packs.ts`)),
} as {
  openDb: typeof openDb;
  companyScope: typeof companyScope;
  storedWeekPacks: Read;
};
const mine = openDb(url.toString());
const theirs = old.openDb(oldUrl.toString());
try {
  const company = await (mine.db as Kysely<Database>)
    .selectFrom('companies')
    .select('id')
    .executeTakeFirstOrThrow();
  const sides: Array<[string, Read, CompanyScope]> = [
    ['old', old.storedWeekPacks, old.companyScope(theirs.db, company.id)],
    ['new', storedWeekPacks, companyScope(mine.db, company.id)],
  ];
  const shape = (p: PackedWeeks) =>
    JSON.stringify(
      [...p.weeks]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([id, w]) => [id, w.series.length, [...w.computedAt].slice(0, 3)]),
    );
  const seen = await Promise.all(sides.map(([, read, scope]) => read(scope)));
  if (shape(seen[0]!) !== shape(seen[1]!)) throw new Error('the packs read differ');
  const times = new Map(sides.map(([name]) => [name, { ms: [] as number[], cpu: [] as number[] }]));
  const l0 = loadavg()[0]!.toFixed(1);
  for (let r = 0; r < ROUNDS; r++)
    for (const [name, read, scope] of r % 2 === 0 ? sides : [...sides].reverse()) {
      const [a, c] = [performance.now(), process.cpuUsage()];
      await read(scope);
      times.get(name)!.ms.push(performance.now() - a);
      const used = process.cpuUsage(c);
      times.get(name)!.cpu.push((used.user + used.system) / 1000);
    }
  const [o, n] = [times.get('old')!, times.get('new')!];
  console.log(
    `${seen[1]!.weeks.size} machines' packs, ${ROUNDS} reads a side alternating (load ${l0}–${loadavg()[0]!.toFixed(1)}): ` +
      `wall ${median(o.ms).toFixed(1)} → ${median(n.ms).toFixed(1)} ms (${(median(n.ms) / median(o.ms)).toFixed(2)}), ` +
      `CPU ${median(o.cpu).toFixed(1)} → ${median(n.cpu).toFixed(1)} ms (${(median(n.cpu) / median(o.cpu)).toFixed(2)}); equal`,
  );
} finally {
  await mine.close();
  await theirs.close();
}
