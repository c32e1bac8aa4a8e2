import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Decision 1171 (issue 30 point 3): spindle and in-cut spans stored as program intervals are since migration 0059
// (decision 1161): keyed by observation_machines' small integer machine id instead of the 36-character company and
// machine text ids on every row and index entry, a closed span inserted once into flag_rows and never updated, the
// open span of each machine and kind the row of flag_open, keyed by them alone and updated in place (its start is not
// indexed: a HOT update into the room the fill factor keeps; on PostgreSQL a machine with no open span of a kind keeps
// its row with a null start, which the view leaves out). Closing a span updated end_at, an indexed column, so every
// span left a dead version and an entry in each index behind until a vacuum.
// `flag_spans` becomes a view with the old columns over both; writes through it (tests, tools) go to the table the
// row's end says, through INSTEAD OF triggers. Ingest writes the two tables (services/ingest worker/store-narrow.ts);
// the rollup sources read them directly (packages/db rollups/sources.ts).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

const view = (pg: boolean) => sql`create view flag_spans as
  select om.company_id as company_id, om.machine_id as machine_id, f.kind as kind,
    f.start_at as start_at, f.end_at as end_at
  from flag_rows f join observation_machines om on om.id = f.m
  union all
  select om.company_id, om.machine_id, o.kind, o.start_at, ${sql.raw(pg ? 'null::bigint' : 'null')}
  from flag_open o join observation_machines om on om.id = o.m
  where o.start_at is not null`;

/** The machine's dictionary id of a trigger's `new` or `old` row. */
const machineOf = (row: 'new' | 'old') =>
  sql.raw(
    `(select id from observation_machines where machine_id = ${row}.machine_id and company_id = ${row}.company_id)`,
  );

