import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Decision 1196 (issue 30 point 3): closed program intervals packed on PostgreSQL, as raw observations are
// (decision 1184). A soak machine closes a program every second: 86,400 rows of program_rows a machine-day, 56 bytes
// of heap and a key entry each for a few bytes of data. The packer (packages/db/src/program-packs.ts) moves a
// machine's closed intervals of one sub and UTC hour (by start) into one row of program_packs: start offsets from the
// pack's first start, durations and names, lz4-compressed (toast_tuple_target lowered so a pack of a minute is
// compressed at all). `program_intervals` reads the packs unnested beside the rows, with the same columns. SQLite keeps
// its rows (nothing here).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

const view = (packs: boolean) => sql`create or replace view program_intervals as
  select om.company_id as company_id, om.machine_id as machine_id, p.sub as sub,
    p.start_at as start_at, p.end_at as end_at, p.name as name
  from program_rows p join observation_machines om on om.id = p.m
  union all
  select om.company_id, om.machine_id, o.sub, o.start_at, null::bigint, o.name
  from program_open o join observation_machines om on om.id = o.m
  ${
    packs
      ? sql`union all
  select om.company_id, om.machine_id, k.sub, k.from_ts + u.ds, k.from_ts + u.ds + u.len, u.name
  from program_packs k join observation_machines om on om.id = k.m
  cross join lateral unnest(k.starts, k.lens, k.names) as u(ds, len, name)`
      : sql``
  }`;

export async function up(db: Db): Promise<void> {
  if (!isPostgres(db)) return;
  // from_ts: the pack's first start; to_ts: its last end (a range read's and a late batch's search, by (m, sub,
  // to_ts; from_ts in the key so a range read tests it in the index): a machine's intervals of one sub never overlap, so the packs ending after a time hold every interval
  // ending after it). starts are offsets from from_ts (within one hour), lens the durations (an interval of 2^31 ms
  // or more stays a row).
  await sql`create table program_packs (
    from_ts bigint not null, to_ts bigint not null, m integer not null, sub integer not null check (sub in (0, 1)),
    starts integer[] not null, lens integer[] not null, names text[] not null)`.execute(db);
  await sql`create index program_packs_m_end on program_packs (m, sub, to_ts, from_ts)`.execute(db);
  await sql`alter table program_packs set (toast_tuple_target = 128)`.execute(db);
  for (const c of ['starts', 'lens', 'names'])
    await sql`alter table program_packs alter column ${sql.id(c)} set compression lz4`.execute(db);
  // The view keeps its columns (and its insert trigger: a replace, not a drop).
  await view(true).execute(db);
}

export async function down(db: Db): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`insert into program_rows (start_at, end_at, m, sub, name)
    select k.from_ts + u.ds, k.from_ts + u.ds + u.len, k.m, k.sub, u.name
    from program_packs k cross join lateral unnest(k.starts, k.lens, k.names) as u(ds, len, name)
    on conflict do nothing`.execute(db);
  await view(false).execute(db);
  await sql`drop table program_packs`.execute(db);
}
