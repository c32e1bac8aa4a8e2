import { createHash, randomBytes } from 'node:crypto';
import type { ExpressionBuilder, InferResult } from 'kysely';
import type { Executor, SessionsTable } from '@takt/db';

export const SESSION_TTL_MS = 30 * 86_400_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * 'session': the login cookie, good for every call. 'link': a short-lived CSV-link token (live-operations §7),
 * good only as `?token=` on GET requests, never as a cookie or on the live socket (decision 0502).
 */
export type SessionKind = 'session' | 'link';

export interface SessionRecord {
  id: string;
  companyId: string;
  userId: string;
  kind: SessionKind;
  expiresAt: number;
}

/** Create a session (or a link token) and return the token; only its hash is stored. */
export async function createSession(
  db: Executor,
  input: { companyId: string; userId: string; ttlMs?: number; kind?: SessionKind },
  now: number,
): Promise<{ token: string; session: SessionRecord }> {
  const token = randomBytes(32).toString('base64url');
  const session: SessionRecord = {
    id: hashToken(token),
    companyId: input.companyId,
    userId: input.userId,
    kind: input.kind ?? 'session',
    expiresAt: now + (input.ttlMs ?? SESSION_TTL_MS),
  };
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      company_id: session.companyId,
      user_id: session.userId,
      kind: session.kind,
      created_at: now,
      expires_at: session.expiresAt,
      revoked_at: null,
    })
    .execute();
  return { token, session };
}

/**
 * The live session of this kind for a token, or undefined when unknown, expired, revoked or of another kind
 * (a link token never passes for a session cookie, nor a session for a link token).
 */
/**
 * The one rule of a live session (decision 1221): this token's, of this kind, not revoked, not expired. Both reads of a
 * session (findLiveSession, findLiveSessionCaller) filter by it, under the alias `s`.
 */
const liveSessionById =
  (id: string, now: number, kind: SessionKind) => (eb: ExpressionBuilder<{ s: SessionsTable }, 's'>) =>
    eb.and([
      eb('s.id', '=', id),
      eb('s.kind', '=', kind),
      eb('s.revoked_at', 'is', null),
      eb('s.expires_at', '>', now),
    ]);
const liveSession = (token: string, now: number, kind: SessionKind) =>
  liveSessionById(hashToken(token), now, kind);

export async function findLiveSession(
  db: Executor,
  token: string,
  now: number,
  kind: SessionKind = 'session',
): Promise<SessionRecord | undefined> {
  const row = await db
    .selectFrom('sessions as s')
    .select(['s.id', 's.company_id', 's.user_id', 's.kind', 's.expires_at'])
    .where(liveSession(token, now, kind))
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      companyId: row.company_id,
      userId: row.user_id,
      kind: row.kind,
      expiresAt: row.expires_at,
    }
  );
}

/**
 * Logout (mutates): revoke the session of this token and every live link token of its user, so a CSV link
 * copied before the logout stops working at once instead of at its expiry (decision 0502).
 */
export async function revokeSession(db: Executor, token: string, now: number): Promise<void> {
  const id = hashToken(token);
  // One statement: the session itself, and the live link tokens of the same user.
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where((eb) =>
      eb.or([
        eb('id', '=', id),
        eb.and([
          eb('kind', '=', 'link'),
          eb('revoked_at', 'is', null),
          eb('user_id', 'in', eb.selectFrom('sessions as s').select('s.user_id').where('s.id', '=', id)),
        ]),
      ]),
    )
    .execute();
}

/** The stand-in values findLiveSessionCaller's statement is compiled with (none a real value can equal). */
const STAND_IN = {
  id: '\u0000session id',
  now: -8_640_000_000_000_001,
  kind: '\u0000session kind' as SessionKind,
};

type CallerRow = InferResult<ReturnType<typeof callerStatement>>[number];

/** findLiveSessionCaller's statement, compiled once per dialect (the adapter of the handles that share it). */
const callerStatements = new WeakMap<object, ReturnType<ReturnType<typeof callerStatement>['compile']>>();

/** The live session (by its stored id, the token's hash) with its user, company and anonymize preference. */
const callerStatement = (db: Executor, id: string, now: number, kind: SessionKind) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', (j) =>
      j.onRef('u.id', '=', 's.user_id').onRef('u.company_id', '=', 's.company_id'),
    )
    .innerJoin('companies as c', 'c.id', 's.company_id')
    .leftJoin('user_preferences as p', (j) =>
      j.onRef('p.user_id', '=', 's.user_id').onRef('p.company_id', '=', 's.company_id'),
    )
    .select([
      'u.id as u_id',
      'u.company_id as u_company_id',
      'u.email as u_email',
      'u.display_name as u_display_name',
      'u.role as u_role',
      'u.is_root as u_is_root',
      'u.locked as u_locked',
      'c.id as c_id',
      'c.name as c_name',
      'c.timezone as c_timezone',
      'c.locale as c_locale',
      'c.product_tier as c_product_tier',
      'c.is_demo as c_is_demo',
      'p.anonymize as p_anonymize',
    ])
    .where(liveSessionById(id, now, kind));

/**
 * The live session of a token with its user, its company and the user's anonymize preference, in one
 * statement (decision 1210: a request's fixed reads each wait for a pooled connection). The user is joined
 * under the session's company only (tenancy), as getUser in a company scope reads it. Undefined as
 * findLiveSession, or when the user or the company is gone.
 */
export async function findLiveSessionCaller(
  db: Executor,
  token: string,
  now: number,
  kind: SessionKind = 'session',
) {
  // Decision 1257: the statement is built and compiled once per database handle's dialect, then run with the
  // request's values in place of the stand-ins it was compiled with (building it was ~0.5 ms of every request).
  // A handle with plugins (a test's) builds it each time: a plugin sees every statement it runs.
  const executor = db.getExecutor();
  if (executor.plugins.length > 0)
    return callerOf(await callerStatement(db, hashToken(token), now, kind).executeTakeFirst());
  const adapter = executor.adapter;
  let compiled = callerStatements.get(adapter);
  if (!compiled) {
    compiled = callerStatement(db, STAND_IN.id, STAND_IN.now, STAND_IN.kind).compile();
    callerStatements.set(adapter, compiled);
  }
  const values = new Map<unknown, unknown>([
    [STAND_IN.id, hashToken(token)],
    [STAND_IN.now, now],
    [STAND_IN.kind, kind],
  ]);
  const parameters = compiled.parameters.map((p) => (values.has(p) ? values.get(p) : p));
  const query: typeof compiled = { ...compiled, parameters };
  return callerOf((await db.executeQuery(query)).rows[0]);
}

/** findLiveSessionCaller's answer from its statement's row. */
function callerOf(row: CallerRow | undefined) {
  return (
    row && {
      user: {
        id: row.u_id,
        company_id: row.u_company_id,
        email: row.u_email,
        display_name: row.u_display_name,
        role: row.u_role,
        is_root: row.u_is_root,
        locked: row.u_locked,
      },
      company: {
        id: row.c_id,
        name: row.c_name,
        timezone: row.c_timezone,
        locale: row.c_locale,
        product_tier: row.c_product_tier,
        is_demo: row.c_is_demo,
      },
      anonymize: row.p_anonymize === 1,
    }
  );
}
