import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from './schema';
import type { CompanyScope } from './scope';
import { numberedPlaceholders } from './batch-insert';
import { DAY_MS, dayPartitionName, RAW_LOCK_KEY } from './observation-partitions';
import { reclaimRewrittenRows } from './rewritten-rows';

// Packed raw observations (issue 30 point 3, decision 1184; PostgreSQL only, SQLite keeps its 28-byte rows). The
// packer moves each machine's rows older than PACK_AGE_MS from observation_rows into observation_packs, one pack a
// machine and UTC hour (so never across a day partition) for the rows one slice moves: a few thousand rows a
// transaction that deletes exactly the rows it packs (DELETE … RETURNING into the INSERT, one statement), so a node
// dying mid-slice loses and doubles nothing; late rows after a pack stay rows until the next pass packs them. The
// `observations` view reads rows and packs; the readers on hot paths read `observationsBetween`, which finds a
// machine's packs by their time bounds instead of unnesting all of them.

/** Rows younger than this stay rows: the live reads and a batch's late rows find them there. */
export const PACK_AGE_MS = 2 * 60_000;
/** A pack holds one machine's rows of one UTC hour at most: a read of a range unnests the packs that overlap it. */
export const PACK_SPAN_MS = 3_600_000;
/** At most so many rows of one machine go into the packs of one slice (a backlog is packed over several). */
export const PACK_MACHINE_ROWS = 4_096;
/** A slice packs machines until it has moved about this many rows. */
export const PACK_SLICE_ROWS = 5_000;
/** A read's order within one millisecond: a row's stored-order number times this, plus a pack element's place. */
const ORDER_SCALE = 1_048_576;

const SAFE = (t: number) => Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, t));

export interface PackPass {
  rowsPacked: number;
  packsMade: number;
  /** Another node held the lock: this pass stopped early. */
  yielded: boolean;
}

/**
 * Compact rows (m, ts, k, value, seq) of the machine whose dictionary id is `m` (an SQL expression) in [from, to):
 * its rows, and the elements of its packs that overlap the range (found by (m, from_ts): a pack starts at most
 * PACK_SPAN_MS before its last row). `seq` orders the rows of one millisecond as they were stored.
 */
function compactOf(m: RawBuilder<number>, from: number, to: number | undefined) {
  // No upper bound when none is asked: the plan is the (m, ts) range scan from `from`, as before.
  const rowsTo = to === undefined ? sql`` : sql`and o.ts < ${to}`;
  const packsTo = to === undefined ? sql`` : sql`and p.from_ts < ${to} and p.from_ts + u.dt < ${to}`;
  return sql`select o.m as m, o.ts as ts, o.k as k, o.value as value, coalesce(o.n, 0) * ${sql.lit(ORDER_SCALE)} as seq
      from observation_rows o where o.m = ${m} and o.ts >= ${from} ${rowsTo}
    union all
    select p.m, p.from_ts + u.dt, u.k, u.value, p.n * ${sql.lit(ORDER_SCALE)} + u.i
      from observation_packs p
      cross join lateral unnest(p.dts, p.ks, p.vals) with ordinality as u(dt, k, value, i)
      where p.m = ${m} and p.from_ts > ${from - PACK_SPAN_MS} and p.to_ts >= ${from}
        and p.from_ts + u.dt >= ${from} ${packsTo}`;
}

/** One observation as `observationsBetween` reads it: the view's columns and its order within a millisecond. */
export interface ObservationRead {
  company_id: string;
  machine_id: string;
  ts: number;
  key: string;
  value: string | null;
  /** Orders the rows of one machine and millisecond as they were stored (order by ts, seq). */
  seq: number;
}

/**
 * The observations of the machines (`machineIds`, of `companyId` when given: a company's reads never see rows
 * another company wrote under the same machine id) in [from, to), as a table named `observations` with the view's
 * columns and `seq` (`db.selectFrom(observationsBetween(…))`; order by ts, seq for the stored order). Unlike the
 * view, it reads only the packs that overlap the range.
 */
export function observationsBetween(
  db: Kysely<Database>,
  q: { companyId?: string; machineIds: readonly string[]; from: number; to?: number },
) {
  const from = SAFE(q.from);
  const to = q.to === undefined ? undefined : SAFE(q.to);
  const ids = q.machineIds.length > 0 ? sql.join([...q.machineIds]) : sql`null`;
  const company = q.companyId === undefined ? sql`` : sql`and om.company_id = ${q.companyId}`;
  const body = numberedPlaceholders(db)
    ? sql`select om.company_id as company_id, om.machine_id as machine_id, c.ts as ts, ok.key as key,
        c.value as value, c.seq as seq
      from observation_machines om
      cross join lateral (${compactOf(sql.ref('om.id'), from, to)}) c
      join observation_keys ok on ok.id = c.k
      where om.machine_id in (${ids}) ${company}`
    : sql`select om.company_id as company_id, om.machine_id as machine_id, o.ts as ts, ok.key as key,
        o.value as value, o.seq as seq
      from observation_machines om
      join observation_rows o on o.m = om.id
      join observation_keys ok on ok.id = o.k
      where om.machine_id in (${ids}) ${company} and o.ts >= ${from} ${to === undefined ? sql`` : sql`and o.ts < ${to}`}`;
  return sql<ObservationRead>`(${body})`.as('observations');
}

