// Plans of the state reads by machine (decision 1180): 200 machines × 4,000 closed states (ACTIVE every other one) and
// an open state each, 50 machines read over a range in the middle of their history and over one around now: their
// states reaching into the range (loadDowntimeFacts, the timeline), the ACTIVE edges around it, and where their states
// begin (loadMonitoredFrom). `npx tsx bench/explain-state-rows.ts postgres|sqlite`. Each machine's states should be one
// range of the (m, start_at) key from the last state starting before the range, each edge one key step (no scan of a
// machine's history).
import { sql } from 'kysely';
import type { CompiledQuery } from 'kysely';
import { freshDb } from '@takt/db/testing';
import { activeEdgesQuery, firstStateStart, stateRowsQuery } from '../packages/db/src/rollups/state-reads';
import { planLines, series } from './support/explain';

const dialect = (process.argv[2] ?? 'postgres') as 'postgres' | 'sqlite';
const t = await freshDb(dialect);
const db = t.db;
const pg = dialect === 'postgres';
const explain = async (c: CompiledQuery) => {
  const r = await db.executeQuery({
    ...c,
    sql: (pg ? 'explain (analyze, buffers, costs off, timing off) ' : 'explain query plan ') + c.sql,
  });
  for (const line of planLines(pg, r.rows)) console.log(line);
};
try {
  const upTo = (n: number, name: string) => series(pg, n, name);
  await sql`insert into observation_machines (company_id, machine_id) select 'c', 'machine-' || x from (${sql.raw(upTo(200, 'x'))}) g`.execute(
    db,
  );
  await sql`insert into state_rows (m, start_at, end_at, state)
    select om.id, g.i * 10000, g.i * 10000 + 10000, case when g.i % 2 = 0 then 'ACTIVE' else 'INACTIVE' end
    from observation_machines om cross join (${sql.raw(upTo(4000, 'i'))}) g`.execute(db);
  await sql`insert into state_open (m, start_at, state) select id, 40000000, 'ACTIVE' from observation_machines`.execute(
    db,
  );
  await sql.raw('analyze').execute(db);
  const ids = Array.from({ length: 50 }, (_, i) => `machine-${i}`);
  for (const range of [
    { start: 2000 * 10000 + 100, end: 2003 * 10000 + 500 },
    { start: 40000000 - 60000, end: 40000000 + 60000 },
  ]) {
    const q = stateRowsQuery(
      db,
      ids.map((machineId) => ({ machineId, from: range.start, to: range.end })),
    );
    const rows = (await q.execute(db)).rows;
    console.log('states in range', range, 'rows (a machine each)', rows.length);
    await explain(q.compile(db));
    const edges = activeEdgesQuery(db, ids, range.start, range.end);
    console.log('active edges', range, (await edges.execute()).slice(0, 2));
    await explain(edges.compile());
  }
  // loadMonitoredFrom's first state of each machine.
  const first = firstStateStart(sql.ref('x.machine_id'));
  const q = db
    .selectFrom('observation_machines as x')
    .where('x.machine_id', 'in', ids)
    .select(['x.machine_id', first.as('first')]);
  console.log('first states', (await q.execute()).slice(0, 2));
  await explain(q.compile());
} finally {
  await t.cleanup();
}
