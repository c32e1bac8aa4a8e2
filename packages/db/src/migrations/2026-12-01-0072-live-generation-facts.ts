import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Decision 1222: the rest of what GET /api/dashboard reads bumps the company's live generation (migration 0071) too:
// the stored hourly rows its held sums read (`rollups`), and the machine states and cycles its goals and downtime
// reasons read (`state_rows`, `state_open`, `cycle_rows`). Ingest and the rollup worker already moved the version
// with these (their rollup marks and week rows are written in the same transaction); a row written by hand, or by
// any code that sets no mark, now moves it as well, instead of showing only after the 1 s reuse of a kept answer.
//
// The fact tables have no company_id: a row's machine is its `m`, the machine's observation_machines id, whose row
// names the company. PostgreSQL: statement-level triggers as 0071's (one upsert a statement, the companies read from
// the transition table joined with observation_machines); SQLite: row-level, the company looked up by `m`.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Keyed by company_id: 0071's bump functions serve them as they are. */
const BY_COMPANY = ['rollups'] as const;
/** Keyed by m, a machine's observation_machines id. */
const BY_MACHINE = ['state_rows', 'state_open', 'cycle_rows'] as const;
const TABLES = [...BY_COMPANY, ...BY_MACHINE] as const;

const OPS = [
  ['insert', 'new'],
  ['update', 'new'],
  ['delete', 'old'],
] as const;

const trigger = (table: string, op: string) => sql.raw(`${table}_live_generation_${op}`);
const byMachine = (table: string) => (BY_MACHINE as readonly string[]).includes(table);

export async function up(db: Db): Promise<void> {
  if (isPostgres(db)) {
    await sql`create function live_generation_bump_m() returns trigger language plpgsql as $$
      begin
        insert into live_generations (company_id, slot, generation)
          select distinct om.company_id, pg_backend_pid(), 1
            from (select distinct m from changed) c join observation_machines om on om.id = c.m
          on conflict (company_id, slot) do update set generation = live_generations.generation + 1;
        return null;
      end $$`.execute(db);
    // A row moved to another machine by hand (its m set): the old machine's company too.
    await sql`create function live_generation_bump_m_row() returns trigger language plpgsql as $$
      begin
        insert into live_generations (company_id, slot, generation)
          select distinct om.company_id, pg_backend_pid(), 1
            from observation_machines om where om.id in (new.m, old.m)
          on conflict (company_id, slot) do update set generation = live_generations.generation + 1;
        return null;
      end $$`.execute(db);
    for (const table of TABLES) {
      const bump = byMachine(table) ? sql`live_generation_bump_m()` : sql`live_generation_bump()`;
      for (const [op] of OPS) {
        const referencing = op === 'delete' ? sql`old table as changed` : sql`new table as changed`;
        await sql`create trigger ${trigger(table, op)} after ${sql.raw(op)} on ${sql.table(table)}
          referencing ${referencing} for each statement execute function ${bump}`.execute(db);
      }
      const key = byMachine(table) ? 'm' : 'company_id';
      await sql`create trigger ${trigger(table, 'moved')} after update of ${sql.ref(key)} on ${sql.table(table)}
        for each row when (old.${sql.raw(key)} is distinct from new.${sql.raw(key)})
        execute function ${byMachine(table) ? sql`live_generation_bump_m_row()` : sql`live_generation_bump_row()`}`.execute(
        db,
      );
    }
    return;
  }
  const companyOf = (table: string, row: string) =>
    byMachine(table)
      ? sql.raw(`(select company_id from observation_machines where id = ${row}.m)`)
      : sql.raw(`${row}.company_id`);
  // An insert upserts (a company whose row 0071 did not make), an update or a delete bumps by key (0071's rows).
  const bump = (table: string, row: string, op: string) =>
    op === 'insert'
      ? sql`insert into live_generations (company_id, slot, generation)
          select ${companyOf(table, row)}, 0, 1 where ${companyOf(table, row)} is not null
          on conflict (company_id, slot) do update set generation = generation + 1;`
      : sql`update live_generations set generation = generation + 1
          where company_id = ${companyOf(table, row)} and slot = 0;`;
  for (const table of TABLES) {
    for (const [op, row] of OPS)
      await sql`create trigger ${trigger(table, op)} after ${sql.raw(op)} on ${sql.table(table)}
        begin ${bump(table, row, op)} end`.execute(db);
    const key = byMachine(table) ? 'm' : 'company_id';
    await sql`create trigger ${trigger(table, 'moved')} after update of ${sql.ref(key)} on ${sql.table(table)}
      when old.${sql.raw(key)} is not new.${sql.raw(key)}
      begin ${bump(table, 'old', 'update')} ${bump(table, 'new', 'insert')} end`.execute(db);
  }
}

export async function down(db: Db): Promise<void> {
  for (const table of TABLES)
    for (const op of [...OPS.map(([o]) => o), 'moved'])
      if (isPostgres(db))
        await sql`drop trigger if exists ${trigger(table, op)} on ${sql.table(table)}`.execute(db);
      else await sql`drop trigger if exists ${trigger(table, op)}`.execute(db);
  if (isPostgres(db)) {
    await sql`drop function if exists live_generation_bump_m()`.execute(db);
    await sql`drop function if exists live_generation_bump_m_row()`.execute(db);
  }
}
