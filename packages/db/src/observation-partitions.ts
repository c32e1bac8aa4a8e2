import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// PostgreSQL keeps raw observations in one partition per UTC day of `ts` (decision 1131), made ahead of time by the
// raw retention worker, plus a default partition that takes whatever falls outside the days made (a machine clock
// far ahead, late data for a day already dropped). Retention drops whole day partitions.

export const DAY_MS = 86_400_000;

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

/**
 * Makes the partition of `day` unless it exists. Rows of that day already in the default partition (it took them
 * while the day had none) move into it, as PostgreSQL refuses a partition whose rows sit in the default one. Run
 * it inside a transaction when several nodes may: the caller's advisory lock keeps them apart.
 */
export async function createDayPartition(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  day: number,
): Promise<boolean> {
  const name = dayPartitionName(day);
  const exists = await sql<{ t: string | null }>`select to_regclass(${name})::text as t`.execute(db);
  if (exists.rows[0]?.t) return false;
  const from = day * DAY_MS;
  const to = from + DAY_MS;
  const stray =
    await sql`select 1 from observation_rows_default where ts >= ${from} and ts < ${to} limit 1`.execute(db);
  if (stray.rows.length === 0) {
    await sql`create table ${sql.id(name)} partition of observation_rows for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(
      db,
    );
    return true;
  }
  await sql`create table ${sql.id(name)} (like observation_rows)`.execute(db);
  await sql`insert into ${sql.id(name)} select * from observation_rows_default where ts >= ${from} and ts < ${to}`.execute(
    db,
  );
  await sql`delete from observation_rows_default where ts >= ${from} and ts < ${to}`.execute(db);
  await sql`alter table observation_rows attach partition ${sql.id(name)} for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(
    db,
  );
  return true;
}
