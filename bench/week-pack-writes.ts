// What decision 1235's packs cost the week rows' writer (the rollup worker's recompute of a machine-day). On the kept
// plant of bench/report-answer.ts (BENCH_KEEP=takt_name, 100 machines × DAYS), writeRollupDays of one machine's last
// company day (new random rows, so its day and week rows change) in a transaction rolled back afterwards, for each of
// the first K machines: this tree (its packs rewritten too) against BENCH_OLD (a worktree of the start commit: no
// packs), interleaved (old new, new old, …), median per side, with the load average beside each pair.
// Not a test: figures only.
// Run: BENCH_KEEP=takt_x BENCH_OLD=dir npx tsx bench/week-pack-writes.ts [machines] [days] [sqlite|postgres] [pairs] [K]
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { Database, DialectName } from '@takt/db';
import { writeRollupDays } from '@takt/db/rollups';
import { companyDayRange, epochMs, rollupBuckets, shopDateOf } from '@takt/domain';
import type { EpochMs, Rollup } from '@takt/domain';
import { apiHarnessOn } from '../services/api/src/testing/app';
import { mulberry32 } from '../services/ingest/src/demo/demo-script';
import { keptDb, keptYearOfRollups } from './support/kept-plant';
import { measures, YEAR_START } from './support/year-of-rollups';

const MACHINES = Number(process.argv[2] ?? 100);
const DAYS = Number(process.argv[3] ?? 365);
const DIALECT = (process.argv[4] ?? 'sqlite') as DialectName;
const PAIRS = Number(process.argv[5] ?? 5);
const K = Number(process.argv[6] ?? 20);
const KEEP = process.env.BENCH_KEEP;
const OLD = process.env.BENCH_OLD;
if (!KEEP || !OLD) throw new Error('BENCH_KEEP and BENCH_OLD are needed');
const NOW = YEAR_START + (DAYS + 2) * 86_400_000;

type Writer = typeof writeRollupDays;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => loadavg()[0]!.toFixed(1);

const t = await keptDb(DIALECT, KEEP);
const h = apiHarnessOn(t, NOW);
const old = {
  ...(await import(`${OLD}/packages/db/src/rollups/days.ts`)),
  ...(await import(`${OLD}/packages/db/src/connect.ts`)),
} as {
  writeRollupDays: Writer;
  openDb: (url: string) => { db: Kysely<Database>; close: () => Promise<void> };
};
const oldHandle = old.openDb(t.url);
try {
  const plant = await keptYearOfRollups(h, MACHINES, DAYS, NOW);
  const calendar = plant.calendar;
  const lastDay = companyDayRange(calendar, shopDateOf(calendar, epochMs(plant.end - 3_600_000)));
  const buckets = rollupBuckets(calendar, { start: lastDay.start as EpochMs, end: plant.end as EpochMs });
  let seed = 1;
  let at = NOW;
  /** One machine's last day written by `write` on `db` in a transaction rolled back: its ms. */
  const once = async (db: Kysely<Database>, write: Writer, machineId: string) => {
    const rnd = mulberry32(seed++);
    const rows: Rollup[] = buckets.map((b) => ({
      ...measures(rnd, b.end - b.start, b.shiftId !== null),
      machineId,
      start: epochMs(b.start),
      end: epochMs(b.end),
      shiftId: b.shiftId,
    }));
    const a = performance.now();
    let ms = 0;
    await db
      .transaction()
      .execute(async (trx) => {
        await write(trx, {
          companyId: plant.company.id,
          machineId,
          clock: calendar,
          from: lastDay.start,
          to: plant.end,
          rows,
          computedAt: ++at,
          changed: true,
        });
        ms = performance.now() - a;
        throw new Error('rolled back');
      })
      .catch((e: unknown) => {
        if (!(e instanceof Error) || e.message !== 'rolled back') throw e;
      });
    return ms;
  };
  const side = async (isNew: boolean) => {
    const times: number[] = [];
    for (const id of plant.ids.slice(0, K))
      times.push(
        await once(isNew ? h.t.db : oldHandle.db, isNew ? writeRollupDays : old.writeRollupDays, id),
      );
    return median(times);
  };
  await side(false);
  await side(true); // warm-up
  console.log(`${DIALECT}: writeRollupDays of one machine's last day, ${K} machines a side, median (ms)`);
  for (let p = 0; p < PAIRS; p++) {
    const l0 = load();
    const order = p % 2 === 0 ? [false, true] : [true, false];
    const r = new Map<boolean, number>();
    for (const isNew of order) r.set(isNew, await side(isNew));
    const [o, n] = [r.get(false)!, r.get(true)!];
    console.log(
      `  pair ${p + 1}: ${o.toFixed(1)} → ${n.toFixed(1)} ms (${(n / o).toFixed(2)}, load ${l0}–${load()})`,
    );
  }
} finally {
  await oldHandle.close();
  await h.close();
}
