import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Decision 1181 (issue 30 point 3): program_rows and flag_rows keep their primary key (m, sub | kind, start_at) alone.
// Their second index, (m, sub | kind, end_at) (migrations 0059 and 0061, for decision 1122's replace of the records
// ending from a time), was about 60 % of the closed tables' size per machine-day as run. A machine's closed records of
// one group never overlap and are inserted once, so those ending at or after a time are those from the last one
// starting before it: ingest's replace (services/ingest worker/store-narrow.ts) and every reader (the rollup
// sources' flag spans, the timeline's programs, the open sub-program from program_open) read ranges of the key.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await sql`drop index program_rows_m_end`.execute(db);
  await sql`drop index flag_rows_m_end`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`create index program_rows_m_end on program_rows (m, sub, end_at)`.execute(db);
  await sql`create index flag_rows_m_end on flag_rows (m, kind, end_at)`.execute(db);
}
