import { z } from 'zod';

// reports-admin §2 "API keys: list, create, edit, delete, with scopes; access token shown once at creation"
// and §3 "API key: id, scopes, accessToken". The scope names and what each opens are decision 0840.

/**
 * `reports:read`: the report and dashboard calls; `operations:write`: the live-operations calls;
 * `jobs:write`: an ERP's work orders, i.e. jobs, job machines and production runs (decision 1047).
 */
export const API_KEY_SCOPES = ['reports:read', 'operations:write', 'jobs:write'] as const;
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

/** Lifetimes an admin may give a key, in days (decision 0990); a key never lives longer than two years. */
export const API_KEY_LIFETIME_DAYS = { default: 365, max: 730 } as const;

const apiKeyLifetime = z
  .number({ error: 'Expires in: a number of days' })
  .int('Expires in: a whole number of days')
  .min(1, 'Expires in: at least 1 day')
  .max(API_KEY_LIFETIME_DAYS.max, `Expires in: at most ${API_KEY_LIFETIME_DAYS.max} days`);

/** An API key as listed: never its token. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(apiKeyScopeSchema),
  /** The token's first characters, so a key can be told apart from another without the secret. */
  prefix: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
  /** When the key stops working (epoch ms; decision 0990); null only for a key made before keys expired. */
  expiresAt: z.number().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer to a create: the key plus its access token, the only time the token is ever sent. */
export const apiKeyCreatedSchema = apiKeySchema.extend({ accessToken: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

/** `expiresInDays`: the key works that many days from now (default 365). */
export const apiKeyCreateRequestSchema = z.object({
  name: apiKeyName,
  scopes: apiKeyScopes,
  expiresInDays: apiKeyLifetime.optional(),
});
/** `expiresInDays` renews the key: it then works that many days from now, with the same token. */
export const apiKeyUpdateRequestSchema = z
  .object({
    name: apiKeyName.optional(),
    scopes: apiKeyScopes.optional(),
    expiresInDays: apiKeyLifetime.optional(),
  })
  .refine(
    (v) => v.name !== undefined || v.scopes !== undefined || v.expiresInDays !== undefined,
    'Nothing to change',
  );
export type ApiKeyCreateRequest = z.input<typeof apiKeyCreateRequestSchema>;
export type ApiKeyUpdateRequest = z.input<typeof apiKeyUpdateRequestSchema>;
