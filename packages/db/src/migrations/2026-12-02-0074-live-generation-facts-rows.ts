import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';
import * as m0072 from './2026-12-01-0072-live-generation-facts';

// Decision 1234: migration 0072's triggers on PostgreSQL made row-level, and skipped in a transaction that says it
// marks for recompute every machine whose facts it writes (the ingest batch: its rollup marks' upsert bumps those
// machines' companies through migration 0071's trigger on rollup_dirty). 0072's statement-level triggers read the
// rows written from transition tables, so every row an ingest batch wrote to state_rows, state_open and cycle_rows was
// copied into a tuplestore (for both the insert and the update trigger of an upsert) and the function ran once a
// statement and event, to bump companies the batch's marks bump anyway. A row-level trigger whose WHEN is false is
// never queued: the batch pays one setting read a row. Any other writer (by hand, the rollup worker's hourly rows, any
// code that does not say so) bumps the company of each row it writes, as before (decision 1222).
//
// The setting (`set local takt.live_facts_marked = on`, @takt/db's liveFactsMarked) is a promise of the writer, not a
// check: a transaction that sets it and writes a machine's facts without its mark leaves the company's dashboard
// answers unmoved. SQLite keeps 0072's row-level triggers (about 1 % of a batch, decision 1231).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The transaction-local setting a writer sets when it marks every machine whose facts it writes. */
export const LIVE_FACTS_MARKED = 'takt.live_facts_marked';
/** Transaction-local: the companies this transaction has bumped through these triggers, each between newlines. */
const BUMPED = 'takt.live_facts_bumped';

/** Keyed by company_id. */
const BY_COMPANY = ['rollups'] as const;
/** Keyed by m, a machine's observation_machines id. */
const BY_MACHINE = ['state_rows', 'state_open', 'cycle_rows'] as const;
const TABLES = [...BY_COMPANY, ...BY_MACHINE] as const;
const OPS = ['insert', 'update', 'delete'] as const;

const trigger = (table: string, op: string) => sql.raw(`${table}_live_generation_${op}`);
const byMachine = (table: string) => (BY_MACHINE as readonly string[]).includes(table);

export async function up(db: Db): Promise<void> {
  if (!isPostgres(db)) return;
  await m0072.down(db);
  // Once a company and transaction: a row-level bump of every row would update the same generation row again and
  // again in one transaction (a bulk write by hand: each update walks the chain of the versions before it, quadratic).
  // The companies bumped so far are kept in a transaction-local setting (rolled back with a savepoint as the bump is).
  // The version only has to differ once the transaction's writes are seen, and they are seen at once at its commit.
  await sql`create function live_generation_bump_once(company text) returns void language plpgsql as $$
    declare
      seen text := coalesce(current_setting('${sql.raw(BUMPED)}', true), '');
    begin
      if company is null or strpos(seen, E'\\n' || company || E'\\n') > 0 then
        return;
      end if;
      insert into live_generations (company_id, slot, generation) values (company, pg_backend_pid(), 1)
        on conflict (company_id, slot) do update set generation = live_generations.generation + 1;
      perform set_config('${sql.raw(BUMPED)}', coalesce(nullif(seen, ''), E'\\n') || company || E'\\n', true);
    end $$`.execute(db);
  // A row's company, old and new (an update moving it bumps both). OLD is null on an insert and NEW on a delete.
  await sql`create function live_generation_bump_each() returns trigger language plpgsql as $$
    begin
      perform live_generation_bump_once(old.company_id);
      if new.company_id is distinct from old.company_id then
        perform live_generation_bump_once(new.company_id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create function live_generation_bump_m_each() returns trigger language plpgsql as $$
    begin
      perform live_generation_bump_once((select company_id from observation_machines where id = old.m));
      if new.m is distinct from old.m then
        perform live_generation_bump_once((select company_id from observation_machines where id = new.m));
      end if;
      return null;
    end $$`.execute(db);
  const unmarked = sql.raw(`current_setting('${LIVE_FACTS_MARKED}', true) is distinct from 'on'`);
  for (const table of TABLES) {
    const bump = byMachine(table) ? sql`live_generation_bump_m_each()` : sql`live_generation_bump_each()`;
    for (const op of OPS)
      await sql`create trigger ${trigger(table, op)} after ${sql.raw(op)} on ${sql.table(table)}
        for each row when (${unmarked}) execute function ${bump}`.execute(db);
    // A row moved to another machine or company: both bumped, whatever the transaction says (it marks the machines it
    // writes facts for, not the one a row came from).
    const key = sql.raw(byMachine(table) ? 'm' : 'company_id');
    await sql`create trigger ${trigger(table, 'moved')} after update of ${key} on ${sql.table(table)}
      for each row when (old.${key} is distinct from new.${key} and not (${unmarked}))
      execute function ${bump}`.execute(db);
  }
}

export async function down(db: Db): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of TABLES)
    for (const op of [...OPS, 'moved'])
      await sql`drop trigger if exists ${trigger(table, op)} on ${sql.table(table)}`.execute(db);
  await sql`drop function if exists live_generation_bump_each()`.execute(db);
  await sql`drop function if exists live_generation_bump_m_each()`.execute(db);
  await sql`drop function if exists live_generation_bump_once(text)`.execute(db);
  await m0072.up(db);
}
