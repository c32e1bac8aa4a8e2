import { API_KEY_SCOPES } from '@takt/domain';
import type { ApiKey, ApiKeyScope } from '@takt/domain';
import { t } from '@takt/ui';
import type { MessageKey } from '@takt/ui';
import { nameError, setErrors } from '../admin/form';

// The API keys screen's form (reports-admin §2 "API keys … with scopes"; scopes of decision 0840), kept out
// of the component so it is tested as plain functions.

export interface ApiKeyForm {
  name: string;
  scopes: ApiKeyScope[];
}

/** A new key reads reports: the common case (an ERP or BI tool pulling figures). */
export const newApiKeyForm = (): ApiKeyForm => ({ name: '', scopes: ['reports:read'] });

export const apiKeyFormOf = (k: Pick<ApiKey, 'name' | 'scopes'>): ApiKeyForm => ({
  name: k.name,
  scopes: [...k.scopes],
});

/** reports-admin §5: validated as you type; Save stays disabled while any is set. */
export const apiKeyErrors = (f: ApiKeyForm) =>
  setErrors({
    name: nameError(f.name),
    scopes: f.scopes.length === 0 ? t('accounts.apiKeys.scopesRequired') : null,
  });

/** The body of POST and PUT /api/apikeys: scopes in the catalogue's order. */
export const apiKeyBody = (f: ApiKeyForm): { name: string; scopes: ApiKeyScope[] } => ({
  name: f.name.trim(),
  scopes: API_KEY_SCOPES.filter((s) => f.scopes.includes(s)),
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
};

/** Keys by name (as the API lists them), so a renamed key moves to its place. */
export const sortApiKeys = (keys: readonly ApiKey[]): ApiKey[] =>
  [...keys].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
