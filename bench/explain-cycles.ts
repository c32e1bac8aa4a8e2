// Plans of the cycle reads through the cycles view over cycle_rows (decision 1182, migration 0064): the rollup
// sources' (packages/db rollups/sources.ts: the machines' cycles in a range, each machine in its own span as an OR on
// SQLite and a lateral list on PostgreSQL), a run's cycle count (cycleCountBetween, countsBefore) and the dashboard's
// last production cycles (repositories/dashboard.ts). 200 machines × 5,000 cycles, 50 read, mid-history and near now.
// `npx tsx bench/explain-cycles.ts postgres|sqlite`. Each machine's cycles should be one range of cycle_rows' key
// (m, end_at), never a scan of the table.
import { sql } from 'kysely';
import { freshDb } from '@takt/db/testing';
import { planLines, series } from './support/explain';

const dialect = (process.argv[2] ?? 'postgres') as 'postgres' | 'sqlite';
const t = await freshDb(dialect);
const db = t.db;
const pg = dialect === 'postgres';
const STEP = 10_000;
const NOW = 5000 * STEP;
try {
  await sql`insert into observation_machines (company_id, machine_id) select 'c', 'machine-' || x
    from (${sql.raw(series(pg, 200, 'x'))}) g`.execute(db);
  await sql`insert into cycle_rows (m, start_at, end_at, duration, count, source, setup) select om.id, g.i * ${STEP},
    g.i * ${STEP} + ${STEP}, ${STEP}, 1, 'part_count', 0 from observation_machines om
    cross join (${sql.raw(series(pg, 5000, 'i'))}) g`.execute(db);
  await sql.raw('analyze').execute(db);
  const ids = Array.from({ length: 50 }, (_, i) => `machine-${i}`);
  const list = ids.map((id) => `'${id}'`).join(', ');
  for (const [what, start, end] of [
    ['mid-history', 2500 * STEP, 2510 * STEP],
    ['near now', NOW - 10 * STEP, NOW + STEP],
  ] as const) {
    const spans = ids
      .map((id) => `(machine_id = '${id}' and end_at >= ${start} and end_at < ${end})`)
      .join(' or ');
    const reads: Array<[string, string]> = [
      [
        'sources, the machines in the range',
        `select * from cycles where machine_id in (${list}) and end_at >= ${start} and end_at < ${end} order by end_at`,
      ],
      pg
        ? [
            'sources, each machine its own span (lateral list)',
            `select c.* from (select * from unnest(array[${list}]::text[], array[${ids.map(() => start).join(', ')}]::bigint[], ` +
              `array[${ids.map(() => end).join(', ')}]::bigint[]) as u(m, s, e)) as w cross join lateral (select * from cycles ` +
              `where cycles.machine_id = w.m and cycles.end_at >= w.s and cycles.end_at < w.e offset 0) as c order by c.end_at`,
          ]
        : ['sources, each machine its own span (OR)', `select * from cycles where ${spans} order by end_at`],
      [
        'a run of one machine, its cycle count',
        `select sum(count) as n from cycles where company_id = 'c' and machine_id = 'machine-7' and end_at >= ${start} and end_at < ${end}`,
      ],
      [
        'the dashboard, the last production cycle of each machine',
        `select * from (select machine_id, end_at, duration, row_number() over (partition by machine_id order by end_at desc) ` +
          `as rn from cycles where company_id = 'c' and machine_id in (${list}) and end_at >= ${start} and end_at <= ${end} ` +
          `and setup = 0) as c where rn = 1`,
      ],
    ];
    for (const [label, text] of reads) {
      const rows = (await sql.raw(text).execute(db)).rows.length;
      const started = performance.now();
      const r = await sql
        .raw((pg ? 'explain (analyze, buffers, costs off, timing off) ' : 'explain query plan ') + text)
        .execute(db);
      console.log(
        `-- ${what}: ${label}, ${rows} rows (${(performance.now() - started).toFixed(1)} ms with the explain)`,
      );
      for (const line of planLines(pg, r.rows)) console.log(line);
    }
  }
} finally {
  await t.cleanup();
}
