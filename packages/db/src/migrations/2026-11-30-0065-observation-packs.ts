import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';
import { createDayPartition, dayPartitions } from '../observation-partitions';

// Packed raw observations on PostgreSQL (issue 30 point 3, decision 1184). A row of observation_rows costs about 80
// bytes with its (m, ts) index for a value of a few bytes; the packer (observation-packs.ts) moves a machine's rows
// older than a few minutes into one row a machine and hour: the times as offsets from the pack's first, the key ids
// and the values as three arrays, compressed with lz4 (toast_tuple_target 128: PostgreSQL compresses a row over
// 2 kB only by default). SQLite keeps its WITHOUT ROWID rows (28 bytes an observation): nothing changes there.
// - observation_rows gets `n`, a number from one sequence in the order rows are stored: ties of one machine and
//   millisecond keep their stored order through packing and through a heap whose freed space is reused (ctid
//   order was the stored order only while the day partitions were never deleted from). Rows stored before this
//   migration have none (they are older than any numbered row).
// - observation_packs (m, from_ts, to_ts, n, dts, ks, vals), partitioned by day on from_ts like observation_rows
//   (the same partition making and dropping), a pack never crossing an hour; `n` the largest of its rows' numbers.
// - `observations` becomes the rows UNION ALL the packs unnested: every reader sees the same rows as before.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Db): Promise<void> {
  if (!isPostgres(db)) return;
  // No cache: numbers handed to several connections stay in the order they are taken.
  await sql`create sequence observation_rows_n`.execute(db);
  // Added without a default first: the existing rows keep null and no partition is rewritten.
  await sql`alter table observation_rows add column n bigint`.execute(db);
  await sql`alter table observation_rows alter column n set default nextval('observation_rows_n')`.execute(
    db,
  );
  await sql`create table observation_packs (
      from_ts bigint not null, to_ts bigint not null, n bigint not null, m integer not null,
      dts integer[] not null, ks integer[] not null, vals text[] not null) partition by range (from_ts)`.execute(
    db,
  );
  await sql`create table observation_packs_default partition of observation_packs default`.execute(db);
  await sql`create index observation_packs_m_from on observation_packs (m, from_ts)`.execute(db);
  // Partitions made afterwards take these from the parent.
  await sql`alter table observation_packs alter column dts set compression lz4, alter column ks set compression lz4,
    alter column vals set compression lz4`.execute(db);
  await sql`alter table observation_packs_default set (toast_tuple_target = 128)`.execute(db);
  // The days observation_rows has partitions for get their pack partitions.
  for (const day of await dayPartitions(db)) await createDayPartition(db, day);
  await sql`create or replace view observations as
    select om.company_id as company_id, om.machine_id as machine_id, o.ts as ts, ok.key as key, o.value as value
    from observation_rows o
    join observation_machines om on om.id = o.m
    join observation_keys ok on ok.id = o.k
    union all
    select om.company_id, om.machine_id, p.from_ts + u.dt, ok.key, u.value
    from observation_packs p
    cross join lateral unnest(p.dts, p.ks, p.vals) as u(dt, k, value)
    join observation_machines om on om.id = p.m
    join observation_keys ok on ok.id = u.k`.execute(db);
}

export async function down(db: Db): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`insert into observation_rows (ts, m, k, value)
    select p.from_ts + u.dt, p.m, u.k, u.value from observation_packs p
    cross join lateral unnest(p.dts, p.ks, p.vals) with ordinality as u(dt, k, value, i)
    order by p.m, p.n, u.i`.execute(db);
  await sql`create or replace view observations as
    select om.company_id as company_id, om.machine_id as machine_id, o.ts as ts, ok.key as key, o.value as value
    from observation_rows o
    join observation_machines om on om.id = o.m
    join observation_keys ok on ok.id = o.k`.execute(db);
  await sql`drop table observation_packs`.execute(db);
  await sql`alter table observation_rows drop column n`.execute(db);
  await sql`drop sequence observation_rows_n`.execute(db);
}
