import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Decision 1180 (issue 30 point 3): machine states stored as program intervals (0059) and flag spans (0061) are:
// keyed by observation_machines' small integer machine id instead of the 36-character company and machine text ids on
// every row and index entry, a closed state inserted once into state_rows and never updated, the open state of each
// machine the row of state_open, keyed by the machine alone and updated in place (start, state and reason are not
// indexed: a HOT update into the room the fill factor keeps; on PostgreSQL a machine with no open state keeps its row
// with a null start, which the view leaves out). Each state was inserted open and updated at its close (end_at is
// indexed), so every state left a dead version and an entry in each index behind until a vacuum.
// `state_intervals` becomes a view with the old columns over both; writes through it (manual work centers, tests)
// go to the table the row's end says, through INSTEAD OF triggers. Ingest writes the two tables (services/ingest
// worker/store-narrow.ts); the reads that need a bound or an ordered limit read them directly (rollups/state-reads.ts).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

const view = (pg: boolean) => sql`create view state_intervals as
  select om.company_id as company_id, om.machine_id as machine_id, s.start_at as start_at, s.end_at as end_at,
    s.state as state, s.reason as reason
  from state_rows s join observation_machines om on om.id = s.m
  union all
  select om.company_id, om.machine_id, o.start_at, ${sql.raw(pg ? 'null::bigint' : 'null')}, o.state, o.reason
  from state_open o join observation_machines om on om.id = o.m
  where o.start_at is not null`;

/** The machine's dictionary id of a trigger's `new` or `old` row. */
const machineOf = (row: 'new' | 'old') =>
  sql.raw(
    `(select id from observation_machines where machine_id = ${row}.machine_id and company_id = ${row}.company_id)`,
  );

