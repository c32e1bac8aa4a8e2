import type { Kysely } from 'kysely';

// Issue 26 (decision 0981): a gateway's sequences below the highest stored one that never arrived, as JSON
// `[[from, to], …]` (inclusive, lowest first, at most 1,000 ranges), so a late record in a hole is stored once
// instead of being taken for a repeat. Null: no holes known.
// Decision 0980: `rollup_dirty.renewed_from`, the earliest start of the marks merged into a row since the rollup
// worker last advanced it, so a long mark recomputed in slices goes on from where it got to (or from an earlier
// renewal) instead of starting over at every renewal.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('gateways').addColumn('sequence_gaps', 'text').execute();
  await db.schema.alterTable('rollup_dirty').addColumn('renewed_from', 'bigint').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('rollup_dirty').dropColumn('renewed_from').execute();
  await db.schema.alterTable('gateways').dropColumn('sequence_gaps').execute();
}
