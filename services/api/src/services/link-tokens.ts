import type { Executor } from '@takt/db';
import type { Caller } from '../http/context';
import { createSession, findLiveSession } from '../repositories/sessions';

/** The apps refresh the token every 3 minutes (live-operations §7); it stays valid a little longer. */
export const USER_TOKEN_REFRESH_MS = 180_000;
export const USER_TOKEN_TTL_MS = 2 * USER_TOKEN_REFRESH_MS;

/**
 * A link token of the caller (decision 0502): good for GET requests as `?token=` only, for
 * USER_TOKEN_TTL_MS, revoked at logout. Only a user's real session (kind 'session', the cookie) mints one;
 * null for any other caller, so a link token cannot renew itself. Mutates the sessions table.
 */
export async function mintLinkToken(
  db: Executor,
  caller: Caller,
  now: number,
): Promise<{ token: string; expiresAt: number } | null> {
  if (caller.kind !== 'user') return null;
  // The caller came in by the cookie or by `?token=`; only a real session may mint.
  if (!(await findLiveSession(db, caller.sessionToken, now, 'session'))) return null;
  const { token, session } = await createSession(
    db,
    { companyId: caller.company.id, userId: caller.user.id, ttlMs: USER_TOKEN_TTL_MS, kind: 'link' },
    now,
  );
  return { token, expiresAt: session.expiresAt };
}
