import type { Kysely } from 'kysely';

// Issue 29 point 3 (decision 1087): the company settings the specs name that had no column. Operator tracking
// (live-operations §2 toolbar), the downtime underlay's delay and auto-expand duration (§2, decision 0708's
// defaults), the long-downtime threshold (reports-admin §9), the OEE warning and failure percents, auto job
// dispatch, benchmarking (null Undecided, 0 Opt In, 1 Opt Out; reports-admin §9), the tablet registration key
// and the address (reports-admin §3 Company). Defaults keep every tablet and tile as it was.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, type, dflt] of [
    ['operator_tracking', 'integer', 1],
    ['underlay_delay_ms', 'bigint', 30_000],
    ['underlay_auto_expand_ms', 'bigint', 300_000],
    ['long_downtime_threshold_ms', 'bigint', 120_000],
    ['warningpercent_oee', 'integer', 90],
    ['failurepercent_oee', 'integer', 75],
    ['enable_auto_job_dispatch', 'integer', 0],
  ] as const) {
    await db.schema
      .alterTable('companies')
      .addColumn(name, type, (c) => c.notNull().defaultTo(dflt))
      .execute();
  }
  for (const name of ['exclude_from_benchmarking']) {
    await db.schema.alterTable('companies').addColumn(name, 'integer').execute();
  }
  for (const name of ['tablet_registration_key', 'address']) {
    await db.schema.alterTable('companies').addColumn(name, 'text').execute();
  }
}

const COLUMNS = [
  'operator_tracking',
  'underlay_delay_ms',
  'underlay_auto_expand_ms',
  'long_downtime_threshold_ms',
  'warningpercent_oee',
  'failurepercent_oee',
  'enable_auto_job_dispatch',
  'exclude_from_benchmarking',
  'tablet_registration_key',
  'address',
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const name of COLUMNS) await db.schema.alterTable('companies').dropColumn(name).execute();
}
