import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from './schema';
import { numberedPlaceholders } from './batch-insert';
import { PACK_AGE_MS, slicesOf } from './observation-packs';

// Packed closed program intervals (issue 30 point 3, decision 1196; PostgreSQL only, SQLite keeps its rows). The
// packer moves each machine's closed programs (and sub-programs) ending more than PROGRAM_PACK_AGE_MS ago from
// program_rows into program_packs, one pack a machine, sub and UTC hour (by start) for the rows one slice moves, in a
// statement that deletes exactly the rows it packs. `program_intervals` (the view) and `programPacksIn` read them.
// Ingest's batch first moves back into rows every pack of its machines ending at or after its time (store-narrow.ts):
// a late batch replaces packed intervals as it replaces rows.

/**
 * Closed programs ending less than this long ago stay rows: a batch this late finds them there (a later one unpacks
 * the packs it reaches). The raw observations' age: program_rows holds a few minutes of rows, which the VACUUM after
 * each pass scans.
 */
export const PROGRAM_PACK_AGE_MS = PACK_AGE_MS;
/** A pack holds intervals starting in one UTC hour: its offsets fit an integer. */
const HOUR_MS = 3_600_000;
/** At most so many intervals of one machine and sub go into the packs of one slice (a backlog over several). */
export const PROGRAM_PACK_MACHINE_ROWS = 4_096;
/** A slice packs machines until it has moved about this many intervals. */
export const PROGRAM_PACK_SLICE_ROWS = 5_000;
/** Durations are packed as integers: an interval this long or longer stays a row. */
const LONGEST = 2 ** 31;

export interface ProgramPackPass {
  rowsPacked: number;
  packsMade: number;
}

interface Bound {
  m: number;
  sub: number;
  /** The slice takes the machine's intervals of the sub starting before this (exclusive). */
  upTo: number;
  rows: number;
}

/** Each machine and sub with closed programs ending before `cutoff`: how many (at most a slice's) and up to where. */
async function bounds(db: Kysely<Database>, cutoff: number): Promise<Bound[]> {
  // Intervals of one machine and sub never overlap: those ending before the cutoff are those starting before it,
  // but for the last one; a range of the key (m, sub, start_at).
  const due = (alias: string) =>
    sql`${sql.ref(`${alias}.m`)} = om.id and ${sql.ref(`${alias}.sub`)} = s.sub
      and ${sql.ref(`${alias}.start_at`)} < ${cutoff} and ${sql.ref(`${alias}.end_at`)} < ${cutoff}`;
  const { rows } = await sql<{ m: number; sub: number; rows: number; edge: string | null }>`
    select om.id as m, s.sub as sub,
      (select count(*) from (select 1 from program_rows r where ${due('r')}
        limit ${PROGRAM_PACK_MACHINE_ROWS}) x)::int as rows,
      (select e.start_at from program_rows e where ${due('e')} order by e.start_at
        offset ${PROGRAM_PACK_MACHINE_ROWS} limit 1) as edge
    from observation_machines om cross join (values (0), (1)) as s(sub) order by om.id, s.sub`.execute(db);
  return rows
    .filter((r) => r.rows > 0)
    .map((r) => ({ m: r.m, sub: r.sub, upTo: r.edge == null ? cutoff : Number(r.edge), rows: r.rows }));
}

/**
 * Moves the slice's intervals into packs in one statement: the rows deleted are exactly the rows packed. Rows a
 * batch holds locked (store-narrow.ts locks what it may replace) are left for the next pass.
 */
async function packSlice(db: Kysely<Database>, slice: readonly Bound[], cutoff: number) {
  const r = await sql<{ packs: number; rows: number }>`
    with b as (select * from unnest(${sql.val(slice.map((s) => s.m))}::int[], ${sql.val(slice.map((s) => s.sub))}::int[],
        ${sql.val(slice.map((s) => s.upTo))}::bigint[]) as b(m, sub, up)),
      picked as (select x.c from b cross join lateral (select r.ctid as c from program_rows r
        where r.m = b.m and r.sub = b.sub and r.start_at < b.up and r.end_at < ${cutoff}
          and r.end_at - r.start_at < ${LONGEST} for update skip locked) x),
      moved as (delete from program_rows r where r.ctid = any(array(select c from picked))
        returning r.m, r.sub, r.start_at, r.end_at, r.name),
      hours as (select m, sub, start_at, end_at, name, start_at / ${sql.lit(HOUR_MS)} as hour,
        min(start_at) over (partition by m, sub, start_at / ${sql.lit(HOUR_MS)}) as first from moved),
      made as (insert into program_packs (from_ts, to_ts, m, sub, starts, lens, names)
        select first, max(end_at), m, sub, array_agg((start_at - first)::int order by start_at),
          array_agg((end_at - start_at)::int order by start_at), array_agg(name order by start_at)
        from hours group by m, sub, hour, first
        returning cardinality(starts) as n)
    select count(*)::int as packs, coalesce(sum(n), 0)::int as rows from made`.execute(db);
  return { packs: Number(r.rows[0]?.packs ?? 0), rows: Number(r.rows[0]?.rows ?? 0) };
}

/**
 * One packing pass at `now` (PostgreSQL; nothing on SQLite): every machine's closed programs ending more than
 * `ageMs` ago go into packs, slice by slice, each its own transaction (the caller's when it is one). Safe on several
 * nodes at once (a row goes into one pack: the slices lock what they move) and to stop anywhere. After a pass that
 * moved rows, a VACUUM of program_rows lets the next rows reuse their space (decision 1184's reason).
 */
export async function packPrograms(
  db: Kysely<Database>,
  now: number,
  ageMs = PROGRAM_PACK_AGE_MS,
): Promise<ProgramPackPass> {
  const out: ProgramPackPass = { rowsPacked: 0, packsMade: 0 };
  if (!numberedPlaceholders(db)) return out;
  const cutoff = now - ageMs;
  for (let round = 0; ; round++) {
    const todo = await bounds(db, cutoff);
    const { slices, more } = slicesOf(todo, PROGRAM_PACK_SLICE_ROWS, PROGRAM_PACK_MACHINE_ROWS);
    for (const slice of slices) {
      const made = db.isTransaction
        ? await packSlice(db, slice, cutoff)
        : await db.transaction().execute((trx) => packSlice(trx, slice, cutoff));
      out.rowsPacked += made.rows;
      out.packsMade += made.packs;
    }
    // A machine had more intervals than a slice takes: the next round goes on from where it stopped (a backlog of
    // a day is 22 rounds at most; rows a batch held locked wait for the next pass).
    if (!more || round >= 32) break;
  }
  if (out.rowsPacked > 0 && !db.isTransaction) await sql`vacuum (skip_locked) program_rows`.execute(db);
  return out;
}

/**
 * The packed intervals of the machine whose dictionary id is `m` (an SQL expression) and sub overlapping
 * [start, end), as rows (name, start_at, end_at): found by (m, sub, to_ts) from `start`, only the packs reaching
 * into the range unnested. PostgreSQL only.
 */
export function programPacksIn(m: RawBuilder<number>, sub: number, range: { start: number; end: number }) {
  return sql<{ name: string; start_at: number; end_at: number }>`(select u.name as name,
      k.from_ts + u.ds as start_at, k.from_ts + u.ds + u.len as end_at
    from program_packs k cross join lateral unnest(k.starts, k.lens, k.names) as u(ds, len, name)
    where k.m = ${m} and k.sub = ${sub} and k.to_ts > ${range.start} and k.from_ts < ${range.end}
      and k.from_ts + u.ds < ${range.end} and k.from_ts + u.ds + u.len > ${range.start})`;
}
