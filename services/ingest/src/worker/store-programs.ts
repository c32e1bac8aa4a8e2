import { CompiledQuery } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { insertRows, machineName, observationIds, runStatement as run } from '@takt/db';
import type { DerivedWrite } from './store';

// Program and sub-program intervals as stored since migration 0059 (decision 1161): a closed interval is one row of
// program_rows, inserted once, keyed by the machine's small integer id (observation_machines); the open one of each
// machine and sub is the row of program_open keyed by them (a new program updates its start and name in place). `program_intervals` is the readers' view over both. A batch replaces the
// same records as before (decision 1122: the closed ones ending at or after its time, and the open ones), and on
// PostgreSQL keeps the ones it leaves as they were (decision 1149).

/** A new program row of a write: [sub, start_at, end_at (null: open), name]. */
export interface ProgramRow {
  w: DerivedWrite;
  values: unknown[];
}

const CLOSED_COLUMNS = ['m', 'sub', 'start_at', 'end_at', 'name'];
const OPEN_COLUMNS = ['m', 'sub', 'start_at', 'name'];
// Their PostgreSQL types: one array a column (decision 1165).
const CLOSED_TYPES = ['int', 'int', 'bigint', 'bigint', 'text'];
const OPEN_TYPES = ['int', 'int', 'bigint', 'text'];

function upsert(numbered: boolean, table: string, key: string, set: readonly string[]): string {
  const differs = numbered ? 'is distinct from' : 'is not';
  return (
    ` on conflict (${key}) do update set ` +
    set.map((c) => `"${c}" = excluded."${c}"`).join(', ') +
    ' where ' +
    set.map((c) => `"${table}"."${c}" ${differs} excluded."${c}"`).join(' or ')
  );
}

/**
 * Writes the batch's program intervals: take-overs first (records from their time on removed, the open ones closed
 * there), then each replaced write's records from its time on and its open ones, then the new rows.
 */
