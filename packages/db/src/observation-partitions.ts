import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// PostgreSQL keeps raw observations in one partition per UTC day of `ts` (decision 1131), made ahead of time by the
// raw retention worker, plus a default partition that takes whatever falls outside the days made (a machine clock
// far ahead, late data for a day already dropped). Retention drops whole day partitions.

export const DAY_MS = 86_400_000;
/**
 * The advisory lock of whatever moves or removes raw observations on PostgreSQL: a raw retention slice (decision
 * 1132) and a packing slice (decision 1184) never run at once, on one node or several.
 */
export const RAW_LOCK_KEY = 0x7a6b7430;

/** `observation_rows_p20261129`: the partition of UTC day `day` (days since 1970). */
export function dayPartitionName(day: number): string {
  return `observation_rows_p${new Date(day * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '')}`;
}

/** The UTC day a partition name stands for; null for any other table. */
export function partitionDay(name: string): number | null {
  const m = /^observation_rows_p(\d{4})(\d{2})(\d{2})$/.exec(name);
  if (!m) return null;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS;
}

/** The day partitions that exist, oldest first. */
export async function dayPartitions(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
): Promise<number[]> {
  const r = await sql<{ name: string }>`select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'observation_rows'::regclass`.execute(db);
  const days: number[] = [];
  for (const { name } of r.rows) {
    const day = partitionDay(name);
    if (day != null) days.push(day);
  }
  return days.sort((a, b) => a - b);
}

/** `observation_packs_p20261129`: the day partition of the packs (decision 1184), made and dropped with the rows'. */
export function packPartitionName(day: number): string {
  return dayPartitionName(day).replace('observation_rows_p', 'observation_packs_p');
}

/** The two partitioned tables of raw observations: their day partitions come and go together. */
const TABLES = [
  { parent: 'observation_rows', column: 'ts', name: dayPartitionName, packs: false },
  { parent: 'observation_packs', column: 'from_ts', name: packPartitionName, packs: true },
] as const;

/**
 * Makes the partitions of `day` (raw rows and packs) unless they exist. Rows of that day already in a default
 * partition (it took them while the day had none) move into it, as PostgreSQL refuses a partition whose rows sit in
 * the default one. Run it inside a transaction when several nodes may: the caller's advisory lock keeps them apart.
 */
export async function createDayPartition(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  day: number,
): Promise<boolean> {
  let made = false;
  for (const t of TABLES) made = (await createPartition(db, t, day)) || made;
  return made;
}

async function createPartition(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  t: (typeof TABLES)[number],
  day: number,
): Promise<boolean> {
  const name = t.name(day);
  const exists = await sql<{
    t: string | null;
    parent: string | null;
  }>`select to_regclass(${name})::text as t,
    to_regclass(${t.parent})::text as parent`.execute(db);
  // Migrations before 0065 make the rows' partitions only: there are no packs yet.
  if (exists.rows[0]?.t || !exists.rows[0]?.parent) return false;
  const from = day * DAY_MS;
  const to = from + DAY_MS;
  const parent = sql.id(t.parent);
  const fallback = sql.id(`${t.parent}_default`);
  const column = sql.id(t.column);
  const bounds = sql`for values from (${sql.lit(from)}) to (${sql.lit(to)})`;
  const stray =
    await sql`select 1 from ${fallback} where ${column} >= ${from} and ${column} < ${to} limit 1`.execute(db);
  if (stray.rows.length === 0) {
    await sql`create table ${sql.id(name)} partition of ${parent} ${bounds}`.execute(db);
  } else {
    await sql`create table ${sql.id(name)} (like ${parent})`.execute(db);
    await sql`insert into ${sql.id(name)} select * from ${fallback} where ${column} >= ${from} and ${column} < ${to}`.execute(
      db,
    );
    await sql`delete from ${fallback} where ${column} >= ${from} and ${column} < ${to}`.execute(db);
    await sql`alter table ${parent} attach partition ${sql.id(name)} ${bounds}`.execute(db);
  }
  if (t.packs) await packStorage(db, name);
  return true;
}

/**
 * A pack partition's storage (decision 1184): PostgreSQL tries to compress a row's values only once the row passes
 * toast_tuple_target (2 kB unless set, most packs are smaller); lz4 is faster than pglz and packs as well here.
 */
async function packStorage(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  name: string,
) {
  await sql`alter table ${sql.id(name)} set (toast_tuple_target = 128)`.execute(db);
  await sql`alter table ${sql.id(name)} alter column dts set compression lz4, alter column ks set compression lz4,
    alter column vals set compression lz4`.execute(db);
}
