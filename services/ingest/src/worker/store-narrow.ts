import { CompiledQuery } from 'kysely';
import { insertStatements, pgArray, sqlStatement } from '@takt/db';
import type { DerivedWrite } from './store';

// Derived records stored narrow (decisions 1161 and 1171): a closed record is one row of a `closed` table, inserted
// once, keyed by the machine's small integer id (observation_machines), its group (program sub, flag kind) and start;
// the open one of each machine and group is the row of an `open` table keyed by them alone (a new record updates its
// start and other values in place, none of them indexed). The readers' view over both keeps the old table's name and
// columns. A batch replaces the same records as before (decision 1122: the closed ones ending at or after its time,
// and the open ones), and on PostgreSQL keeps the ones it leaves as they were (decision 1149).

/** A new row of a write, its values as derivedRows makes them. */
export interface NarrowRow {
  w: DerivedWrite;
  values: unknown[];
}

/** One derived table stored narrow: where each column is in derivedRows' values, and the two tables. */
export interface NarrowTable {
  /** The view's name (derivedRows' key). */
  view: string;
  closed: string;
  open: string;
  /** The column that splits a machine's records beside m, its PostgreSQL type and every value it takes (checked). */
  group?: { column: string; type: string; values: readonly (string | number)[]; at: number };
  start: number;
  end: number;
  /** The other columns, neither key nor time. */
  rest: ReadonlyArray<{ column: string; type: string; at: number }>;
  /**
   * PostgreSQL: a machine's open row is kept when it has no open record of its group, its start set to null (the view
   * reads none such), so the next open record is an update in place (HOT) rather than a delete and an insert, each a
   * dead version and an index entry only a vacuum frees. For records that close and open all day (flag spans); a
   * machine has an open program whenever it runs.
   */
  keepsOpenRow?: boolean;
  /** PostgreSQL: closed records older than a few minutes are packed in this table (decision 1196). */
  packs?: string;
}

/** Programs and sub-programs (migration 0059): [sub, start_at, end_at, name]. */
export const PROGRAMS: NarrowTable = {
  view: 'program_intervals',
  closed: 'program_rows',
  open: 'program_open',
  group: { column: 'sub', type: 'int', values: [0, 1], at: 0 },
  start: 1,
  end: 2,
  rest: [{ column: 'name', type: 'text', at: 3 }],
  packs: 'program_packs',
};

/** Spindle and in-cut spans (migration 0061): [kind, start_at, end_at]. */
export const FLAGS: NarrowTable = {
  view: 'flag_spans',
  closed: 'flag_rows',
  open: 'flag_open',
  group: { column: 'kind', type: 'text', values: ['spindle', 'incut'], at: 0 },
  start: 1,
  end: 2,
  rest: [],
  keepsOpenRow: true,
};

/** Machine states (migration 0062, decision 1180): [start_at, end_at, state, reason]. */
export const STATES: NarrowTable = {
  view: 'state_intervals',
  closed: 'state_rows',
  open: 'state_open',
  start: 0,
  end: 1,
  rest: [
    { column: 'state', type: 'text', at: 2 },
    { column: 'reason', type: 'text', at: 3 },
  ],
  // A take-over leaves a machine with no open state until its next batch.
  keepsOpenRow: true,
};

export const NARROW_TABLES = [PROGRAMS, FLAGS, STATES] as const;

/** A row's key within its write (derived-memory): the open row by group, a closed one by group and start. */
export const narrowKey = (t: NarrowTable, v: readonly unknown[]): string => {
  const group = t.group ? String(v[t.group.at]) : '';
  return v[t.end] == null ? `o\t${group}` : `c\t${group}\t${String(v[t.start])}`;
};

const literal = (v: string | number) => (typeof v === 'string' ? `'${v}'` : String(v));

export function upsert(
  numbered: boolean,
  table: string,
  key: readonly string[],
  set: readonly string[],
): string {
  const differs = numbered ? 'is distinct from' : 'is not';
  return (
    ` on conflict (${key.join(', ')}) do update set ` +
    set.map((c) => `"${c}" = excluded."${c}"`).join(', ') +
    ' where ' +
    set.map((c) => `"${table}"."${c}" ${differs} excluded."${c}"`).join(' or ')
  );
}

