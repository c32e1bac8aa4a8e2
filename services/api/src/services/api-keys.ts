import { randomBytes } from 'node:crypto';
import { API_KEY_LIFETIME_DAYS } from '@takt/domain';
import type { ApiKey, ApiKeyCreated, ApiKeyScope } from '@takt/domain';
import type { CompanyScope } from '@takt/db';
import { hashToken } from '../auth/tokens';
import { notFound } from '../http/errors';
import { deleteApiKey, getApiKey, insertApiKey, listApiKeys, updateApiKey } from '../repositories/api-keys';
import type { ApiKeyRecord } from '../repositories/api-keys';
import type { ServiceCtx } from './context';

// reports-admin §2 API keys (decision 0840): the access token is made here, returned once by create, and
// only its sha256 is stored; list and edit never see it again.

const API_KEY_PREFIX = 'tak_';
/** Characters of the token kept in clear to tell keys apart (the prefix plus 4 random characters). */
const SHOWN_CHARS = API_KEY_PREFIX.length + 4;

/** A new API key token: `tak_` + 43 base64url characters (256 bits). */
export function newApiKeyToken(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** A bearer token that could be an API key (cheap check before hashing and a lookup). */
export const looksLikeApiKey = (token: string): boolean =>
  token.startsWith(API_KEY_PREFIX) && token.length === API_KEY_PREFIX.length + 43;

const publicKey = ({ companyId: _companyId, ...key }: ApiKeyRecord): ApiKey => key;

export async function apiKeys(scope: CompanyScope): Promise<ApiKey[]> {
  return (await listApiKeys(scope)).map(publicKey);
}

const DAY_MS = 24 * 3_600_000;
/** When a key given `days` (default API_KEY_LIFETIME_DAYS.default) from `now` stops working (decision 0990). */
export const apiKeyExpiry = (now: number, days: number = API_KEY_LIFETIME_DAYS.default): number =>
  now + days * DAY_MS;

export async function createApiKey(
  ctx: ServiceCtx,
  input: { name: string; scopes: ApiKeyScope[]; expiresInDays?: number | undefined },
): Promise<ApiKeyCreated> {
  const accessToken = newApiKeyToken();
  const id = crypto.randomUUID();
  await insertApiKey(
    ctx.scope,
    {
      id,
      name: input.name,
      tokenHash: hashToken(accessToken),
      prefix: accessToken.slice(0, SHOWN_CHARS),
      scopes: input.scopes,
      createdBy: ctx.caller.user.id,
      expiresAt: apiKeyExpiry(ctx.now, input.expiresInDays),
    },
    ctx.now,
  );
  const key = await getApiKey(ctx.scope, id);
  if (!key) throw notFound('API key');
  return { ...publicKey(key), accessToken };
}

export async function editApiKey(
  ctx: ServiceCtx,
  id: string,
  change: {
    name?: string | undefined;
    scopes?: ApiKeyScope[] | undefined;
    expiresInDays?: number | undefined;
  },
): Promise<ApiKey> {
  const { expiresInDays, ...rest } = change;
  const update = {
    ...(rest.name === undefined ? {} : { name: rest.name }),
    ...(rest.scopes === undefined ? {} : { scopes: rest.scopes }),
    ...(expiresInDays === undefined ? {} : { expiresAt: apiKeyExpiry(ctx.now, expiresInDays) }),
  };
  if (!(await updateApiKey(ctx.scope, id, update))) throw notFound('API key');
  const key = await getApiKey(ctx.scope, id);
  if (!key) throw notFound('API key');
  return publicKey(key);
}

export async function removeApiKey(ctx: ServiceCtx, id: string): Promise<void> {
  if (!(await deleteApiKey(ctx.scope, id))) throw notFound('API key');
}
