import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Decision 1159: the configuration part of a company's report data version (decision 1148) is a stored
// generation, bumped by the database itself on every insert, update and delete of a row of the configuration
// tables the answers name or are cut by, in the writer's own transaction, whichever code (or manual SQL) writes
// it. The version reads one row instead of every configuration row of the company on every report call.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The configuration tables of the version; each has company_id (companies itself: id). */
const CONFIG_TABLES = [
  'shifts',
  'shift_versions',
  'machines',
  'machine_groups',
  'machine_group_members',
  'annotation_types',
  'part_adjustment_types',
  'jobs',
  'setup_stages',
  'machine_group_annotation_types',
  'job_machines',
  'operators',
] as const;

const OPS = [
  ['insert', 'new'],
  ['update', 'new'],
  ['delete', 'old'],
] as const;

export async function up(db: Db): Promise<void> {
  await sql`create table report_config_generations (
    company_id text primary key,
    generation bigint not null
  )`.execute(db);
  if (isPostgres(db)) {
    // One function for every table: the row's company (companies: its id), both rows on an update (a row never
    // moves between companies, but nothing is lost if it did). An update that changes nothing is not counted
    // (lockMachine's no-op update takes the machine's row lock and must not serialize on the generation row).
    await sql`create function report_config_bump() returns trigger language plpgsql as $$
      declare
        c text;
      begin
        if tg_op = 'UPDATE' and to_jsonb(old) = to_jsonb(new) then return null; end if;
        foreach c in array array[
          case when tg_op = 'DELETE' then null else coalesce(to_jsonb(new)->>'company_id', to_jsonb(new)->>'id') end,
          case when tg_op = 'INSERT' then null else coalesce(to_jsonb(old)->>'company_id', to_jsonb(old)->>'id') end
        ] loop
          if c is not null then
            insert into report_config_generations (company_id, generation) values (c, 1)
              on conflict (company_id) do update set generation = report_config_generations.generation + 1;
          end if;
        end loop;
        return null;
      end $$`.execute(db);
    for (const table of ['companies', ...CONFIG_TABLES])
      await sql`create trigger ${sql.raw(`${table}_report_config`)}
        after insert or update or delete on ${sql.table(table)}
        for each row execute function report_config_bump()`.execute(db);
    return;
  }
  for (const table of ['companies', ...CONFIG_TABLES]) {
    const column = table === 'companies' ? 'id' : 'company_id';
    for (const [op, row] of OPS)
      await sql`create trigger ${sql.raw(`${table}_report_config_${op}`)} after ${sql.raw(op)}
        on ${sql.table(table)} begin
          insert into report_config_generations (company_id, generation)
            values (${sql.raw(`${row}.${column}`)}, 1)
            on conflict (company_id) do update set generation = generation + 1;
        end`.execute(db);
  }
}

export async function down(db: Db): Promise<void> {
  if (isPostgres(db)) {
    for (const table of ['companies', ...CONFIG_TABLES])
      await sql`drop trigger if exists ${sql.raw(`${table}_report_config`)} on ${sql.table(table)}`.execute(
        db,
      );
    await sql`drop function if exists report_config_bump()`.execute(db);
  } else {
    for (const table of ['companies', ...CONFIG_TABLES])
      for (const [op] of OPS)
        await sql`drop trigger if exists ${sql.raw(`${table}_report_config_${op}`)}`.execute(db);
  }
  await sql`drop table if exists report_config_generations`.execute(db);
}
