import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Decision 1206: the live part of the dashboard's data version (decision 1200) is a stored generation per company,
// bumped by the database itself in the writer's transaction on every insert, update and delete of the rows the
// dashboard answer reads besides its configuration (that is decision 1159's generation): the live rows, job runs,
// rollup marks, annotations, part adjustments, data sources (enabled, machine) and adapter fields. The version reads
// a few rows by index instead of hashing every live row and open run of the company on each call.
//
// PostgreSQL: one row per company and writing backend (slot = pg_backend_pid()), so two ingest nodes writing the same
// company's live rows never wait on each other's row lock (a backend runs one transaction at a time; no other
// transaction ever takes the row while it is open), and no two transactions lock two companies' rows in opposite
// orders. The version is the sum of the company's rows: every committed bump adds one to it, whatever the order the
// writers commit in (a sequence number taken before commit would not show a writer that commits after a later one).
// The rows of backends that are gone are folded into slot 0 by foldLiveGenerations (the sum stays the same). One
// statement-level trigger per table and event (the rows changed read from its transition table: one bump per company
// a statement), not one a row: ingest writes up to a thousand live rows a statement.
// SQLite (one writer at a time): one row per company (slot 0), row-level triggers (SQLite has no others).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Every change bumps the company's generation; each has company_id. */
const LIVE_TABLES = [
  'machine_live',
  'job_runs',
  'rollup_dirty',
  'annotations',
  'part_adjustments',
  'adapter_fields',
] as const;
/** Inserts and deletes bump; an update only when it sets one of these (ingest rewrites the counters all day). */
const SOURCES = 'machine_sources';
const SOURCE_COLUMNS = ['enabled', 'machine_id', 'company_id'] as const;

const OPS = [
  ['insert', 'new'],
  ['update', 'new'],
  ['delete', 'old'],
] as const;

const trigger = (table: string, op: string) => sql.raw(`${table}_live_generation_${op}`);

export async function up(db: Db): Promise<void> {
  await sql`create table live_generations (
    company_id text not null,
    slot bigint not null,
    generation bigint not null,
    primary key (company_id, slot)
  )`.execute(db);
  if (isPostgres(db)) {
    // Rewritten all day: keep room in each page for HOT updates (decision 1145).
    await sql`alter table live_generations set (fillfactor = 50)`.execute(db);
    // Statement level: the companies of the rows changed (an update: after it; a row moved to another company is
    // bumped by the row-level trigger below, so the hot updates, which never set company_id, keep no old rows).
    await sql`create function live_generation_bump() returns trigger language plpgsql as $$
      begin
        insert into live_generations (company_id, slot, generation)
          select distinct company_id, pg_backend_pid(), 1 from changed
          on conflict (company_id, slot) do update set generation = live_generations.generation + 1;
        return null;
      end $$`.execute(db);
    // Row level (machine_sources' updates of SOURCE_COLUMNS, any table's rows moved to another company: rare).
    await sql`create function live_generation_bump_row() returns trigger language plpgsql as $$
      begin
        insert into live_generations (company_id, slot, generation)
          select distinct c, pg_backend_pid(), 1 from (values (new.company_id), (old.company_id)) v(c)
          on conflict (company_id, slot) do update set generation = live_generations.generation + 1;
        return null;
      end $$`.execute(db);
    for (const table of [...LIVE_TABLES, SOURCES])
      for (const [op] of OPS) {
        if (table === SOURCES && op === 'update') {
          await sql`create trigger ${trigger(table, op)}
            after update of ${sql.join(SOURCE_COLUMNS.map((c) => sql.ref(c)))} on ${sql.table(table)}
            for each row when (old.enabled is distinct from new.enabled
              or old.machine_id is distinct from new.machine_id or old.company_id is distinct from new.company_id)
            execute function live_generation_bump_row()`.execute(db);
          continue;
        }
        const referencing = op === 'delete' ? sql`old table as changed` : sql`new table as changed`;
        await sql`create trigger ${trigger(table, op)} after ${sql.raw(op)} on ${sql.table(table)}
          referencing ${referencing} for each statement execute function live_generation_bump()`.execute(db);
      }
    for (const table of [...LIVE_TABLES, SOURCES])
      await sql`create trigger ${trigger(table, 'moved')} after update of company_id on ${sql.table(table)}
        for each row when (old.company_id is distinct from new.company_id)
        execute function live_generation_bump_row()`.execute(db);
    return;
  }
  // Every company has its row from here on (a company made later gets it with its first row inserted), so an update
  // or a delete bumps by key alone (a third cheaper a row than an upsert: ingest updates a thousand rows a batch).
  await sql`insert into live_generations (company_id, slot, generation) select id, 0, 0 from companies`.execute(
    db,
  );
  const bump = (row: string, op: string) =>
    op === 'insert'
      ? sql`insert into live_generations (company_id, slot, generation)
          values (${sql.raw(`${row}.company_id`)}, 0, 1)
          on conflict (company_id, slot) do update set generation = generation + 1;`
      : sql`update live_generations set generation = generation + 1
          where company_id = ${sql.raw(`${row}.company_id`)} and slot = 0;`;
  for (const table of [...LIVE_TABLES, SOURCES])
    for (const [op, row] of OPS) {
      const on =
        table === SOURCES && op === 'update'
          ? sql`update of ${sql.join(SOURCE_COLUMNS.map((c) => sql.ref(c)))} on ${sql.table(table)}
              when old.enabled is not new.enabled or old.machine_id is not new.machine_id
                or old.company_id is not new.company_id`
          : sql`${sql.raw(op)} on ${sql.table(table)}`;
      await sql`create trigger ${trigger(table, op)} after ${on} begin ${bump(row, op)} end`.execute(db);
    }
  // A row moved to another company (by hand): its company before too, and the new one's row made if it has none.
  for (const table of [...LIVE_TABLES, SOURCES])
    await sql`create trigger ${trigger(table, 'moved')} after update of company_id on ${sql.table(table)}
      when old.company_id is not new.company_id begin ${bump('old', 'update')} ${bump('new', 'insert')} end`.execute(
      db,
    );
}

export async function down(db: Db): Promise<void> {
  for (const table of [...LIVE_TABLES, SOURCES])
    for (const op of [...OPS.map(([o]) => o), 'moved'])
      if (isPostgres(db))
        await sql`drop trigger if exists ${trigger(table, op)} on ${sql.table(table)}`.execute(db);
      else await sql`drop trigger if exists ${trigger(table, op)}`.execute(db);
  if (isPostgres(db)) {
    await sql`drop function if exists live_generation_bump()`.execute(db);
    await sql`drop function if exists live_generation_bump_row()`.execute(db);
  }
  await sql`drop table if exists live_generations`.execute(db);
}
