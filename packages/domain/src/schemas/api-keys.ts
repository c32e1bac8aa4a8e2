import { z } from 'zod';

// reports-admin §2 "API keys: list, create, edit, delete, with scopes; access token shown once at creation"
// and §3 "API key: id, scopes, accessToken". The scope names and what each opens are decision 0840.

/** `reports:read`: the report and dashboard calls; `operations:write`: the live-operations calls. */
export const API_KEY_SCOPES = ['reports:read', 'operations:write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES);

const apiKeyName = z
  .string({ error: 'Missing required field: Name' })
  .trim()
  .min(1, 'Missing required field: Name')
  .max(250, 'At most 250 characters');

const apiKeyScopes = z
  .array(apiKeyScopeSchema)
  .min(1, 'Choose at least one scope')
  // Stored and answered once each, in the catalogue's order.
  .transform((s) => API_KEY_SCOPES.filter((scope) => s.includes(scope)));

/** An API key as listed: never its token. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(apiKeyScopeSchema),
  /** The token's first characters, so a key can be told apart from another without the secret. */
  prefix: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer to a create: the key plus its access token, the only time the token is ever sent. */
export const apiKeyCreatedSchema = apiKeySchema.extend({ accessToken: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

export const apiKeyCreateRequestSchema = z.object({ name: apiKeyName, scopes: apiKeyScopes });
export const apiKeyUpdateRequestSchema = z
  .object({ name: apiKeyName.optional(), scopes: apiKeyScopes.optional() })
  .refine((v) => v.name !== undefined || v.scopes !== undefined, 'Nothing to change');
export type ApiKeyCreateRequest = z.input<typeof apiKeyCreateRequestSchema>;
export type ApiKeyUpdateRequest = z.input<typeof apiKeyUpdateRequestSchema>;
