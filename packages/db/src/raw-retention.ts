import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { OVERRIDE_TYPES } from '@takt/domain';
import type { Database } from './schema';
import { numberedPlaceholders } from './batch-insert';
import {
  createDayPartition,
  DAY_MS,
  dayPartitionName,
  dayPartitions,
  packPartitionName,
  RAW_LOCK_KEY,
} from './observation-partitions';

// Raw retention (issue 30 point 3, decision 1132): raw observations older than the retention are removed in small
// slices, each its own short transaction, so ingest's batches wait at most one slice. Derived intervals, cycles and
// rollups are never touched. Before a machine's rows go, each key's last value before the floor is kept in
// observation_seeds (a rebuild for late data starts from the signals in force, decision 1025), and every change of
// its override keys in observation_steps (the Overrides report before the floor, decision 1150). The floor is
// advanced before anything is removed: late data before it is refused (ingest counts and logs it).
// PostgreSQL (decision 1131): day partitions wholly before the floor are dropped after their seeds are kept, the
// default partition is sliced like SQLite, the days ahead are made; one node at a time (an advisory lock a slice).

/** Rows one slice removes at most (a few milliseconds of work on either database). */
export const RETENTION_SLICE_ROWS = 5_000;
/** Day partitions kept made ahead of today (PostgreSQL). */
export const PARTITION_DAYS_AHEAD = 3;

export interface RetentionPass {
  floor: number;
  rowsRemoved: number;
  partitionsDropped: number;
  partitionsMade: number;
  /** Another node held the lock: this pass stopped early. */
  yielded: boolean;
}

/** The floor of raw observations: those before it may be gone, and late data before it is refused. */
export async function rawFloor(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('raw_floor').select('floor_at').where('id', '=', 1).executeTakeFirst();
  return Number(row?.floor_at ?? 0);
}

/** Where the floor stands for `days` of retention at `now`: the start of the UTC day `days` days back. */
export const floorFor = (now: number, days: number) => Math.floor((now - days * DAY_MS) / DAY_MS) * DAY_MS;

/** Runs `work` in a transaction holding the retention lock; false when another node holds it (PostgreSQL). */
async function slice(
  db: Kysely<Database>,
  pg: boolean,
  work: (trx: Kysely<Database>) => Promise<void>,
): Promise<boolean> {
  return (
    db
      .transaction()
      .execute(async (trx) => {
        if (pg) {
          const got = await sql<{
            ok: boolean;
          }>`select pg_try_advisory_xact_lock(${RAW_LOCK_KEY}) as ok`.execute(trx);
          if (!got.rows[0]?.ok) return false;
          // Dropping or making a partition waits for no batch longer than this; it is tried again next pass.
          await sql`set local lock_timeout = '200ms'`.execute(trx);
        }
        await work(trx);
        return true;
      })
      // A lock not had within lock_timeout (55P03): ingest comes first, the next pass tries again.
      .catch((err: unknown) => {
        if ((err as { code?: string }).code === '55P03') return false;
        throw err;
      })
  );
}

/**
 * Raw observations as rows (m, k, ts, value) from a table of rows and, on PostgreSQL, one of packs unnested
 * (decision 1184): what a day partition, or the default partitions, hold.
 */
function rawIn(rows: string, packs: string | null) {
  if (packs == null) return sql`${sql.table(rows)}`;
  return sql`(select m, k, ts, value from ${sql.table(rows)}
    union all
    select p.m, u.k, p.from_ts + u.dt, u.value from ${sql.table(packs)} p
    cross join lateral unnest(p.dts, p.ks, p.vals) as u(dt, k, value))`;
}
type Raw = ReturnType<typeof rawIn>;

/** Keeps each key's last value among machine m's rows before `before` (in `raw`) as its seed, if newer. */
async function keepSeeds(trx: Kysely<Database>, pg: boolean, raw: Raw, m: number, before: number) {
  const latest = pg
    ? sql`select distinct on (k) m, k, ts, value from ${raw} s where m = ${m} and ts < ${before}
        order by k, ts desc`
    : // SQLite: a bare column beside max() comes from the row holding the max.
      sql`select m, k, max(ts) as ts, value from observation_rows where m = ${m} and ts < ${before} group by k`;
  await sql`insert into observation_seeds (m, k, ts, value) select m, k, ts, value from (${latest}) latest
    where true
    on conflict (m, k) do update set ts = excluded.ts, value = excluded.value
    where excluded.ts >= observation_seeds.ts`.execute(trx);
}

/**
 * Keeps every change of machine m's override keys (its adapter's fields of an override type, as the Overrides report
 * charts them) among its rows before `before` (in `raw`): the report reads them for ranges before the floor
 * (decision 1150). A key's first row in the slice is kept as it is; later ones only when the value changed.
 */
async function keepSteps(trx: Kysely<Database>, raw: Raw, m: number, before: number) {
  await sql`insert into observation_steps (m, k, ts, value)
    select m, k, ts, value from (
      select r.m, r.k, r.ts, r.value, lag(r.value) over (partition by r.k order by r.ts) as prev,
        row_number() over (partition by r.k order by r.ts) as n
      from ${raw} r
      where r.m = ${m} and r.ts < ${before} and r.k in (
        select ok.id from observation_machines om
        join machines mc on mc.id = om.machine_id and mc.company_id = om.company_id
        join adapter_fields af on af.adapter_id = mc.adapter_id and af.company_id = om.company_id
        join observation_keys ok on ok.key = af.name
        where om.id = ${m} and upper(af.data_item_type) in (${sql.join([...OVERRIDE_TYPES])}))
    ) changes
    where n = 1 or not (prev = value or (prev is null and value is null))
    on conflict (m, k, ts) do nothing`.execute(trx);
}

