// Plans of the rollup sources' flag span read (decision 1171): 200 machines × 2,000 closed spans of each kind and an
// open spindle span each, 50 machines read over a range in the middle of their history and over one around now.
// `npx tsx bench/explain-flag-spans.ts postgres|sqlite`. Each machine's spans should be one index range from the last
// span starting before the range (no scan of a machine's history).
import { sql } from 'kysely';
import { freshDb } from '@takt/db/testing';
import { flagSpansQuery } from '../packages/db/src/rollups/range-reads';
import { planLines, series } from './support/explain';

const dialect = (process.argv[2] ?? 'postgres') as 'postgres' | 'sqlite';
const t = await freshDb(dialect);
const db = t.db;
const pg = dialect === 'postgres';
try {
  const upTo = (n: number, name: string) => series(pg, n, name);
  await sql`insert into observation_machines (company_id, machine_id) select 'c', 'machine-' || x from (${sql.raw(upTo(200, 'x'))}) g`.execute(
    db,
  );
  for (const kind of ['spindle', 'incut'])
    await sql`insert into flag_rows (m, kind, start_at, end_at) select om.id, ${kind}, g.i * 10000, g.i * 10000 + 5000
      from observation_machines om cross join (${sql.raw(upTo(2000, 'i'))}) g`.execute(db);
  await sql`insert into flag_open (m, kind, start_at) select id, 'spindle', 20000000 from observation_machines`.execute(
    db,
  );
  await sql.raw('analyze').execute(db);
  const ids = Array.from({ length: 50 }, (_, i) => `machine-${i}`);
  for (const range of [
    { start: 1000 * 10000 + 100, end: 1001 * 10000 },
    { start: 20000000 - 60000, end: 20000000 + 60000 },
  ]) {
    const q = flagSpansQuery(db, ids, range);
    const rows = await q.execute();
    console.log('range', range, 'rows', rows.length);
    const c = q.compile();
    const r = await db.executeQuery({
      ...c,
      sql: (pg ? 'explain (analyze, buffers, costs off, timing off) ' : 'explain query plan ') + c.sql,
    });
    for (const line of planLines(pg, r.rows)) console.log(line);
  }
} finally {
  await t.cleanup();
}
