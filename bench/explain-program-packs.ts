// Plans over packed program intervals (decision 1196, migration 0070), PostgreSQL: 200 machines × 2,000 programs and
// sub-programs of 10 s, all but the last 100 of each packed. The timeline's read (reports.ts programsIn) of one
// machine mid-history and near now, and ingest's statements before a replace (store-narrow.ts: the lock of the
// machines' rows from the time and the unpacking of the packs ending from it) for 50 machines, mid-history and near
// now: each should find a machine's packs by (m, sub, to_ts) and unnest only those reaching the range.
// `npx tsx bench/explain-program-packs.ts`. The replace runs in a transaction rolled back.
import type { CompiledQuery, Kysely } from 'kysely';
import { sql } from 'kysely';
import { packPrograms } from '@takt/db';
import type { Database } from '@takt/db';
import { freshDb } from '@takt/db/testing';
import { explainProgramReads, planLines, replaceStatements, rolledBack, series } from './support/explain';

const t = await freshDb('postgres');
const db = t.db;
const STEP = 10_000;
const NOW = 2000 * STEP;

const explain = async (on: Kysely<Database>, q: CompiledQuery, label: string) => {
  const started = performance.now();
  const r = await on.executeQuery({
    ...q,
    sql: 'explain (analyze, buffers, costs off, timing off) ' + q.sql,
  });
  console.log(`-- ${label} (${(performance.now() - started).toFixed(1)} ms with the explain)`);
  for (const line of planLines(true, r.rows)) console.log(line);
};

try {
  await sql`insert into observation_machines (company_id, machine_id) select 'c', 'machine-' || x from (${sql.raw(series(true, 200, 'x'))}) g`.execute(
    db,
  );
  for (const sub of [0, 1])
    await sql`insert into program_rows (m, sub, start_at, end_at, name) select om.id, ${sub}, g.i * ${STEP},
      g.i * ${STEP} + ${STEP}, 'P' || (g.i % 7) from observation_machines om cross join (${sql.raw(series(true, 2000, 'i'))}) g`.execute(
      db,
    );
  const packed = await packPrograms(db, NOW - 100 * STEP, 0);
  await sql.raw('analyze').execute(db);
  const size = await sql<{
    n: string;
    b: string;
  }>`select count(*) as n, pg_total_relation_size('program_packs') as b
    from program_packs`.execute(db);
  console.log(
    `packed ${packed.rowsPacked} intervals into ${packed.packsMade} packs (${size.rows[0]!.n} rows, ` +
      `${(Number(size.rows[0]!.b) / packed.rowsPacked).toFixed(1)} bytes an interval with the index)`,
  );

  await explainProgramReads(db, STEP, NOW, (q, label) => explain(db, q, label));

  for (const [what, from] of [
    ['mid-history', 1000 * STEP + 100],
    ['near now', NOW],
  ] as const) {
    const statements = replaceStatements(true, 50, from);
    const first = statements.findIndex((s) => s.sql.includes('program_packs'));
    await rolledBack(db, async (trx) => {
      await explain(trx, statements[first - 1]!, `lock of the closed rows, ${what}, 50 machines`);
      await explain(trx, statements[first]!, `unpacking, ${what}, 50 machines`);
    });
  }
} finally {
  await t.cleanup();
}
