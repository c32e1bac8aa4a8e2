import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { companyScope } from '@takt/db';
import type { CompanyScope } from '@takt/db';
import type { AppEnv, Caller } from '../http/context';
import { ApiError, forbidden, notAuthenticated } from '../http/errors';
import { findApiKeyByHash, touchApiKey } from '../repositories/api-keys';
import { looksLikeApiKey } from '../services/api-keys';
import { apiKeyMayCall } from './api-key-scopes';
import { boardDeviceMayCall, boardOfCaller } from './board-device';
import { getCompany, toCompany } from '../repositories/company';
import { findLiveSessionCaller } from '../repositories/sessions';
import type { SessionKind } from '../repositories/sessions';
import { findTabletByToken, touchTablet } from '../repositories/tablets';
import { toUser } from '../repositories/users';
import { enforceTabletBinding } from './tablet-binding';
import { bearerToken, hashToken } from './tokens';
import { replaceResponse } from '../http/shared-json';

export const SESSION_COOKIE = 'takt_session';
/** The registered tablet's device token (set by POST /tablet/activate), so plain fetches authenticate. */
export const TABLET_COOKIE = 'takt_tablet';

/** last_seen_at is written at most this often per tablet (not on every request). */
const SEEN_EVERY_MS = 60_000;

/**
 * A session token → a user caller of the session's company (null: no live session of that kind, or a locked
 * user). `kind` says what the token was presented as: the cookie is a 'session', `?token=` a 'link'.
 */
export async function userCaller(c: Context<AppEnv>, token: string, kind: SessionKind = 'session') {
  const { db, now } = c.var.deps;
  // One statement for the session, its user, its company and the anonymize preference (decision 1210).
  const found = await findLiveSessionCaller(db, token, now(), kind);
  if (!found || found.user.locked === 1) return null;
  const user = toUser(found.user);
  const company = toCompany(found.company);
  const caller: Caller = { kind: 'user', user, company, sessionToken: token, anonymize: found.anonymize };
  return { caller, scope: companyScope(db, company.id) };
}

/**
 * A tablet's device token → a tablet caller with a synthetic operator user (decision 0500). Only an active
 * tablet of a company authenticates; a revoked (or not yet activated) one gets 401.
 */
export async function tabletCallerFor(
  c: Context<AppEnv>,
  token: string,
): Promise<{ caller: Caller; scope: CompanyScope } | null> {
  const { db, now } = c.var.deps;
  const tablet = await findTabletByToken(db, token);
  if (!tablet || tablet.state !== 'active' || !tablet.companyId) return null;
  const company = await getCompany(db, tablet.companyId);
  if (!company) return null;
  if (tablet.lastSeenAt == null || now() - tablet.lastSeenAt > SEEN_EVERY_MS)
    await touchTablet(db, tablet.id, now());
  const user = {
    id: `tablet:${tablet.id}`,
    companyId: company.id,
    email: '',
    displayName: tablet.remote_identifier ?? tablet.serial_number,
    role: 'operator' as const,
    isRoot: false,
    locked: false,
  };
  return {
    caller: { kind: 'tablet', user, company, tablet, boundMachineId: tablet.machine_id },
    scope: companyScope(db, company.id),
  };
}

const apiKeyExpired = (at: number) =>
  new ApiError(
    401,
    'API_KEY_EXPIRED',
    `This API key expired on ${new Date(at).toISOString().slice(0, 10)}. An admin can renew it or make a new one.`,
  );

/**
 * An API key token → an API-key caller of the key's company (decision 0840): a synthetic manager, so no
 * admin route opens to it; its scopes are checked by requireCaller. Null: no such key (deleted keys stop
 * working at once, as only stored hashes match).
 */
