import { CompiledQuery } from 'kysely';
import { insertStatements, pgArray, sqlStatement } from '@takt/db';
import type { DerivedWrite } from './store';
import type { NarrowRow } from './store-narrow';
import { upsert } from './store-narrow';

// Cycles stored narrow (decision 1182, migration 0064): cycle_rows keyed by the machine's small integer id
// (observation_machines) and the cycle's end, each inserted once. A batch replaces the same cycles as before
// (decision 1122: those ending at or after its time, a range of the key), and on PostgreSQL keeps the ones it leaves
// as they were (decision 1149: a stored cycle with a new row's end is rewritten only if it changed).

/** cycle_rows' columns after m, in derivedRows' order of a cycle's values. */
const COLUMNS = ['start_at', 'end_at', 'duration', 'count', 'source', 'setup'] as const;
const TYPES = ['int', 'bigint', 'bigint', 'bigint', 'int', 'text', 'int'];

/**
 * The statements writing the batch's cycles, built before the transaction (decision 1177): take-overs' cycles from
 * their time on removed, each replaced write's from its time on, then the new rows. `mOf` is a write's machine's id.
 */
export function cycleStatements(
  numbered: boolean,
  takeOvers: readonly DerivedWrite[],
  replaced: readonly DerivedWrite[],
  rows: readonly NarrowRow[],
  mOf: (w: DerivedWrite) => number,
): CompiledQuery[] {
  const out: CompiledQuery[] = [];
  if (numbered) {
    const params = (ws: readonly DerivedWrite[], at: (w: DerivedWrite) => number) => [
      ws.map(mOf),
      ws.map(at),
    ];
    if (takeOvers.length > 0)
      out.push(
        CompiledQuery.raw(
          'delete from cycle_rows as t using unnest($1::int[], $2::bigint[]) as d(m, at) ' +
            'where t.m = d.m and t.end_at >= d.at',
          params(takeOvers, (w) => w.takeOverAt!).map(pgArray),
        ),
      );
    if (replaced.length > 0) {
      // Each machine's cycles a range of the key (a lateral sub-select the planner keeps, decision 1122), but those
      // with the end of one of its new rows (the upsert below rewrites them only if they changed).
      const mine = new Set(replaced);
      const kept = rows.filter((r) => mine.has(r.w));
      out.push(
        CompiledQuery.raw(
          'delete from cycle_rows where ctid = any(array(select x.ctid from unnest($1::int[], $2::bigint[]) ' +
            'as d(m, at) cross join lateral (select t.ctid, t.m, t.end_at from cycle_rows as t ' +
            'where t.m = d.m and t.end_at >= d.at offset 0) as x where not exists (select 1 from ' +
            'unnest($3::int[], $4::bigint[]) as n(m, k) where n.m = x.m and n.k = x.end_at)))',
          [...params(replaced, (w) => w.from), kept.map((r) => mOf(r.w)), kept.map((r) => r.values[1])].map(
            pgArray,
          ),
        ),
      );
    }
  } else {
    for (const w of takeOvers)
      out.push(
        sqlStatement(numbered, 'delete from cycle_rows where m = ? and end_at >= ?', [mOf(w), w.takeOverAt]),
      );
    for (const w of replaced)
      out.push(
        sqlStatement(numbered, 'delete from cycle_rows where m = ? and end_at >= ?', [mOf(w), w.from]),
      );
  }
  out.push(
    ...insertStatements(
      numbered,
      'cycle_rows',
      ['m', ...COLUMNS],
      rows,
      (params, at, r) => {
        params[at] = mOf(r.w);
        for (let i = 0; i < COLUMNS.length; i++) params[at + 1 + i] = r.values[i];
      },
      upsert(
        numbered,
        'cycle_rows',
        ['m', 'end_at'],
        COLUMNS.filter((c) => c !== 'end_at'),
      ),
      TYPES,
    ),
  );
  return out;
}