/**
 * observationsBetween in the caller's company (tenancy as `scope.selectFrom('observations')`): a select from it of
 * the machines' observations in [from, to).
 */
export function companyObservations(
  scope: CompanyScope,
  machineIds: readonly string[],
  from: number,
  to?: number,
) {
  return scope.db.selectFrom(
    observationsBetween(scope.db, { companyId: scope.companyId, machineIds, from, to }),
  );
}

/**
 * The machine's newest observation of one of `keys` before `before` in the caller's company: the day before it
 * first (where it nearly always is), then all that is older, so a read never unnests every pack of the machine for
 * a value that changed a second ago (decision 1184).
 */
export async function lastObservationBefore(
  scope: CompanyScope,
  machineId: string,
  keys: readonly string[],
  before: number,
): Promise<{ ts: number; key: string; value: string | null } | undefined> {
  if (keys.length === 0) return undefined;
  for (const from of [before - DAY_MS, -Infinity]) {
    const row = await companyObservations(scope, [machineId], from, before)
      .select(['ts', 'key', 'value'])
      .where('key', 'in', [...keys])
      .orderBy('ts', 'desc')
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (row) return { ts: Number(row.ts), key: row.key, value: row.value };
  }
  return undefined;
}

/**
 * The compact rows (m, ts, k, value, seq) of the dictionary ids `ms` in [from, to), as a table named `r`: what the
 * rebuild's seed search reads by machine id.
 */
export function compactObservationsBetween(
  db: Kysely<Database>,
  ms: readonly number[],
  from: number,
  to: number,
) {
  const lo = SAFE(from);
  const hi = SAFE(to);
  const ids = ms.length > 0 ? sql.join([...ms]) : sql`null`;
  const body = numberedPlaceholders(db)
    ? sql`select c.* from observation_machines om cross join lateral (${compactOf(sql.ref('om.id'), lo, hi)}) c
        where om.id in (${ids})`
    : sql`select m, ts, k, value, seq from observation_rows where m in (${ids}) and ts >= ${lo} and ts < ${hi}`;
  return sql<{ m: number; ts: number; k: number; value: string | null; seq: number }>`(${body})`.as('r');
}

/** The first stored time of each dictionary id `m` (an SQL expression): its first row or pack, one key step each. */
export function firstStoredAt(db: Kysely<Database>, m: RawBuilder<number>): RawBuilder<number | null> {
  const row = sql`(select r.ts from observation_rows r where r.m = ${m} order by r.ts limit 1)`;
  if (!numberedPlaceholders(db)) return sql<number | null>`${row}`;
  // least() ignores nulls: a machine whose rows are all packed, or that has no pack yet.
  return sql<
    number | null
  >`least(${row}, (select p.from_ts from observation_packs p where p.m = ${m} order by p.from_ts limit 1))`;
}

/**
 * A pass's bounds in slices of about `sliceRows` rows (a bound alone when larger), in order; `more` when a bound took
 * `machineRows` (its machine has more: the pass goes on with another round).
 */
export function slicesOf<B extends { rows: number }>(
  todo: readonly B[],
  sliceRows: number,
  machineRows: number,
): { slices: B[][]; more: boolean } {
  const slices: B[][] = [];
  let rows = 0;
  for (const b of todo) {
    const last = slices.at(-1);
    if (last && rows + b.rows <= sliceRows) {
      last.push(b);
      rows += b.rows;
    } else {
      slices.push([b]);
      rows = b.rows;
    }
  }
  return { slices, more: todo.some((b) => b.rows >= machineRows) };
}

/** A slice's machines and how far each one's rows go into packs (exclusive). */
interface Bound {
  m: number;
  upTo: number;
  rows: number;
}

/** Each machine with rows before `cutoff`: how many (at most PACK_MACHINE_ROWS) and up to where one slice takes them. */
async function bounds(db: Kysely<Database>, cutoff: number): Promise<Bound[]> {
  const { rows } = await sql<{ m: number; rows: number; first: number | null; edge: number | null }>`
    select om.id as m,
      (select count(*) from (select 1 from observation_rows r where r.m = om.id and r.ts < ${cutoff}
        limit ${PACK_MACHINE_ROWS}) x)::int as rows,
      (select r.ts from observation_rows r where r.m = om.id and r.ts < ${cutoff} order by r.ts limit 1) as first,
      (select r.ts from observation_rows r where r.m = om.id and r.ts < ${cutoff} order by r.ts
        offset ${PACK_MACHINE_ROWS} limit 1) as edge
    from observation_machines om order by om.id`.execute(db);
  const out: Bound[] = [];
  for (const r of rows) {
    if (r.first == null) continue;
    // Up to the first row past PACK_MACHINE_ROWS, exclusive (a millisecond's rows stay together); past it when one
    // millisecond holds more (never seen; the pack is then larger).
    const edge = r.edge == null ? cutoff : Number(r.edge);
    out.push({ m: r.m, upTo: edge > Number(r.first) ? edge : edge + 1, rows: Number(r.rows) });
  }
  return out;
}

