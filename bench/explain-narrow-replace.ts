// Plans without the (m, group, end_at) indexes of program_rows and flag_rows (decision 1181, migration 0063): ingest's
// replace of the closed records ending from a time (store-narrow.ts) for 50 machines, and the timeline's program reads
// (reports.ts programsIn, production.ts openSubprogram) of one machine, over a range in the middle of its history and
// one around now. 200 machines × 2,000 closed programs, sub-programs and spans of each kind, and an open one each.
// `npx tsx bench/explain-narrow-replace.ts postgres|sqlite`. Each should be a range of the primary key from one
// backward key step (the last start before the time), not a read of a machine's history. (The rollup sources' flag
// span read: bench/explain-flag-spans.ts.) The replace runs in a transaction rolled back.
import type { CompiledQuery, Kysely } from 'kysely';
import { sql } from 'kysely';
import { companyScope } from '@takt/db';
import type { Database } from '@takt/db';
import { freshDb } from '@takt/db/testing';
import { explainProgramReads, planLines, replaceStatements, rolledBack, series } from './support/explain';
import { openSubprogram } from '../services/api/src/repositories/production';

const dialect = (process.argv[2] ?? 'postgres') as 'postgres' | 'sqlite';
const t = await freshDb(dialect);
const db = t.db;
const pg = dialect === 'postgres';
const STEP = 10_000;
const NOW = 2000 * STEP;

const explain = async (on: Kysely<Database>, q: CompiledQuery, label: string) => {
  const prefix = pg ? 'explain (analyze, buffers, costs off, timing off) ' : 'explain query plan ';
  const started = performance.now();
  const r = await on.executeQuery({ ...q, sql: prefix + q.sql });
  console.log(`-- ${label} (${(performance.now() - started).toFixed(1)} ms with the explain)`);
  for (const line of planLines(pg, r.rows)) console.log(line);
};

try {
  const upTo = (n: number, name: string) => series(pg, n, name);
  await sql`insert into observation_machines (company_id, machine_id) select 'c', 'machine-' || x from (${sql.raw(upTo(200, 'x'))}) g`.execute(
    db,
  );
  const thousands = sql.raw(upTo(2000, 'i'));
  for (const sub of [0, 1])
    await sql`insert into program_rows (m, sub, start_at, end_at, name) select om.id, ${sub}, g.i * ${STEP},
      g.i * ${STEP} + ${STEP}, 'P' || g.i from observation_machines om cross join (${thousands}) g`.execute(
      db,
    );
  await sql`insert into program_open (m, sub, start_at, name) select id, s.sub, ${NOW}, 'open'
    from observation_machines cross join (select 0 as sub union all select 1) s`.execute(db);
  for (const kind of ['spindle', 'incut'])
    await sql`insert into flag_rows (m, kind, start_at, end_at) select om.id, ${kind}, g.i * ${STEP},
      g.i * ${STEP} + ${STEP / 2} from observation_machines om cross join (${thousands}) g`.execute(db);
  await sql`insert into flag_open (m, kind, start_at) select id, 'spindle', ${NOW} from observation_machines`.execute(
    db,
  );
  await sql.raw('analyze').execute(db);

  const scope = companyScope(db, 'c');
  await explainProgramReads(db, STEP, NOW, (q, label) => explain(db, q, label));
  console.log(`open sub-program of machine-7: ${await openSubprogram(scope, 'machine-7')}`);

  // Ingest's replace for 50 machines from a time: inside a closed record (mid-history), and at the end of the last
  // closed program (which must go too, decision 1122) near now.
  for (const [what, from] of [
    ['mid-history', 1000 * STEP + 100],
    ['near now', NOW],
  ] as const) {
    const statements = replaceStatements(pg, 50, from);
    const closedDeletes = statements.filter((s) => /^delete from (program_rows|flag_rows)/.test(s.sql));
    await rolledBack(db, async (trx) => {
      // SQLite: one statement a machine and group; the first of programs and of flags shown, then all of them run.
      const shown = pg
        ? closedDeletes
        : [
            closedDeletes.find((s) => s.sql.includes('program_rows'))!,
            closedDeletes.find((s) => s.sql.includes('flag_rows'))!,
          ];
      for (const s of shown) {
        const table = /^delete from (\w+)/.exec(s.sql)![1]!;
        await explain(trx, s, `replace ${table} ${what}, ${pg ? '50 machines' : 'one machine and group'}`);
      }
      if (!pg) {
        const started = performance.now();
        for (const x of closedDeletes) await trx.executeQuery(x);
        console.log(
          `   the ${closedDeletes.length} statements run: ${(performance.now() - started).toFixed(1)} ms`,
        );
      }
      const left = await sql<{
        n: number;
      }>`select (select count(*) from program_rows) + (select count(*) from flag_rows)
          as n`.execute(trx);
      console.log(`closed rows left: ${Number(left.rows[0]!.n)} of ${4 * 200 * 2000}`);
    });
  }
} finally {
  await t.cleanup();
}
