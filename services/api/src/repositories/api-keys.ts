import type { Selectable } from 'kysely';
import type { ApiKey, ApiKeyScope } from '@takt/domain';
import type { ApiKeysTable, CompanyScope, Executor } from '@takt/db';

// API keys (reports-admin §2, decision 0840). SQL only; one mapping for the table.

export interface ApiKeyRecord extends ApiKey {
  companyId: string;
}

export const toApiKey = (r: Selectable<ApiKeysTable>): ApiKeyRecord => ({
  id: r.id,
  companyId: r.company_id,
  name: r.name,
  scopes: JSON.parse(r.scopes) as ApiKeyScope[],
  prefix: r.prefix,
  createdAt: Number(r.created_at),
  lastUsedAt: r.last_used_at == null ? null : Number(r.last_used_at),
  expiresAt: r.expires_at == null ? null : Number(r.expires_at),
});

export async function listApiKeys(scope: CompanyScope): Promise<ApiKeyRecord[]> {
  const rows = await scope.selectFrom('api_keys').selectAll().orderBy('name').orderBy('id').execute();
  return rows.map(toApiKey);
}

export async function getApiKey(scope: CompanyScope, id: string): Promise<ApiKeyRecord | undefined> {
  const row = await scope.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toApiKey(row);
}

export async function insertApiKey(
  scope: CompanyScope,
  input: {
    id: string;
    name: string;
    tokenHash: string;
    prefix: string;
    scopes: readonly ApiKeyScope[];
    createdBy: string;
    expiresAt: number;
  },
  now: number,
): Promise<void> {
  await scope
    .insertInto('api_keys', {
      id: input.id,
      name: input.name,
      token_hash: input.tokenHash,
      prefix: input.prefix,
      scopes: JSON.stringify(input.scopes),
      created_by: input.createdBy,
      created_at: now,
      last_used_at: null,
      expires_at: input.expiresAt,
    })
    .execute();
}

/** Changes name, scopes and/or expiry; false when the key is not the company's. */
export async function updateApiKey(
  scope: CompanyScope,
  id: string,
  change: { name?: string; scopes?: readonly ApiKeyScope[]; expiresAt?: number },
): Promise<boolean> {
  const res = await scope
    .updateTable('api_keys')
    .set({
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.scopes === undefined ? {} : { scopes: JSON.stringify(change.scopes) }),
      ...(change.expiresAt === undefined ? {} : { expires_at: change.expiresAt }),
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function deleteApiKey(scope: CompanyScope, id: string): Promise<boolean> {
  const res = await scope.deleteFrom('api_keys').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Authentication only (no company known yet): the key whose token has this hash. */
export async function findApiKeyByHash(db: Executor, tokenHash: string): Promise<ApiKeyRecord | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && toApiKey(row);
}

export async function touchApiKey(db: Executor, id: string, now: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
}
