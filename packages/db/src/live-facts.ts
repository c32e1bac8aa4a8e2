import { CompiledQuery } from 'kysely';

// Decision 1234 (migration 0074): on PostgreSQL the live generation's triggers on the fact tables (rollups,
// state_rows, state_open, cycle_rows) are skipped in a transaction that has run this statement. A writer runs it only
// when it marks for recompute (rollup_dirty) every machine whose facts it writes in the same transaction: the marks'
// trigger bumps those machines' companies, so the dashboard's version moves all the same. The ingest batch does
// (services/ingest store.ts writeBatch); anything else leaves it unset and each row it writes bumps its company.

/** The transaction-local setting migration 0074's triggers read. */
export const LIVE_FACTS_MARKED = 'takt.live_facts_marked';

/** PostgreSQL: this transaction marks every machine whose facts it writes (decision 1234). */
export const liveFactsMarked: CompiledQuery = CompiledQuery.raw(`set local ${LIVE_FACTS_MARKED} = on`);
