import { createHash, randomBytes } from 'node:crypto';
import type { Executor } from '../db/scope';

export const SESSION_TTL_MS = 30 * 86_400_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export interface SessionRecord {
  id: string;
  companyId: string;
  userId: string;
  expiresAt: number;
}

/** Create a session and return the token for the cookie; only its hash is stored. */
export async function createSession(
  db: Executor,
  input: { companyId: string; userId: string; ttlMs?: number },
  now: number,
): Promise<{ token: string; session: SessionRecord }> {
  const token = randomBytes(32).toString('base64url');
  const session = {
    id: hashToken(token),
    companyId: input.companyId,
    userId: input.userId,
    expiresAt: now + (input.ttlMs ?? SESSION_TTL_MS),
  };
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      company_id: session.companyId,
      user_id: session.userId,
      created_at: now,
      expires_at: session.expiresAt,
      revoked_at: null,
    })
    .execute();
  return { token, session };
}

/** The live session for a cookie token, or undefined when unknown, expired or revoked. */
export async function findLiveSession(
  db: Executor,
  token: string,
  now: number,
): Promise<SessionRecord | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select(['id', 'company_id', 'user_id', 'expires_at'])
    .where('id', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row && { id: row.id, companyId: row.company_id, userId: row.user_id, expiresAt: row.expires_at };
}

export async function revokeSession(db: Executor, token: string, now: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', hashToken(token)).execute();
}
