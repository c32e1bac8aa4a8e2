import type { Kysely } from 'kysely';

// Decision 1122: every ingest batch replaces a machine's derived records from a time on: those ending at or after it,
// and the open ones (`end_at is null or end_at >= ?`). The tables were keyed by start only, so each replace read every
// record the machine ever had, and a batch cost more the longer the plant ran (1,000 machines × a new program a
// second: 86,400 program rows a machine a day to read, per batch). Cycles are keyed by their end already.
const TABLES = ['state_intervals', 'program_intervals', 'faults', 'flag_spans'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES)
    await db.schema
      .createIndex(`${table}_machine_end`)
      .ifNotExists()
      .on(table)
      .columns(['machine_id', 'end_at'])
      .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await db.schema.dropIndex(`${table}_machine_end`).ifExists().execute();
}