export async function writePrograms(
  trx: Kysely<Database>,
  numbered: boolean,
  takeOvers: readonly DerivedWrite[],
  replaced: readonly DerivedWrite[],
  rows: readonly ProgramRow[],
  /** Writes whose records need no delete (decision 1169): only their rows that changed are written. */
  clean: readonly DerivedWrite[] = [],
): Promise<void> {
  const writes = [...takeOvers, ...replaced, ...clean];
  if (writes.length === 0) return;
  const { machines } = await observationIds(
    trx,
    numbered,
    new Set(writes.map((w) => machineName(w.companyId, w.machineId))),
    [],
  );
  const mOf = (w: DerivedWrite) => machines.get(machineName(w.companyId, w.machineId))!;
  const closed = rows.filter((r) => r.values[2] != null);
  // One open row a machine and sub (the key of program_open): an earlier open one (the engine makes none) ends where
  // the next starts.
  const open: ProgramRow[] = [];
  const lastOpen = new Map<string, ProgramRow>();
  for (const r of rows) {
    if (r.values[2] != null) continue;
    const key = `${r.w.companyId}\t${r.w.machineId}\t${String(r.values[0])}`;
    const before = lastOpen.get(key);
    if (before && Number(before.values[1]) < Number(r.values[1])) {
      closed.push({
        w: before.w,
        values: [before.values[0], before.values[1], r.values[1], before.values[3]],
      });
      open[open.indexOf(before)] = r;
    } else if (before)
      closed.push({ w: r.w, values: [r.values[0], r.values[1], before.values[1], r.values[3]] });
    else open.push(r);
    if (!before || Number(before.values[1]) < Number(r.values[1])) lastOpen.set(key, r);
  }

  if (numbered) {
    const statement = (text: string, params: unknown[]) => trx.executeQuery(CompiledQuery.raw(text, params));
    if (takeOvers.length > 0) {
      const params = [takeOvers.map(mOf), takeOvers.map((w) => w.takeOverAt!)];
      const d = 'unnest($1::int[], $2::bigint[]) as d(m, at)';
      for (const table of ['program_rows', 'program_open'])
        await statement(
          `delete from ${table} as t using ${d} where t.m = d.m and t.start_at >= d.at`,
          params,
        );
      await statement(
        `insert into program_rows (start_at, end_at, m, sub, name) select o.start_at, d.at, o.m, o.sub, o.name ` +
          `from program_open o join ${d} on o.m = d.m` +
          upsert(numbered, 'program_rows', 'm, sub, start_at', ['end_at', 'name']),
        params,
      );
      await statement(`delete from program_open as t using ${d} where t.m = d.m`, params);
    }
    if (replaced.length > 0) {
      // A stored record with the key of a new row of its kind stays (the upsert below rewrites it only if it changed):
      // a closed one by machine, sub and start; the open one by machine and sub.
      const mine = new Set(replaced);
      const keys = (of: readonly ProgramRow[]) => {
        const kept = of.filter((r) => mine.has(r.w));
        return [kept.map((r) => mOf(r.w)), kept.map((r) => r.values[0]), kept.map((r) => r.values[1])];
      };
      const notKept = (x: string, start = true) =>
        `not exists (select 1 from unnest($3::int[], $4::int[], $5::bigint[]) as n(m, s, k) ` +
        `where n.m = ${x}.m and n.s = ${x}.sub${start ? ` and n.k = ${x}.start_at` : ''})`;
      // Each machine's closed records ending from its time on, through the (m, sub, end_at) index (decision 1122).
      await statement(
        'delete from program_rows where ctid = any(array(select x.ctid from unnest($1::int[], $2::bigint[]) ' +
          'as d(m, at) cross join lateral (select t.ctid, t.m, t.sub, t.start_at from program_rows as t ' +
          `where t.m = d.m and t.sub in (0, 1) and t.end_at >= d.at offset 0) as x where ${notKept('x')}))`,
        [replaced.map(mOf), replaced.map((w) => w.from), ...keys(closed)],
      );
      await statement(
        `delete from program_open as o using unnest($1::int[], $2::bigint[]) as d(m, at) where o.m = d.m and ${notKept('o', false)}`,
        [replaced.map(mOf), replaced.map((w) => w.from), ...keys(open)],
      );
    }
  } else {
    for (const w of takeOvers) {
      const [m, at] = [mOf(w), w.takeOverAt!];
      await run(trx, numbered, 'delete from program_rows where m = ? and start_at >= ?', [m, at]);
      await run(trx, numbered, 'delete from program_open where m = ? and start_at >= ?', [m, at]);
      await run(
        trx,
        numbered,
        'insert or replace into program_rows (m, sub, start_at, end_at, name) ' +
          'select m, sub, start_at, ?, name from program_open where m = ?',
        [at, m],
      );
      await run(trx, numbered, 'delete from program_open where m = ?', [m]);
    }
    for (const w of replaced) {
      await run(trx, numbered, 'delete from program_rows where m = ? and sub in (0, 1) and end_at >= ?', [
        mOf(w),
        w.from,
      ]);
      await run(trx, numbered, 'delete from program_open where m = ?', [mOf(w)]);
    }
  }

  await insertRows(
    trx,
    numbered,
    'program_rows',
    CLOSED_COLUMNS,
    closed,
    (params, at, r) => {
      params[at] = mOf(r.w);
      for (let i = 0; i < 4; i++) params[at + 1 + i] = r.values[i];
    },
    upsert(numbered, 'program_rows', 'm, sub, start_at', ['end_at', 'name']),
    CLOSED_TYPES,
  );
  await insertRows(
    trx,
    numbered,
    'program_open',
    OPEN_COLUMNS,
    open,
    (params, at, r) => {
      params[at] = mOf(r.w);
      params[at + 1] = r.values[0];
      params[at + 2] = r.values[1];
      params[at + 3] = r.values[3];
    },
    upsert(numbered, 'program_open', 'm, sub', ['start_at', 'name']),
    OPEN_TYPES,
  );
}
