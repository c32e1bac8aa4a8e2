import { API_KEY_LIFETIME_DAYS, API_KEY_SCOPES } from '@takt/domain';
import type { ApiKey, ApiKeyScope } from '@takt/domain';
import { t } from '@takt/ui';
import type { MessageKey } from '@takt/ui';
import { nameError, setErrors } from '../admin/form';

// The API keys screen's form (reports-admin §2 "API keys … with scopes"; scopes of decision 0840), kept out
// of the component so it is tested as plain functions.

export interface ApiKeyForm {
  name: string;
  scopes: ApiKeyScope[];
  /** Days the key works from now (decision 0990); null or absent: keep the key's expiry (edit only). */
  expiresInDays?: number | null;
}

/** The lifetimes offered, in days; a year is the default. */
export const API_KEY_LIFETIMES = [30, 90, 180, 365, API_KEY_LIFETIME_DAYS.max] as const;

/** A new key reads reports: the common case (an ERP or BI tool pulling figures); it works for a year. */
export const newApiKeyForm = (): ApiKeyForm => ({
  name: '',
  scopes: ['reports:read'],
  expiresInDays: API_KEY_LIFETIME_DAYS.default,
});

/** Editing keeps the expiry unless a new lifetime is chosen (a renewal, counted from the day it is saved). */
export const apiKeyFormOf = (k: Pick<ApiKey, 'name' | 'scopes'>): ApiKeyForm => ({
  name: k.name,
  scopes: [...k.scopes],
  expiresInDays: null,
});

/** Whether a key has stopped working at `now`. */
export const apiKeyExpired = (k: Pick<ApiKey, 'expiresAt'>, now: number): boolean =>
  k.expiresAt != null && k.expiresAt <= now;

/** reports-admin §5: validated as you type; Save stays disabled while any is set. */
export const apiKeyErrors = (f: ApiKeyForm) =>
  setErrors({
    name: nameError(f.name),
    scopes: f.scopes.length === 0 ? t('accounts.apiKeys.scopesRequired') : null,
  });

/** The body of POST and PUT /api/apikeys: scopes in the catalogue's order, the lifetime when one is chosen. */
export const apiKeyBody = (
  f: ApiKeyForm,
): { name: string; scopes: ApiKeyScope[]; expiresInDays?: number } => ({
  name: f.name.trim(),
  scopes: API_KEY_SCOPES.filter((s) => f.scopes.includes(s)),
  ...(f.expiresInDays == null ? {} : { expiresInDays: f.expiresInDays }),
});

export const withScope = (scopes: readonly ApiKeyScope[], scope: ApiKeyScope, on: boolean): ApiKeyScope[] =>
  on ? [...new Set([...scopes, scope])] : scopes.filter((s) => s !== scope);

export const SCOPE_TEXT: Record<ApiKeyScope, { label: MessageKey; hint: MessageKey }> = {
  'reports:read': {
    label: 'accounts.apiKeys.scope.reports:read',
    hint: 'accounts.apiKeys.scope.reports:read.hint',
  },
  'operations:write': {
    label: 'accounts.apiKeys.scope.operations:write',
    hint: 'accounts.apiKeys.scope.operations:write.hint',
  },
  'jobs:write': {
    label: 'accounts.apiKeys.scope.jobs:write',
    hint: 'accounts.apiKeys.scope.jobs:write.hint',
  },
};

/** Keys by name (as the API lists them), so a renamed key moves to its place. */
export const sortApiKeys = (keys: readonly ApiKey[]): ApiKey[] =>
  [...keys].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
