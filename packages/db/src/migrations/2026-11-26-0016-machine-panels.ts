import type { Kysely } from 'kysely';

// The machines admin form's Software and Utilization panels and its adapter reset (reports-admin §2 "Machines
// admin: … Software, Utilization …; reset adapter", §3 Machine, §4 "Adapter reset sets adapter to none then
// polls mapping"; decisions 0891, 0892).
// - adapter_reset_at: when an admin last reset the adapter; the status poll matches an adapter to the data
//   the machine sent since then. NULL: no reset pending.
// - utilization_warningpercent, utilization_failurepercent: the machine's own utilization cut-offs (reports-admin
//   §3 Report machine); NULL takes the company's.
// - dispatch_key, exclude_from_benchmarking (NULL Undecided, 0 Opt In, 1 Opt Out: reports-admin §9), ping_monitor
//   (NULL, 1, 0): the Software panel.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, type] of [
    ['adapter_reset_at', 'bigint'],
    ['utilization_warningpercent', 'integer'],
    ['utilization_failurepercent', 'integer'],
    ['dispatch_key', 'text'],
    ['exclude_from_benchmarking', 'integer'],
    ['ping_monitor', 'integer'],
  ] as const) {
    await db.schema.alterTable('machines').addColumn(name, type).execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    'ping_monitor',
    'exclude_from_benchmarking',
    'dispatch_key',
    'utilization_failurepercent',
    'utilization_warningpercent',
    'adapter_reset_at',
  ]) {
    await db.schema.alterTable('machines').dropColumn(name).execute();
  }
}
