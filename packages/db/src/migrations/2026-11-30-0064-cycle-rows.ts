import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Decision 1182 (issue 30 point 3): cycles stored narrow, as program intervals and flag spans are (decisions 1161,
// 1171): keyed by observation_machines' small integer machine id instead of the 36-character company and machine
// text ids on every row and in its key (about 120 of a row's 226 bytes on PostgreSQL). A cycle is closed when it is
// derived and inserted once (ingest upserts it by its end, decision 1149), so one table: cycle_rows, primary key
// (m, end_at) as before (two cycles can start at one time, none end at one time).
// `cycles` becomes a view with the old columns; writes through it (tests, tools) go to cycle_rows through INSTEAD OF
// triggers. Ingest writes cycle_rows (services/ingest worker/store-cycles.ts).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The machine's dictionary id of a trigger's `new` or `old` row. */
const machineOf = (row: 'new' | 'old') =>
  sql.raw(
    `(select id from observation_machines where machine_id = ${row}.machine_id and company_id = ${row}.company_id)`,
  );

export async function up(db: Db): Promise<void> {
  const pg = isPostgres(db);
  if (pg)
    // Columns by alignment (8-byte first); setup stays an integer as the view gives it.
    await sql`create table cycle_rows (end_at bigint not null, start_at bigint not null, duration bigint not null,
      m integer not null, count integer not null, setup integer not null default 0, source text not null,
      primary key (m, end_at))`.execute(db);
  else
    await sql`create table cycle_rows (m integer not null, end_at integer not null, start_at integer not null,
      duration integer not null, count integer not null, source text not null, setup integer not null default 0,
      primary key (m, end_at)) without rowid`.execute(db);

  await sql`insert into observation_machines (company_id, machine_id)
    select distinct c.company_id, c.machine_id from cycles c
    where not exists (select 1 from observation_machines om
      where om.machine_id = c.machine_id and om.company_id = c.company_id)
    order by c.machine_id, c.company_id`.execute(db);
  await sql`insert into cycle_rows (end_at, start_at, duration, m, count, setup, source)
    select c.end_at, c.start_at, c.duration, om.id, c.count, c.setup, c.source from cycles c
    join observation_machines om on om.machine_id = c.machine_id and om.company_id = c.company_id
    order by om.id, c.end_at`.execute(db);
  await sql`drop table cycles`.execute(db);
  await sql`create view cycles as
    select om.company_id as company_id, om.machine_id as machine_id, c.start_at as start_at, c.end_at as end_at,
      c.duration as duration, c.count as count, c.source as source, c.setup as setup
    from cycle_rows c join observation_machines om on om.id = c.m`.execute(db);

  // Writes through the view: a row leaves cycle_rows by its old key and comes back with its new values.
  if (pg) {
    await sql`create function cycles_write() returns trigger language plpgsql as $$
      declare mid integer;
      begin
        if tg_op <> 'INSERT' then
          delete from cycle_rows where m = ${machineOf('old')} and end_at = old.end_at;
        end if;
        if tg_op = 'DELETE' then return old; end if;
        insert into observation_machines (company_id, machine_id) values (new.company_id, new.machine_id)
          on conflict (machine_id, company_id) do nothing;
        select id into mid from observation_machines where machine_id = new.machine_id and company_id = new.company_id;
        insert into cycle_rows (end_at, start_at, duration, m, count, setup, source)
          values (new.end_at, new.start_at, new.duration, mid, new.count, coalesce(new.setup, 0), new.source);
        return new;
      end $$`.execute(db);
    await sql`create trigger cycles_write instead of insert or update or delete on cycles
      for each row execute function cycles_write()`.execute(db);
  } else {
    const remove = sql`delete from cycle_rows where m = ${machineOf('old')} and end_at = old.end_at;`;
    const add = sql`insert or ignore into observation_machines (company_id, machine_id)
        values (new.company_id, new.machine_id);
      insert into cycle_rows (m, end_at, start_at, duration, count, source, setup)
        values (${machineOf('new')}, new.end_at, new.start_at, new.duration, new.count, new.source,
          coalesce(new.setup, 0));`;
    await sql`create trigger cycles_insert instead of insert on cycles begin ${add} end`.execute(db);
    await sql`create trigger cycles_update instead of update on cycles begin ${remove} ${add} end`.execute(
      db,
    );
    await sql`create trigger cycles_delete instead of delete on cycles begin ${remove} end`.execute(db);
  }
}

export async function down(db: Db): Promise<void> {
  const pg = isPostgres(db);
  await sql`create table cycles_old (company_id text not null, machine_id text not null, start_at bigint not null,
    end_at bigint not null, duration bigint not null, count integer not null, source text not null,
    setup integer not null default 0, constraint cycles_pk primary key (machine_id, end_at))`.execute(db);
  await sql`insert into cycles_old select company_id, machine_id, start_at, end_at, duration, count, source, setup
    from cycles`.execute(db);
  await sql`drop view cycles`.execute(db);
  if (pg) await sql`drop function cycles_write()`.execute(db);
  await sql`drop table cycle_rows`.execute(db);
  await sql`alter table cycles_old rename to cycles`.execute(db);
}
