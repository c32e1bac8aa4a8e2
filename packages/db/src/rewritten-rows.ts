import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from './schema';
import { numberedPlaceholders } from './batch-insert';

// Decision 1190 (issue 30 point 3): the tables of a few rows (one a machine, a source or a machine and group) that
// ingest rewrites all day. Their updates stay in their page (fill factor 50, decision 1145) while the page's dead
// versions can be pruned; while a snapshot older than them is open (a report, a recompute, a packing slice) they
// cannot, the next version goes to another page, and a page freed later is known to no insert until a VACUUM
// records it. With autovacuum off or behind, these tables grew all run: in `bench/disk-day.ts 200 8` machine_live held
// 200 rows in 1.33 MB and rollup_dirty in 0.93 (7,946 and 5,448 bytes a row), program_open, source_leases, flag_open
// and state_open 0.6 together: about a tenth of the database's growth per machine-day.
const REWRITTEN = [
  'machine_live',
  'machine_sources',
  'source_leases',
  'rollup_dirty',
  'setup_dirty',
  'program_open',
  'state_open',
  'flag_open',
  'live_generations',
] as const;

/**
 * Mutates: VACUUM of the tables ingest rewrites all day (PostgreSQL; nothing on SQLite, which updates in place, nor
 * inside a transaction, where VACUUM cannot run), so the space of their dead versions is reused instead of the
 * tables growing. Each is a few pages a hundred machines: milliseconds. SKIP_LOCKED: a table another node vacuums
 * right now is left to it. The packing pass runs it (packObservations), once a minute in the API processes.
 */
export async function reclaimRewrittenRows(db: Kysely<Database>): Promise<void> {
  if (!numberedPlaceholders(db) || db.isTransaction) return;
  await foldLiveGenerations(db);
  await sql`vacuum (skip_locked) ${sql.join(REWRITTEN.map((t) => sql.table(t)))}`.execute(db);
}

/**
 * Mutates: folds the live generations (decision 1206, migration 0071) of PostgreSQL backends that are gone into their
 * company's slot 0, in one statement: each company's sum, its live data version, stays the same, and the rows a
 * version reads stay about one a connection that writes. Safe at any time (a row folded while its backend still
 * writes only comes back); nothing on SQLite (one row a company). Run by reclaimRewrittenRows.
 */
export async function foldLiveGenerations(db: Kysely<Database>): Promise<void> {
  if (!numberedPlaceholders(db)) return;
  await sql`with gone as (
      delete from live_generations g where g.slot <> 0
        and not exists (select 1 from pg_stat_activity a where a.pid = g.slot)
      returning g.company_id, g.generation)
    insert into live_generations (company_id, slot, generation)
      select company_id, 0, sum(generation) from gone group by company_id
    on conflict (company_id, slot) do update set generation = live_generations.generation + excluded.generation`.execute(
    db,
  );
}
