import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Decision 1145: ingest rewrites the same few thousand rows all day (a machine's live row, its source's counters,
// its lease, its dirty-rollup mark). On PostgreSQL every update writes a new row version; in a full page it goes to
// another page with a new index entry, and the dead versions pile up until a vacuum (134,000 dead versions of 1,000
// machine_sources rows after 3 minutes at 1,000 machines, bench/ingest-work.ts). Pages kept half empty let an update
// stay in its page (a HOT update: none of these updates changes an indexed column), and the page's dead versions are
// pruned in place by the next update that needs the room, without a vacuum. Affects pages written from now on: the
// rows move into such pages as they are next updated. SQLite updates in place: nothing to do.
const TABLES = ['machine_live', 'machine_sources', 'source_leases', 'rollup_dirty'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;
const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Db): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of TABLES) await sql`alter table ${sql.table(table)} set (fillfactor = 50)`.execute(db);
}

export async function down(db: Db): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of TABLES) await sql`alter table ${sql.table(table)} reset (fillfactor)`.execute(db);
}
