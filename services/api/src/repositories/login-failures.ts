import type { Executor } from '@takt/db';

// Failed logins (decision 0842). SQL only. Not company-scoped: nobody is known yet when a login fails.

export async function countFailuresSince(db: Executor, key: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('key', '=', key)
    .where('at', '>', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The oldest failure of a key after `since` (when the window frees up again), or null. */
export async function oldestFailureSince(db: Executor, key: string, since: number): Promise<number | null> {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => eb.fn.min('at').as('at'))
    .where('key', '=', key)
    .where('at', '>', since)
    .executeTakeFirst();
  return row?.at == null ? null : Number(row.at);
}

/** Records one failure under each key and drops failures that fell out of every window. */
export async function recordFailure(
  db: Executor,
  keys: readonly string[],
  now: number,
  forgetBefore: number,
) {
  await db
    .insertInto('login_failures')
    .values(keys.map((key) => ({ key, at: now })))
    .execute();
  await db.deleteFrom('login_failures').where('at', '<=', forgetBefore).execute();
}

export async function clearFailures(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('login_failures').where('key', '=', key).execute();
}
