// Benchmark (issue 30 point 3, decision 1184): do packed raw observations slow the live reads? Two PostgreSQL
// databases get the same M machines × H hours of the soak's script (a line a second: feed rate and program, execution
// and part count every fourth), a minute at a time: one keeps rows (as before packing: the baseline), the other is
// packed after every minute as the retention worker packs. The reads of the live path are timed on the rows through
// the view, and on the packs through observationsBetween (what the readers call now) and through the plain view
// (what an unconverted reader would pay). Prints medians and ratios to the baseline.
//   npx tsx bench/pack-reads.ts [machines=200] [hours=3] [rounds=15]
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { companyScope, insertObservations, observationsBetween, packObservations } from '@takt/db';
import type { ObservationRow } from '@takt/db';
import { freshDb } from '@takt/db/testing';
import { line } from './support/soak-script';
import { latestPerKey } from '../services/api/src/repositories/diagnostics';
import { keysSeenSince } from '../services/api/src/repositories/dashboard';

const MACHINES = Number(process.argv[2] ?? 200);
const HOURS = Number(process.argv[3] ?? 3);
const ROUNDS = Number(process.argv[4] ?? 15);
const NOW = Date.now();
const FROM = NOW - HOURS * 3_600_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Stores the machines' lines minute by minute; `each` runs after every minute stored (the packer's pass). */
async function fill(db: Kysely<Database>, each: (at: number) => Promise<unknown>) {
  const ids = Array.from({ length: MACHINES }, (_, i) => `m${i}`);
  for (let s0 = 0; s0 < HOURS * 3600; s0 += 60) {
    const rows: ObservationRow[] = [];
    for (let s = s0; s < s0 + 60; s++)
      for (let i = 0; i < MACHINES; i++)
        for (const o of line(i, s))
          rows.push({
            company_id: 'c1',
            machine_id: ids[i]!,
            ts: FROM + s * 1000,
            key: o.key,
            value: o.value,
          });
    await db.transaction().execute((trx) => insertObservations(trx, rows));
    await each(FROM + (s0 + 60) * 1000);
  }
  return ids;
}

/** The reads of the live path: each one machine's, over the last minutes or the last day. */
function reads(db: Kysely<Database>, ids: string[], via: 'view' | 'between') {
  const scope = companyScope(db, 'c1');
  let i = 0;
  const next = () => ids[i++ % ids.length]!;
  const view = {
    'latest per key, 24 h (diagnostics)': () =>
      db
        .selectFrom('observations')
        .select(['key', 'value', 'ts'])
        .where('company_id', '=', 'c1')
        .where('machine_id', '=', next())
        .where('ts', '>=', NOW - 86_400_000)
        .orderBy('ts', 'desc')
        .execute(),
    'keys seen, 10 min, 50 machines (dashboard)': () =>
      db
        .selectFrom('observations')
        .select(['machine_id', 'key'])
        .where('company_id', '=', 'c1')
        .where('machine_id', 'in', ids.slice(0, 50))
        .where('ts', '>=', NOW - 600_000)
        .groupBy(['machine_id', 'key'])
        .execute(),
    'observations since 30 min ago (rebuild)': () =>
      db
        .selectFrom('observations')
        .select(['ts', 'key', 'value'])
        .where('machine_id', '=', next())
        .where('ts', '>=', NOW - 1_800_000)
        .orderBy('ts')
        .execute(),
  };
  if (via === 'view') return view;
  return {
    'latest per key, 24 h (diagnostics)': () => latestPerKey(scope, next(), NOW - 86_400_000),
    'keys seen, 10 min, 50 machines (dashboard)': () =>
      keysSeenSince(scope, ids.slice(0, 50), NOW - 600_000, ''),
    'observations since 30 min ago (rebuild)': () =>
      db
        .selectFrom(observationsBetween(db, { machineIds: [next()], from: NOW - 1_800_000 }))
        .select(['ts', 'key', 'value'])
        .orderBy('ts')
        .orderBy('seq')
        .execute(),
  };
}

async function time(work: Record<string, () => Promise<unknown>>) {
  const out: Record<string, number> = {};
  for (const [name, run] of Object.entries(work)) {
    await run();
    const ms: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const t0 = performance.now();
      await run();
      ms.push(performance.now() - t0);
    }
    out[name] = median(ms);
  }
  return out;
}

// Two databases, the same lines: rows only (the baseline), and packed by a pass after every minute (the worker's).
const plain = await freshDb('postgres');
const packed = await freshDb('postgres');
try {
  const ids = await fill(plain.db, async () => undefined);
  const pass = { rowsPacked: 0, packsMade: 0 };
  await fill(packed.db, async (at) => {
    const p = await packObservations(packed.db, at);
    pass.rowsPacked += p.rowsPacked;
    pass.packsMade += p.packsMade;
  });
  await sql`vacuum analyze`.execute(plain.db);
  await sql`vacuum analyze`.execute(packed.db);
  const rows = await time(reads(plain.db, ids, 'view'));
  const between = await time(reads(packed.db, ids, 'between'));
  const view = await time(reads(packed.db, ids, 'view'));
  console.log(
    `pack-reads: ${MACHINES} machines × ${HOURS} h, ${pass.rowsPacked} rows packed into ${pass.packsMade} packs; median of ${ROUNDS} (ms)`,
  );
  console.log(
    '| read | rows (not packed) | packed, observationsBetween | ratio | packed, plain view | ratio |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const name of Object.keys(rows))
    console.log(
      `| ${name} | ${rows[name]!.toFixed(2)} | ${between[name]!.toFixed(2)} | ${(between[name]! / rows[name]!).toFixed(2)} | ` +
        `${view[name]!.toFixed(2)} | ${(view[name]! / rows[name]!).toFixed(2)} |`,
    );
} finally {
  await plain.cleanup();
  await packed.cleanup();
}
process.exit(0);