export async function up(db: Db): Promise<void> {
  const pg = isPostgres(db);
  if (pg) {
    // Columns by alignment (8-byte first): 24 bytes of header, 20 of times and machine, the state's text.
    await sql`create table state_rows (start_at bigint not null, end_at bigint not null, m integer not null,
      state text not null, reason text, primary key (m, start_at))`.execute(db);
    // start_at null: the machine has no open state (after a take-over). Ingest keeps the row (keepsOpenRow), so the
    // next open state is a HOT update of it, not an insert after a delete.
    await sql`create table state_open (start_at bigint, m integer not null primary key, state text not null,
      reason text) with (fillfactor = 50)`.execute(db);
  } else {
    // end_at checked, not declared, not null (as program_rows, migration 0059).
    await sql`create table state_rows (m integer not null, start_at integer not null,
      end_at integer check (end_at is not null), state text not null, reason text,
      primary key (m, start_at)) without rowid`.execute(db);
    await sql`create table state_open (m integer not null primary key, start_at integer not null,
      state text not null, reason text) without rowid`.execute(db);
  }
  // No index on end_at: closed states of a machine never overlap, so those ending after t are those starting from
  // the last start before t on, a range of the primary key (decision 1076; ingest's replace, decision 1181).

  await sql`insert into observation_machines (company_id, machine_id)
    select distinct s.company_id, s.machine_id from state_intervals s
    where not exists (select 1 from observation_machines om
      where om.machine_id = s.machine_id and om.company_id = s.company_id)
    order by s.machine_id, s.company_id`.execute(db);
  // One open state a machine: an earlier open one (none that ingest wrote) is closed where the next starts.
  await sql`insert into state_rows (start_at, end_at, m, state, reason)
    select start_at, end_at, m, state, reason from (
      select s.start_at, coalesce(s.end_at, lead(s.start_at) over (partition by om.id order by s.start_at))
        as end_at, om.id as m, s.state, s.reason from state_intervals s
      join observation_machines om on om.machine_id = s.machine_id and om.company_id = s.company_id) x
    where end_at is not null order by m, start_at`.execute(db);
  await sql`insert into state_open (start_at, m, state, reason)
    select s.start_at, om.id, s.state, s.reason from state_intervals s
    join observation_machines om on om.machine_id = s.machine_id and om.company_id = s.company_id
    where s.end_at is null and not exists (select 1 from state_intervals g where g.machine_id = s.machine_id
      and g.company_id = s.company_id and g.start_at > s.start_at)`.execute(db);
  await sql`drop table state_intervals`.execute(db);
  await view(pg).execute(db);

  // Writes through the view: a row leaves the table its old end says and goes to the one its new end says.
  if (pg) {
    await sql`create function state_intervals_write() returns trigger language plpgsql as $$
      declare mid integer;
      begin
        if tg_op <> 'INSERT' then
          delete from state_rows where m = ${machineOf('old')} and start_at = old.start_at and old.end_at is not null;
          delete from state_open where m = ${machineOf('old')} and start_at = old.start_at and old.end_at is null;
        end if;
        if tg_op = 'DELETE' then return old; end if;
        insert into observation_machines (company_id, machine_id) values (new.company_id, new.machine_id)
          on conflict (machine_id, company_id) do nothing;
        select id into mid from observation_machines where machine_id = new.machine_id and company_id = new.company_id;
        if new.end_at is null then
          -- The machine's row with no open state (kept by ingest) takes it; a second open state fails.
          update state_open set start_at = new.start_at, state = new.state, reason = new.reason
            where m = mid and start_at is null;
          if not found then
            insert into state_open (start_at, m, state, reason) values (new.start_at, mid, new.state, new.reason);
          end if;
        else
          insert into state_rows (start_at, end_at, m, state, reason)
            values (new.start_at, new.end_at, mid, new.state, new.reason);
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger state_intervals_write instead of insert or update or delete on state_intervals
      for each row execute function state_intervals_write()`.execute(db);
    // The copied rows' statistics now, not at autovacuum's next round: with none, the planner takes a machine's last
    // state before a time through a bitmap of its whole history and a sort instead of one backward key step.
    await sql`analyze state_rows, state_open`.execute(db);
  } else {
    const remove = sql`delete from state_rows where m = ${machineOf('old')} and start_at = old.start_at
        and old.end_at is not null;
      delete from state_open where m = ${machineOf('old')} and start_at = old.start_at and old.end_at is null;`;
    const add = sql`insert or ignore into observation_machines (company_id, machine_id)
        values (new.company_id, new.machine_id);
      insert into state_rows (m, start_at, end_at, state, reason)
        select ${machineOf('new')}, new.start_at, new.end_at, new.state, new.reason where new.end_at is not null;
      insert into state_open (m, start_at, state, reason)
        select ${machineOf('new')}, new.start_at, new.state, new.reason where new.end_at is null;`;
    await sql`create trigger state_intervals_insert instead of insert on state_intervals begin ${add} end`.execute(
      db,
    );
    await sql`create trigger state_intervals_update instead of update on state_intervals
      begin ${remove} ${add} end`.execute(db);
    await sql`create trigger state_intervals_delete instead of delete on state_intervals
      begin ${remove} end`.execute(db);
  }
}

export async function down(db: Db): Promise<void> {
  const pg = isPostgres(db);
  await sql`create table state_intervals_old (company_id text not null, machine_id text not null,
    start_at bigint not null, end_at bigint, state text not null, reason text,
    constraint state_intervals_pk primary key (machine_id, start_at))`.execute(db);
  await sql`insert into state_intervals_old select company_id, machine_id, start_at, end_at, state, reason
    from state_intervals`.execute(db);
  await sql`drop view state_intervals`.execute(db);
  if (pg) await sql`drop function state_intervals_write()`.execute(db);
  await sql`drop table state_rows`.execute(db);
  await sql`drop table state_open`.execute(db);
  await sql`alter table state_intervals_old rename to state_intervals`.execute(db);
  await sql`create index state_intervals_machine_end on state_intervals (machine_id, end_at)`.execute(db);
}