/**
 * Moves the rows of the slice's machines before their bound into packs, in one statement: the rows deleted are
 * exactly the rows packed. Ties keep their stored order (n; rows stored before 0065 by their place in the heap).
 */
async function packSlice(trx: Kysely<Database>, slice: readonly Bound[]) {
  const r = await sql<{ packs: number; rows: number; days: number[] | null }>`
    with b as (select * from unnest(${sql.val(slice.map((s) => s.m))}::int[],
        ${sql.val(slice.map((s) => s.upTo))}::bigint[]) as b(m, up)),
      moved as (delete from observation_rows r using b where r.m = b.m and r.ts < b.up
        returning r.m, r.ts, r.k, r.value, r.n, r.ctid as place),
      hours as (select m, ts, k, value, n, place, ts / ${sql.lit(PACK_SPAN_MS)} as hour,
        min(ts) over (partition by m, ts / ${sql.lit(PACK_SPAN_MS)}) as first from moved),
      made as (insert into observation_packs (m, from_ts, to_ts, n, dts, ks, vals)
        select m, first, max(ts), coalesce(max(n), 0),
          array_agg((ts - first)::int order by ts, n nulls first, place),
          array_agg(k order by ts, n nulls first, place),
          array_agg(value order by ts, n nulls first, place)
        from hours group by m, hour, first
        returning cardinality(dts) as n, from_ts / ${sql.lit(DAY_MS)} as day)
    select count(*)::int as packs, coalesce(sum(n), 0)::int as rows, array_agg(distinct day::int) as days
    from made`.execute(trx);
  const row = r.rows[0];
  return { packs: Number(row?.packs ?? 0), rows: Number(row?.rows ?? 0), days: row?.days ?? [] };
}

/**
 * One packing pass at `now` (PostgreSQL; nothing to do on SQLite): every machine's rows older than `ageMs` go into
 * packs, slice by slice, each its own transaction under the raw observations' advisory lock (raw retention's: a
 * pass of either never reads rows the other is moving). Safe to run on several nodes and to stop anywhere; in a
 * transaction, its slices are that transaction's.
 */
export async function packObservations(
  db: Kysely<Database>,
  now: number,
  ageMs = PACK_AGE_MS,
): Promise<PackPass> {
  const out: PackPass = { rowsPacked: 0, packsMade: 0, yielded: false };
  if (!numberedPlaceholders(db)) return out;
  const cutoff = now - ageMs;
  const days = new Set<number>();
  try {
    await packAll(db, cutoff, out, days);
  } finally {
    if (!db.isTransaction) {
      await reclaim(db, days);
      // Decision 1190: the minute's pass also reclaims the dead versions of the rows ingest rewrites all day.
      await reclaimRewrittenRows(db);
    }
  }
  return out;
}

/**
 * VACUUM of the row partitions a pass deleted from, so the next rows reuse their space (today's partition stays the
 * size of a few minutes of rows instead of a day's). Not left to autovacuum, which may be off or a minute behind;
 * SKIP_LOCKED: a vacuum another node runs on the same partition is enough.
 */
async function reclaim(db: Kysely<Database>, days: ReadonlySet<number>) {
  for (const day of days) {
    const name = dayPartitionName(day);
    const exists = await sql<{ t: string | null }>`select to_regclass(${name})::text as t`.execute(db);
    const table = exists.rows[0]?.t ? name : 'observation_rows_default';
    await sql`vacuum (skip_locked) ${sql.id(table)}`.execute(db);
  }
}

async function packAll(db: Kysely<Database>, cutoff: number, out: PackPass, days: Set<number>) {
  for (;;) {
    const todo = await bounds(db, cutoff);
    if (todo.length === 0) return;
    const { slices, more } = slicesOf(todo, PACK_SLICE_ROWS, PACK_MACHINE_ROWS);
    for (const slice of slices) {
      const work = async (trx: Kysely<Database>) => {
        const got = await sql<{
          ok: boolean;
        }>`select pg_try_advisory_xact_lock(${RAW_LOCK_KEY}) as ok`.execute(trx);
        if (!got.rows[0]?.ok) return false;
        const made = await packSlice(trx, slice);
        out.rowsPacked += made.rows;
        out.packsMade += made.packs;
        for (const day of made.days) days.add(Number(day));
        return true;
      };
      // Inside the caller's transaction (tests, tools) the slices are its; otherwise each is its own.
      const ok = db.isTransaction ? await work(db) : await db.transaction().execute(work);
      if (!ok) {
        out.yielded = true;
        return;
      }
    }
    // A machine had more rows than one slice takes: the next round goes on from where its slice stopped.
    if (!more) return;
  }
}