/**
 * The statements writing the batch's records of each narrow table, built before the transaction (decision 1177):
 * take-overs first (records from their time on removed, the open ones closed there), then each replaced write's
 * records from its time on and its open ones, then the new rows (of every write, clean ones included: decision 1169).
 * `mOf` is a write's machine's dictionary id.
 */
export function narrowStatements(
  numbered: boolean,
  takeOvers: readonly DerivedWrite[],
  replaced: readonly DerivedWrite[],
  rowsOf: (t: NarrowTable) => readonly NarrowRow[],
  mOf: (w: DerivedWrite) => number,
): CompiledQuery[] {
  return NARROW_TABLES.flatMap((t) => tableStatements(numbered, t, takeOvers, replaced, rowsOf(t), mOf));
}

function tableStatements(
  numbered: boolean,
  t: NarrowTable,
  takeOvers: readonly DerivedWrite[],
  replaced: readonly DerivedWrite[],
  rows: readonly NarrowRow[],
  mOf: (w: DerivedWrite) => number,
): CompiledQuery[] {
  const out: CompiledQuery[] = [];
  const g = t.group;
  const group = g ? [g.column] : [];
  const rest = t.rest.map((r) => r.column);
  const closedColumns = ['m', ...group, 'start_at', 'end_at', ...rest];
  const openColumns = ['m', ...group, 'start_at', ...rest];
  const closedKey = ['m', ...group, 'start_at'];
  const closedUpsert = upsert(numbered, t.closed, closedKey, ['end_at', ...rest]);
  const closed = rows.filter((r) => r.values[t.end] != null);
  // One open row a machine and group (the open table's key): an earlier open one (the engine makes none) ends where
  // the next starts.
  const open: NarrowRow[] = [];
  const lastOpen = new Map<string, NarrowRow>();
  const startOf = (r: NarrowRow) => Number(r.values[t.start]);
  const endedAt = (r: NarrowRow, at: unknown): NarrowRow => {
    const values = [...r.values];
    values[t.end] = at;
    return { w: r.w, values };
  };
  for (const r of rows) {
    if (r.values[t.end] != null) continue;
    const key = `${r.w.companyId}\t${r.w.machineId}\t${g ? String(r.values[g.at]) : ''}`;
    const before = lastOpen.get(key);
    if (before && startOf(before) < startOf(r)) {
      closed.push(endedAt(before, r.values[t.start]));
      open[open.indexOf(before)] = r;
    } else if (before) closed.push(endedAt(r, before.values[t.start]));
    else open.push(r);
    if (!before || startOf(before) < startOf(r)) lastOpen.set(key, r);
  }
  // Where a machine's closed records of a group ending at or after `at` start (decision 1181): at the last one starting
  // before `at` (only it can reach `at`: records of one machine and group never overlap), so the replace is a range
  // of the (m, group, start_at) key from one backward key step, with no index on end_at. SQL text of m, group, at.
  const since = (m: string, group: string | null, at: string) =>
    `coalesce((select max(l.start_at) from ${t.closed} as l where l.m = ${m}` +
    `${g && group ? ` and l.${g.column} = ${group}` : ''} and l.start_at < ${at}), ${at})`;
  // A take-over's closed record of the previous run starting before its time and ending after it (that run's node's
  // clock ahead, decision 1225): only the last of its group starting before the time, found from `since` as the
  // replace does. SQL text of the row's table alias, m and the time (placeholders: m, at and at per group, then at, at).
  const straddles = (x: string, m: string, at: string) =>
    `${x}.start_at in (${(g ? g.values.map((v) => since(m, literal(v), at)) : [since(m, null, at)]).join(', ')}) ` +
    `and ${x}.start_at < ${at} and ${x}.end_at > ${at}`;

  if (numbered) {
    const statement = (text: string, params: unknown[][]) => {
      out.push(CompiledQuery.raw(text, params.map(pgArray)));
    };
    if (t.packs && g) out.push(...unpackStatements(t, t.packs, g, since, takeOvers, replaced, rows, mOf));
    if (takeOvers.length > 0) {
      const params = [takeOvers.map(mOf), takeOvers.map((w) => w.takeOverAt!)];
      const d = 'unnest($1::int[], $2::bigint[]) as d(m, at)';
      statement(`delete from ${t.closed} as t using ${d} where t.m = d.m and t.start_at >= d.at`, params);
      statement(
        `update ${t.closed} as t set end_at = d.at from ${d} where t.m = d.m and ${straddles('t', 'd.m', 'd.at')}`,
        params,
      );
      const carried = ['start_at', 'm', ...group, ...rest];
      statement(
        `insert into ${t.closed} (end_at, ${carried.join(', ')}) select d.at, ${carried.map((c) => `o.${c}`).join(', ')} ` +
          `from ${t.open} o join ${d} on o.m = d.m where o.start_at < d.at` +
          closedUpsert,
        params,
      );
      statement(
        t.keepsOpenRow
          ? `update ${t.open} as t set start_at = null from ${d} where t.m = d.m and t.start_at is not null`
          : `delete from ${t.open} as t using ${d} where t.m = d.m`,
        params,
      );
    }
    if (replaced.length > 0) {
      // A stored record with the key of a new row of its kind stays (the upsert below rewrites it only if it changed):
      // a closed one by machine, group and start; the open one by machine and group.
      const mine = new Set(replaced);
      const keys = (of: readonly NarrowRow[]) => {
        const kept = of.filter((r) => mine.has(r.w));
        return [
          kept.map((r) => mOf(r.w)),
          ...(g ? [kept.map((r) => r.values[g.at])] : []),
          kept.map((r) => r.values[t.start]),
        ];
      };
      const n = g
        ? `unnest($3::int[], $4::${g.type}[], $5::bigint[]) as n(m, g, k)`
        : 'unnest($3::int[], $4::bigint[]) as n(m, k)';
      const notKept = (x: string, start = true) =>
        `not exists (select 1 from ${n} where n.m = ${x}.m${g ? ` and n.g = ${x}.${g.column}` : ''}` +
        `${start ? ` and n.k = ${x}.start_at` : ''})`;
      const params = [replaced.map(mOf), replaced.map((w) => w.from)];
      // Each machine's closed records ending from its time on (decision 1122), a key range of each group from `since`.
      const groups = g
        ? ` cross join (values ${g.values.map((v) => `(${literal(v)})`).join(', ')}) as gv(g)`
        : '';
      statement(
        `delete from ${t.closed} where ctid = any(array(select x.ctid from unnest($1::int[], $2::bigint[]) ` +
          `as d(m, at)${groups} cross join lateral (select t.ctid, ${closedKey.map((c) => `t.${c}`).join(', ')} ` +
          `from ${t.closed} as t where t.m = d.m${g ? ` and t.${g.column} = gv.g` : ''} ` +
          `and t.start_at >= ${since('d.m', 'gv.g', 'd.at')} and t.end_at >= d.at offset 0) as x where ${notKept('x')}))`,
        [...params, ...keys(closed)],
      );
      const d = 'unnest($1::int[], $2::bigint[]) as d(m, at)';
      statement(
        t.keepsOpenRow
          ? `update ${t.open} as o set start_at = null from ${d} where o.m = d.m and o.start_at is not null and ${notKept('o', false)}`
          : `delete from ${t.open} as o using ${d} where o.m = d.m and ${notKept('o', false)}`,
        [...params, ...keys(open)],
      );
    }
  } else {
    const run = (text: string, params: unknown[]) => {
      out.push(sqlStatement(numbered, text, params));
    };
    const carried = ['m', ...group, 'start_at'];
    for (const w of takeOvers) {
      const [m, at] = [mOf(w), w.takeOverAt!];
      run(`delete from ${t.closed} where m = ? and start_at >= ?`, [m, at]);
      run(`update ${t.closed} set end_at = ? where m = ? and ${straddles(t.closed, '?', '?')}`, [
        at,
        m,
        ...(g ? g.values : [null]).flatMap(() => [m, at, at]),
        at,
        at,
      ]);
      run(`delete from ${t.open} where m = ? and start_at >= ?`, [m, at]);
      run(
        `insert or replace into ${t.closed} (${[...carried, 'end_at', ...rest].join(', ')}) ` +
          `select ${[...carried, '?', ...rest].join(', ')} from ${t.open} where m = ?`,
        [at, m],
      );
      run(`delete from ${t.open} where m = ?`, [m]);
    }
    for (const w of replaced) {
      for (const v of g ? g.values : [null])
        run(
          `delete from ${t.closed} where m = ?${v === null ? '' : ` and ${g!.column} = ${literal(v)}`} ` +
            `and start_at >= ${since('?', v === null ? null : literal(v), '?')} and end_at >= ?`,
          [mOf(w), mOf(w), w.from, w.from, w.from],
        );
      run(`delete from ${t.open} where m = ?`, [mOf(w)]);
    }
  }

  // The values of a row in the order of `columns` (start_at and end_at, then the rest; m put first).
  const at = (columns: readonly string[]) =>
    columns.slice(1).map((c) => {
      if (c === 'start_at') return t.start;
      if (c === 'end_at') return t.end;
      if (g && c === g.column) return g.at;
      return t.rest.find((r) => r.column === c)!.at;
    });
  const typeOf = (c: string) =>
    c === 'm'
      ? 'int'
      : c === 'start_at' || c === 'end_at'
        ? 'bigint'
        : g && c === g.column
          ? g.type
          : t.rest.find((r) => r.column === c)!.type;
  for (const [table, columns, of, tail] of [
    [t.closed, closedColumns, closed, closedUpsert],
    [t.open, openColumns, open, upsert(numbered, t.open, ['m', ...group], ['start_at', ...rest])],
  ] as const) {
    const from = at(columns);
    out.push(
      ...insertStatements(
        numbered,
        table,
        columns,
        of,
        (params, i, r) => {
          params[i] = mOf(r.w);
          for (let c = 0; c < from.length; c++) params[i + 1 + c] = r.values[from[c]!];
        },
        tail,
        columns.map(typeOf),
      ),
    );
  }
  return out;
}

