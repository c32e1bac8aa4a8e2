// Benchmark (decision 1231): what one firing of migration 0072's SQLite triggers costs. On a fresh SQLite database with
// `machines` machines of one company (their observation_machines ids), each batch is one transaction updating every
// machine's open state (state_open: a new state each batch, so every row changes and its update trigger fires once,
// the company looked up by `m`). Rounds alternate without 0072 (migrated down) and with it (ABAB…, same file and
// process). Printed: the batch's p50 each way and the cost a row fired. With bench/ingest-work.ts's count of the
// live generation's bumps a batch (a bump a row fired on SQLite), what 0072 adds to an ingest batch. Not a test.
//   npx tsx bench/live-generation-facts.ts [machines=1000] [rounds=6] [batches=50]
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { companyRow, freshDb, migrateTo, migrationBefore } from '@takt/db/testing';

const MACHINES = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 6);
const BATCHES = Number(process.argv[4] ?? 50);
const NAME = '2026-12-01-0072-live-generation-facts';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

const t = await freshDb('sqlite');
try {
  const { db } = t;
  await db.insertInto('companies').values(companyRow('c1')).execute();
  for (let i = 0; i < MACHINES; i++)
    await sql`insert into observation_machines (id, company_id, machine_id) values (${i + 1}, 'c1', ${`m${i}`})`.execute(
      db,
    );
  await sql`insert into state_open (m, start_at, state, reason) select id, 0, 'ACTIVE', null from observation_machines`.execute(
    db,
  );
  let n = 0;
  const batch = async () => {
    const state = n++ % 2 === 0 ? 'INACTIVE' : 'ACTIVE';
    const t0 = performance.now();
    await db.transaction().execute(async (trx) => {
      await sql`update state_open set state = ${state}, start_at = ${n}`.execute(trx);
    });
    return performance.now() - t0;
  };
  const times = { without: [] as number[], with: [] as number[] };
  const loads: string[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const mode = r % 2 === 0 ? 'without' : 'with';
    await migrateTo(db, mode === 'with' ? NAME : migrationBefore(NAME));
    for (let i = 0; i < 5; i++) await batch();
    for (let i = 0; i < BATCHES; i++) times[mode].push(await batch());
    loads.push(
      loadavg()
        .map((x) => x.toFixed(1))
        .join(' '),
    );
  }
  const a = pct(times.without, 50);
  const b = pct(times.with, 50);
  console.log(
    `live-generation-facts (SQLite): ${MACHINES} open states updated a batch, ${ROUNDS} rounds of ${BATCHES} (ABAB), load averages ${loads.join(' | ')}`,
  );
  console.log(
    `  batch p50 without 0072 ${a.toFixed(2)} ms, with ${b.toFixed(2)} ms: ${(b / a).toFixed(2)}×, ${(((b - a) / MACHINES) * 1000).toFixed(2)} µs a row fired`,
  );
} finally {
  await t.cleanup();
}
process.exit(0);
