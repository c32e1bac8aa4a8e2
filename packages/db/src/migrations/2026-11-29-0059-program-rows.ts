import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Decision 1161 (issue 30 point 3): program intervals, the biggest derived table (a soak machine changes program every
// second: 86,400 rows a machine-day), stored narrow and written once.
// - The machine is observation_machines' small integer id (decision 1130), not the 36-character company and machine
//   text ids on every row and index entry (about 150 of a row's 279 bytes on PostgreSQL).
// - A closed interval is inserted once into program_rows and never updated there; the open one lives in
//   program_open, one row a machine and sub, keyed by them alone: a new program is an update of its start and name,
//   neither indexed, into room the fill factor keeps in its page (a HOT update, pruned in place). Closing a program
//   updated end_at, an indexed column (migration 0047's (machine, end) index), so every program left a dead version
//   and three index entries behind until a vacuum; a delete and insert of the open row would leave its dead version
//   where only a vacuum frees it.
// `program_intervals` becomes a view with the old columns over both, so every reader reads as before; an insert into
// the view (tests, tools) goes to the table its end_at says. Ingest writes the two tables (services/ingest
// worker/store-programs.ts).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

const view = (pg: boolean) => sql`create view program_intervals as
  select om.company_id as company_id, om.machine_id as machine_id, p.sub as sub,
    p.start_at as start_at, p.end_at as end_at, p.name as name
  from program_rows p join observation_machines om on om.id = p.m
  union all
  select om.company_id, om.machine_id, o.sub, o.start_at,
    ${sql.raw(pg ? 'null::bigint' : 'null')}, o.name
  from program_open o join observation_machines om on om.id = o.m`;

export async function up(db: Db): Promise<void> {
  const pg = isPostgres(db);
  if (pg) {
    // Columns by alignment (8-byte first): 56 bytes of heap a closed row with a short name. sub stays an integer as
    // the view gives it: a cast in the view would keep `sub = ?` out of the key's index condition.
    await sql`create table program_rows (
      start_at bigint not null, end_at bigint not null, m integer not null, sub integer not null check (sub in (0, 1)), name text not null,
      primary key (m, sub, start_at))`.execute(db);
    await sql`create table program_open (
      start_at bigint not null, m integer not null, sub integer not null check (sub in (0, 1)), name text not null,
      primary key (m, sub)) with (fillfactor = 50)`.execute(db);
  } else {
    // end_at is checked, not declared, not null: SQLite's planner then finds no row of `end_at is null` (the open
    // sub-program's lookup) through the (m, sub, end_at) index instead of reading the machine's whole key range.
    await sql`create table program_rows (
      m integer not null, sub integer not null check (sub in (0, 1)), start_at integer not null,
      end_at integer check (end_at is not null),
      name text not null, primary key (m, sub, start_at)) without rowid`.execute(db);
    await sql`create table program_open (
      m integer not null, sub integer not null check (sub in (0, 1)), start_at integer not null, name text not null,
      primary key (m, sub)) without rowid`.execute(db);
  }
  // A batch replaces the closed intervals ending from its first observation on (decision 1122): `m = ? and sub in
  // (0, 1) and end_at >= ?`, two index ranges. With sub in the index, the open sub-program's lookup (`m = ? and sub
  // = 1 and end_at is null`, none here) is one index search on SQLite too, which otherwise reads the machine's sub-programs.
  await sql`create index program_rows_m_end on program_rows (m, sub, end_at)`.execute(db);

  await sql`insert into observation_machines (company_id, machine_id)
    select distinct p.company_id, p.machine_id from program_intervals p
    where not exists (select 1 from observation_machines om
      where om.machine_id = p.machine_id and om.company_id = p.company_id)
    order by p.machine_id, p.company_id`.execute(db);
  // One open interval a machine and sub: an earlier open one (none that ingest wrote) is closed where the next starts.
  await sql`insert into program_rows (start_at, end_at, m, sub, name)
    select start_at, end_at, m, sub, name from (
      select p.start_at, coalesce(p.end_at, lead(p.start_at) over (partition by om.id, p.sub order by p.start_at))
        as end_at, om.id as m, p.sub, p.name from program_intervals p
      join observation_machines om on om.machine_id = p.machine_id and om.company_id = p.company_id) x
    where end_at is not null order by m, sub, start_at`.execute(db);
  await sql`insert into program_open (start_at, m, sub, name)
    select p.start_at, om.id, p.sub, p.name from program_intervals p
    join observation_machines om on om.machine_id = p.machine_id and om.company_id = p.company_id
    where p.end_at is null and not exists (select 1 from program_intervals q where q.machine_id = p.machine_id
      and q.company_id = p.company_id and q.sub = p.sub and q.start_at > p.start_at)`.execute(db);
  await sql`drop table program_intervals`.execute(db);
  await view(pg).execute(db);

  if (pg) {
    await sql`create function program_intervals_insert() returns trigger language plpgsql as $$
      declare mid integer;
      begin
        insert into observation_machines (company_id, machine_id) values (new.company_id, new.machine_id)
          on conflict (machine_id, company_id) do nothing;
        select id into mid from observation_machines where machine_id = new.machine_id and company_id = new.company_id;
        if new.end_at is null then
          insert into program_open (start_at, m, sub, name) values (new.start_at, mid, new.sub, new.name);
        else
          insert into program_rows (start_at, end_at, m, sub, name)
            values (new.start_at, new.end_at, mid, new.sub, new.name);
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger program_intervals_insert instead of insert on program_intervals
      for each row execute function program_intervals_insert()`.execute(db);
  } else {
    const machine = sql.raw(
      '(select id from observation_machines where machine_id = new.machine_id and company_id = new.company_id)',
    );
    await sql`create trigger program_intervals_insert_open instead of insert on program_intervals
      when new.end_at is null begin
      insert or ignore into observation_machines (company_id, machine_id) values (new.company_id, new.machine_id);
      insert into program_open (m, sub, start_at, name) values (${machine}, new.sub, new.start_at, new.name);
    end`.execute(db);
    await sql`create trigger program_intervals_insert_closed instead of insert on program_intervals
      when new.end_at is not null begin
      insert or ignore into observation_machines (company_id, machine_id) values (new.company_id, new.machine_id);
      insert into program_rows (m, sub, start_at, end_at, name)
        values (${machine}, new.sub, new.start_at, new.end_at, new.name);
    end`.execute(db);
  }
}

export async function down(db: Db): Promise<void> {
  const pg = isPostgres(db);
  await sql`create table program_intervals_old (company_id text not null, machine_id text not null,
    sub integer not null, start_at bigint not null, end_at bigint, name text not null,
    primary key (machine_id, sub, start_at))`.execute(db);
  await sql`insert into program_intervals_old select company_id, machine_id, sub, start_at, end_at, name
    from program_intervals`.execute(db);
  await sql`drop view program_intervals`.execute(db);
  if (pg) await sql`drop function program_intervals_insert()`.execute(db);
  await sql`drop table program_rows`.execute(db);
  await sql`drop table program_open`.execute(db);
  await sql`alter table program_intervals_old rename to program_intervals`.execute(db);
  await sql`create index program_intervals_machine_end on program_intervals (machine_id, end_at)`.execute(db);
}