export async function up(db: Db): Promise<void> {
  const pg = isPostgres(db);
  // The kinds are checked: a batch's replace reads `m = ? and kind in ('spindle', 'incut') and end_at >= ?`, two
  // ranges of the (m, kind, end_at) index.
  const kind = sql.raw(`kind text not null check (kind in ('spindle', 'incut'))`);
  if (pg) {
    // Columns by alignment (8-byte first): 56 bytes of heap a closed span.
    await sql`create table flag_rows (start_at bigint not null, end_at bigint not null, m integer not null, ${kind},
      primary key (m, kind, start_at))`.execute(db);
    // start_at null: the machine has no open span of the kind. Ingest keeps the row (decision 1171), so the next open
    // span is a HOT update of it, not an insert after a delete (a dead version and an index entry a span).
    await sql`create table flag_open (start_at bigint, m integer not null, ${kind},
      primary key (m, kind)) with (fillfactor = 50)`.execute(db);
  } else {
    // end_at checked, not declared, not null (as program_rows, migration 0059: the planner then finds no row of
    // `end_at is null` through the index instead of reading the machine's whole key range).
    await sql`create table flag_rows (m integer not null, ${kind}, start_at integer not null,
      end_at integer check (end_at is not null), primary key (m, kind, start_at)) without rowid`.execute(db);
    await sql`create table flag_open (m integer not null, ${kind}, start_at integer not null,
      primary key (m, kind)) without rowid`.execute(db);
  }
  await sql`create index flag_rows_m_end on flag_rows (m, kind, end_at)`.execute(db);

  await sql`insert into observation_machines (company_id, machine_id)
    select distinct f.company_id, f.machine_id from flag_spans f
    where not exists (select 1 from observation_machines om
      where om.machine_id = f.machine_id and om.company_id = f.company_id)
    order by f.machine_id, f.company_id`.execute(db);
  // One open span a machine and kind: an earlier open one (none that ingest wrote) is closed where the next starts.
  await sql`insert into flag_rows (start_at, end_at, m, kind)
    select start_at, end_at, m, kind from (
      select f.start_at, coalesce(f.end_at, lead(f.start_at) over (partition by om.id, f.kind order by f.start_at))
        as end_at, om.id as m, f.kind from flag_spans f
      join observation_machines om on om.machine_id = f.machine_id and om.company_id = f.company_id) x
    where end_at is not null order by m, kind, start_at`.execute(db);
  await sql`insert into flag_open (start_at, m, kind)
    select f.start_at, om.id, f.kind from flag_spans f
    join observation_machines om on om.machine_id = f.machine_id and om.company_id = f.company_id
    where f.end_at is null and not exists (select 1 from flag_spans g where g.machine_id = f.machine_id
      and g.company_id = f.company_id and g.kind = f.kind and g.start_at > f.start_at)`.execute(db);
  await sql`drop table flag_spans`.execute(db);
  await view(pg).execute(db);

  // Writes through the view: a row leaves the table its old end says and goes to the one its new end says.
  if (pg) {
    await sql`create function flag_spans_write() returns trigger language plpgsql as $$
      declare mid integer;
      begin
        if tg_op <> 'INSERT' then
          delete from flag_rows where m = ${machineOf('old')} and kind = old.kind and start_at = old.start_at
            and old.end_at is not null;
          delete from flag_open where m = ${machineOf('old')} and kind = old.kind and start_at = old.start_at
            and old.end_at is null;
        end if;
        if tg_op = 'DELETE' then return old; end if;
        insert into observation_machines (company_id, machine_id) values (new.company_id, new.machine_id)
          on conflict (machine_id, company_id) do nothing;
        select id into mid from observation_machines where machine_id = new.machine_id and company_id = new.company_id;
        if new.end_at is null then
          -- The machine's row of the kind with no open span (kept by ingest) takes it; a second open span fails.
          update flag_open set start_at = new.start_at where m = mid and kind = new.kind and start_at is null;
          if not found then
            insert into flag_open (start_at, m, kind) values (new.start_at, mid, new.kind);
          end if;
        else
          insert into flag_rows (start_at, end_at, m, kind) values (new.start_at, new.end_at, mid, new.kind);
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger flag_spans_write instead of insert or update or delete on flag_spans
      for each row execute function flag_spans_write()`.execute(db);
  } else {
    const remove = sql`delete from flag_rows where m = ${machineOf('old')} and kind = old.kind
        and start_at = old.start_at and old.end_at is not null;
      delete from flag_open where m = ${machineOf('old')} and kind = old.kind and start_at = old.start_at
        and old.end_at is null;`;
    const add = sql`insert or ignore into observation_machines (company_id, machine_id)
        values (new.company_id, new.machine_id);
      insert into flag_rows (m, kind, start_at, end_at)
        select ${machineOf('new')}, new.kind, new.start_at, new.end_at where new.end_at is not null;
      insert into flag_open (m, kind, start_at)
        select ${machineOf('new')}, new.kind, new.start_at where new.end_at is null;`;
    await sql`create trigger flag_spans_insert instead of insert on flag_spans begin ${add} end`.execute(db);
    await sql`create trigger flag_spans_update instead of update on flag_spans begin ${remove} ${add} end`.execute(
      db,
    );
    await sql`create trigger flag_spans_delete instead of delete on flag_spans begin ${remove} end`.execute(
      db,
    );
  }
}

export async function down(db: Db): Promise<void> {
  const pg = isPostgres(db);
  await sql`create table flag_spans_old (company_id text not null, machine_id text not null, kind text not null,
    start_at bigint not null, end_at bigint, primary key (machine_id, kind, start_at))`.execute(db);
  await sql`insert into flag_spans_old select company_id, machine_id, kind, start_at, end_at
    from flag_spans`.execute(db);
  await sql`drop view flag_spans`.execute(db);
  if (pg) await sql`drop function flag_spans_write()`.execute(db);
  await sql`drop table flag_rows`.execute(db);
  await sql`drop table flag_open`.execute(db);
  await sql`alter table flag_spans_old rename to flag_spans`.execute(db);
  await sql`create index flag_spans_machine_end on flag_spans (machine_id, end_at)`.execute(db);
}