const ROWS = rawIn('observation_rows', null);

/** Machine m's rows before `floor` (in `table`), in slices: seeds kept, rows removed. Returns rows removed. */
async function trimMachine(db: Kysely<Database>, pg: boolean, m: number, floor: number, out: RetentionPass) {
  const oldest = await sql<{
    ts: number | null;
  }>`select min(ts) as ts from observation_rows where m = ${m}`.execute(db);
  const first = oldest.rows[0]?.ts;
  if (first == null || Number(first) >= floor) return true;
  for (;;) {
    let done = false;
    const ok = await slice(db, pg, async (trx) => {
      const edge = await sql<{ ts: number }>`select ts from observation_rows where m = ${m} and ts < ${floor}
        order by ts limit 1 offset ${RETENTION_SLICE_ROWS - 1}`.execute(trx);
      const upTo = edge.rows[0] ? Math.min(floor, Number(edge.rows[0].ts) + 1) : floor;
      await keepSeeds(trx, pg, ROWS, m, upTo);
      await keepSteps(trx, ROWS, m, upTo);
      const r = await sql`delete from observation_rows where m = ${m} and ts < ${upTo}`.execute(trx);
      out.rowsRemoved += Number(r.numAffectedRows ?? 0);
      done = upTo >= floor;
    });
    if (!ok) return false;
    if (done) return true;
  }
}

/**
 * PostgreSQL: machine m's packs before `floor` left in the default partition (their day had none): seeds and steps
 * kept, packs removed, in one slice (a pack never crosses a day, so none straddles the floor).
 */
async function trimPacks(db: Kysely<Database>, m: number, floor: number, out: RetentionPass) {
  const any =
    await sql`select 1 from observation_packs where m = ${m} and from_ts < ${floor} limit 1`.execute(db);
  if (any.rows.length === 0) return true;
  return slice(db, true, async (trx) => {
    const raw = rawIn('observation_rows_default', 'observation_packs_default');
    await keepSeeds(trx, true, raw, m, floor);
    await keepSteps(trx, raw, m, floor);
    const r = await sql<{
      n: number;
    }>`with gone as (delete from observation_packs where m = ${m} and from_ts < ${floor}
      returning cardinality(dts) as n) select coalesce(sum(n), 0)::int as n from gone`.execute(trx);
    out.rowsRemoved += Number(r.rows[0]?.n ?? 0);
  });
}

/**
 * One retention pass for `days` days at `now` (0 days: keep everything). Safe to run on several nodes at once
 * and to stop anywhere: a later pass goes on where it stopped.
 */
export async function runRawRetention(
  db: Kysely<Database>,
  days: number,
  now: number,
): Promise<RetentionPass> {
  const pg = numberedPlaceholders(db);
  const out: RetentionPass = {
    floor: 0,
    rowsRemoved: 0,
    partitionsDropped: 0,
    partitionsMade: 0,
    yielded: false,
  };
  const today = Math.floor(now / DAY_MS);
  if (pg) {
    for (let day = today; day <= today + PARTITION_DAYS_AHEAD; day++) {
      if (
        !(await slice(
          db,
          pg,
          async (trx) => void ((await createDayPartition(trx, day)) && out.partitionsMade++),
        ))
      )
        return { ...out, yielded: true };
    }
  }
  if (days <= 0) return { ...out, floor: await rawFloor(db) };
  const floor = floorFor(now, days);
  // The floor first: from here on a late record before it is refused, whatever is removed yet.
  await db
    .updateTable('raw_floor')
    .set({
      floor_at: sql<number>`case when floor_at < ${floor} then ${floor} else floor_at end`,
      updated_at: now,
    })
    .where('id', '=', 1)
    .execute();
  out.floor = await rawFloor(db);
  const machines = await db.selectFrom('observation_machines').select('id').orderBy('id').execute();
  if (pg) {
    for (const day of await dayPartitions(db)) {
      if ((day + 1) * DAY_MS > out.floor) break;
      const table = dayPartitionName(day);
      const packs = packPartitionName(day);
      const raw = rawIn(table, packs);
      for (const { id } of machines)
        if (
          !(await slice(db, pg, async (trx) => {
            await keepSeeds(trx, pg, raw, id, out.floor);
            await keepSteps(trx, raw, id, out.floor);
          }))
        )
          return { ...out, yielded: true };
      const dropped = await slice(db, pg, async (trx) => {
        await sql`drop table ${sql.id(table)}`.execute(trx);
        await sql`drop table if exists ${sql.id(packs)}`.execute(trx);
      });
      if (!dropped) return { ...out, yielded: true };
      out.partitionsDropped++;
    }
  }
  // What is left before the floor (SQLite: everything; PostgreSQL: the default partition's), machine by machine.
  for (const { id } of machines) {
    if (!(await trimMachine(db, pg, id, out.floor, out))) return { ...out, yielded: true };
    if (pg && !(await trimPacks(db, id, out.floor, out))) return { ...out, yielded: true };
  }
  return out;
}
