import type { CompanyScope, Executor } from '@takt/db';
import { BENCHMARK_OPT_IN, BENCHMARK_OPT_OUT } from '@takt/domain';

// The weekly benchmarking e-mails (decision 1110): who takes part, who receives, and the once-per-user-and-week
// claim (migration 0042). SQL only.

/**
 * Companies that take part in benchmarking: not opted out as a company (reports-admin §3 Company
 * exclude_from_benchmarking 1), with at least one machine in service opted in (§3 Machine excludeFromBenchmarking 0,
 * §9 "Opt In (0)"). Every company on purpose (the worker's one unscoped query, as the notification checker's);
 * only ids leave it, at most `limit` of them.
 */
export async function benchmarkingCompanies(db: Executor, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('companies as c')
    .select('c.id')
    .where((eb) =>
      eb.or([
        eb('c.exclude_from_benchmarking', 'is', null),
        eb('c.exclude_from_benchmarking', '!=', BENCHMARK_OPT_OUT),
      ]),
    )
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('machines as m')
          .select('m.id')
          .whereRef('m.company_id', '=', 'c.id')
          .where('m.exclude_from_benchmarking', '=', BENCHMARK_OPT_IN)
          .where('m.decommissioned_at', 'is', null)
          .where('m.root_machine', '=', 0),
      ),
    )
    .orderBy('c.id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** The company's machines in service that opted in (Undecided and Opt Out take no part), by workcenter order. */
export async function optedInMachines(scope: CompanyScope): Promise<Array<{ id: string; name: string }>> {
  return scope
    .selectFrom('machines')
    .select(['id', 'name'])
    .where('exclude_from_benchmarking', '=', BENCHMARK_OPT_IN)
    .where('decommissioned_at', 'is', null)
    .where('root_machine', '=', 0)
    .orderBy('sort_order')
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/**
 * The company's users who receive benchmarking e-mails and have not got this week's: not locked, and
 * receiveBenchmarkingEmail on (a user who never saved preferences receives, decision 0701).
 */
export async function benchmarkRecipients(
  scope: CompanyScope,
  week: string,
  limit: number,
): Promise<Array<{ id: string; email: string; displayName: string }>> {
  const rows = await scope
    .selectFrom('users')
    .leftJoin('email_preferences as p', 'p.user_id', 'users.id')
    .select(['users.id', 'users.email', 'users.display_name'])
    .where('users.locked', '=', 0)
    .where((eb) => eb.or([eb('p.receive_benchmarking', 'is', null), eb('p.receive_benchmarking', '!=', 0)]))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('benchmark_mails as b')
            .select('b.user_id')
            .whereRef('b.user_id', '=', 'users.id')
            .where('b.week', '=', week),
        ),
      ),
    )
    .orderBy('users.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, email: r.email, displayName: r.display_name }));
}

/**
 * Claims the user's e-mail of `week` before it is sent: true for the one process (and the one round) that inserts
 * the row, false when it is there already. Once per user and week even if delivery then fails (the failed attempt
 * stays in the outbox, decision 0701).
 */
export async function claimBenchmarkMail(
  scope: CompanyScope,
  userId: string,
  week: string,
  now: number,
): Promise<boolean> {
  const result = await scope
    .insertInto('benchmark_mails', { user_id: userId, week, claimed_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'week']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