export async function apiKeyCallerFor(
  c: Context<AppEnv>,
  token: string,
): Promise<{ caller: Caller; scope: CompanyScope } | null> {
  const { db, now } = c.var.deps;
  const key = await findApiKeyByHash(db, hashToken(token));
  if (!key) return null;
  // Decision 0990: keys expire; an expired key says so, so its owner knows to renew it rather than debug.
  if (key.expiresAt != null && key.expiresAt <= now()) throw apiKeyExpired(key.expiresAt);
  const company = await getCompany(db, key.companyId);
  if (!company) return null;
  if (key.lastUsedAt == null || now() - key.lastUsedAt > SEEN_EVERY_MS) await touchApiKey(db, key.id, now());
  const user = {
    id: `apikey:${key.id}`,
    companyId: company.id,
    email: '',
    displayName: key.name,
    role: 'manager' as const,
    isRoot: false,
    locked: false,
  };
  return {
    caller: { kind: 'apiKey', user, company, apiKey: { id: key.id, name: key.name, scopes: key.scopes } },
    scope: companyScope(db, company.id),
  };
}

/**
 * Resolve the caller and fix the company scope for the rest of the request. Every /api route sits behind
 * this: without a valid caller the answer is 401 (the apps then reload). Callers, first match wins: an
 * `Authorization: Bearer` API key (`tak_…`) or tablet token, the session cookie, the tablet cookie, a link token (`?token=`, GET
 * only). A tablet bound to a machine is then held to it (auth/tablet-binding.ts).
 */
export const requireCaller: MiddlewareHandler<AppEnv> = async (c, next) => {
  const bearer = bearerToken(c.req.header('authorization'));
  const session = getCookie(c, SESSION_COOKIE);
  const tabletCookie = getCookie(c, TABLET_COOKIE);
  // live-operations §7: CSV links carry a short-lived link token as `?token=`, on GET only; it is never
  // taken from a cookie or a bearer header, and a session token is never taken from the query (decision 0502).
  // It opens downloads only (decision 0991): a request that is not one is as if it had no token.
  const linkToken = c.req.method === 'GET' && isDownloadRequest(c) ? c.req.query('token') : undefined;
  const byHeaders = bearer
    ? looksLikeApiKey(bearer)
      ? await apiKeyCallerFor(c, bearer)
      : await tabletCallerFor(c, bearer)
    : ((session ? await userCaller(c, session, 'session') : null) ??
      (tabletCookie ? await tabletCallerFor(c, tabletCookie) : null));
  const byLink = byHeaders === null && linkToken !== undefined;
  const found = byHeaders ?? (linkToken ? await userCaller(c, linkToken, 'link') : null);
  if (!found) throw notAuthenticated();
  // Decision 0840: a key opens only the calls its scopes name; anything else is refused before any route.
  if (found.caller.kind === 'apiKey' && !apiKeyMayCall(found.caller.apiKey.scopes, c.req.method, c.req.path))
    throw forbidden();
  // Decision 1041: a TV (a tablet whose view is a live board) reads its board's data and nothing else.
  if (boardOfCaller(found.caller) !== null && !boardDeviceMayCall(c.req.method, c.req.path))
    throw forbidden();
  c.set('caller', found.caller);
  c.set('scope', found.scope);
  await enforceTabletBinding(c);
  await next();
  // A link token's request that answered something other than a CSV file (a route that ignores `format`) is
  // refused after the fact: the link opened a download or nothing (decision 0991).
  if (byLink && c.res.ok && !(c.res.headers.get('content-type') ?? '').startsWith('text/csv')) {
    const e = notAuthenticated();
    replaceResponse(c, c.json({ error: { code: e.code, message: e.message } }, 401));
  }
};

/**
 * A CSV download, the only kind of request a link token (`?token=`) opens (decision 0991): `format=csv` on a
 * report, a path ending in `/csv`, or a finished event export.
 */
export const isDownloadRequest = (c: Context<AppEnv>): boolean =>
  c.req.query('format') === 'csv' ||
  c.req.path.endsWith('/csv') ||
  c.req.path.startsWith('/api/reports/export/download/');
