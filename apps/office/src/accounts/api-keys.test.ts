import { describe, expect, it } from 'vitest';
import {
  apiKeyBody,
  apiKeyErrors,
  apiKeyExpired,
  apiKeyFormOf,
  newApiKeyForm,
  sortApiKeys,
  withScope,
} from './api-keys';

describe('API key form', () => {
  it('starts with the reports scope and an empty (invalid) name', () => {
    expect(newApiKeyForm()).toEqual({ name: '', scopes: ['reports:read'], expiresInDays: 365 });
    expect(Object.keys(apiKeyErrors(newApiKeyForm()))).toEqual(['name']);
  });

  it.each([
    [{ name: 'ERP', scopes: [] }, ['scopes']],
    [{ name: ' ', scopes: ['reports:read'] }, ['name']],
    [{ name: 'x'.repeat(251), scopes: ['reports:read'] }, ['name']],
    [{ name: 'ERP', scopes: ['operations:write'] }, []],
  ] as const)('%j has errors in %j', (form, fields) => {
    expect(Object.keys(apiKeyErrors({ name: form.name, scopes: [...form.scopes] }))).toEqual(fields);
  });

  it('sends the trimmed name and the scopes in catalogue order', () => {
    expect(apiKeyBody({ name: ' ERP ', scopes: ['operations:write', 'reports:read'] })).toEqual({
      name: 'ERP',
      scopes: ['reports:read', 'operations:write'],
    });
    // A lifetime chosen is sent (a new key, or a renewal); none keeps the key's expiry.
    expect(apiKeyBody({ ...newApiKeyForm(), name: 'ERP' })).toEqual({
      name: 'ERP',
      scopes: ['reports:read'],
      expiresInDays: 365,
    });
    expect(apiKeyBody(apiKeyFormOf({ name: 'ERP', scopes: ['reports:read'] }))).toEqual({
      name: 'ERP',
      scopes: ['reports:read'],
    });
  });

  it('tells an expired key', () => {
    expect(apiKeyExpired({ expiresAt: 1000 }, 999)).toBe(false);
    expect(apiKeyExpired({ expiresAt: 1000 }, 1000)).toBe(true);
    expect(apiKeyExpired({ expiresAt: null }, 5000)).toBe(false);
  });

  it('toggles scopes without duplicates and edits from a key', () => {
    expect(withScope(['reports:read'], 'reports:read', true)).toEqual(['reports:read']);
    expect(withScope(['reports:read'], 'operations:write', true)).toEqual([
      'reports:read',
      'operations:write',
    ]);
    expect(withScope(['reports:read'], 'reports:read', false)).toEqual([]);
    expect(apiKeyFormOf({ name: 'A', scopes: ['operations:write'] })).toEqual({
      name: 'A',
      scopes: ['operations:write'],
      expiresInDays: null,
    });
  });

  it('sorts by name, then id', () => {
    const key = (id: string, name: string) => ({
      id,
      name,
      scopes: [],
      prefix: 'tak_',
      createdAt: 0,
      lastUsedAt: null,
      expiresAt: null,
    });
    expect(sortApiKeys([key('2', 'b'), key('3', 'a'), key('1', 'b')]).map((k) => k.id)).toEqual([
      '3',
      '1',
      '2',
    ]);
  });
});