/**
 * PostgreSQL, a packed table (decision 1196): before a batch replaces or writes a machine's closed records, its
 * packs holding any record ending at or after the earliest time the batch touches (a replaced write's time, a
 * take-over's, a new closed record's start) become rows again, so the replace and the upserts below find every
 * record they would have found as rows (the packer packs them again later). First the machine's closed rows from
 * that time are locked: a packing slice moving them waits for this batch or skips them, and one that committed
 * before the lock left packs the second statement (a snapshot of its own) finds. Records of one machine and group
 * never overlap, so the packs ending at or after the time, by (m, group, to_ts), hold all such records.
 */
function unpackStatements(
  t: NarrowTable,
  packs: string,
  g: NonNullable<NarrowTable['group']>,
  since: (m: string, group: string | null, at: string) => string,
  takeOvers: readonly DerivedWrite[],
  replaced: readonly DerivedWrite[],
  rows: readonly NarrowRow[],
  mOf: (w: DerivedWrite) => number,
): CompiledQuery[] {
  const at = new Map<number, number>();
  const touch = (w: DerivedWrite, time: unknown) => {
    const m = mOf(w);
    const n = Number(time);
    if (!at.has(m) || n < at.get(m)!) at.set(m, n);
  };
  for (const w of takeOvers) touch(w, w.takeOverAt);
  for (const w of replaced) touch(w, w.from);
  for (const r of rows) touch(r.w, r.values[t.start]);
  if (at.size === 0) return [];
  const params = [[...at.keys()], [...at.values()]].map(pgArray);
  const d = `unnest($1::int[], $2::bigint[]) as d(m, at) cross join (values ${g.values.map((v) => `(${literal(v)})`).join(', ')}) as gv(g)`;
  const carried = ['m', g.column, 'start_at', 'end_at', ...t.rest.map((r) => r.column)];
  return [
    CompiledQuery.raw(
      `select 1 from ${d} cross join lateral (select x.ctid from ${t.closed} as x where x.m = d.m ` +
        `and x.${g.column} = gv.g and x.start_at >= ${since('d.m', 'gv.g', 'd.at')} for update) as l`,
      params,
    ),
    CompiledQuery.raw(
      `with moved as (delete from ${packs} where ctid = any(array(select x.ctid from ${d} cross join lateral ` +
        `(select k.ctid from ${packs} as k where k.m = d.m and k.${g.column} = gv.g and k.to_ts >= d.at offset 0) ` +
        `as x)) returning *) insert into ${t.closed} (${carried.join(', ')}) ` +
        `select moved.m, moved.${g.column}, moved.from_ts + u.ds, moved.from_ts + u.ds + u.len, u.name from moved ` +
        `cross join lateral unnest(moved.starts, moved.lens, moved.names) as u(ds, len, name) on conflict do nothing`,
      params,
    ),
  ];
}
