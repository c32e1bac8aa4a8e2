import type { Executor } from '@takt/db';

// Rate-limit counters (decision 0987). SQL only. Not company-scoped: many keys are counted before anyone is
// known (a login, a tablet asking for a code).

export interface Hit {
  /** Hits in the key's window, this one included. */
  count: number;
  windowStart: number;
}

/**
 * Counts one hit of `key` in a window of `windowMs` that starts at the key's first hit, in one statement
 * (INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING on both dialects), so concurrent requests on any number
 * of processes see distinct counts. A hit over `limit` is not counted and returns undefined: the counter
 * never passes the limit, and a refused hit does not push the window out.
 */
export async function countHit(
  db: Executor,
  key: string,
  now: number,
  windowMs: number,
  limit: number,
): Promise<Hit | undefined> {
  const expiredBefore = now - windowMs;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: now, count: 1 })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet((eb) => {
          const expired = eb('rate_limits.window_start', '<=', expiredBefore);
          return {
            count: eb
              .case()
              .when(expired)
              .then(1)
              .else(eb('rate_limits.count', '+', 1))
              .end(),
            window_start: eb.case().when(expired).then(now).else(eb.ref('rate_limits.window_start')).end(),
          };
        })
        .where((eb) =>
          eb.or([eb('rate_limits.window_start', '<=', expiredBefore), eb('rate_limits.count', '<', limit)]),
        ),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirst();
  return row ? { count: Number(row.count), windowStart: Number(row.window_start) } : undefined;
}

/** When the key's current window began, or undefined when it has no counter. */
export async function windowStartOf(db: Executor, key: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('rate_limits')
    .select('window_start')
    .where('key', '=', key)
    .executeTakeFirst();
  return row ? Number(row.window_start) : undefined;
}

/** Takes one hit back (never below zero): a request that turned out fine does not count. */
export async function uncountHit(db: Executor, key: string): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set((eb) => ({ count: eb('count', '-', 1) }))
    .where('key', '=', key)
    .where('count', '>', 0)
    .execute();
}

export async function clearCounter(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Drops counters whose window began before `before` (they restart at 1 anyway). Mutates rate_limits. */
export async function dropCountersBefore(db: Executor, before: number): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('window_start', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
