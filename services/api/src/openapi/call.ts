import type { z } from 'zod';
import type { ApiKeyScope } from '@takt/domain';

// One documented call of the API (decisions 0841, 1045): its method and path, who may make it, and the zod
// schemas its route validates with. The tables live per feature area beside this file; document.ts turns
// them into the OpenAPI document.

export type Method = 'get' | 'post' | 'put' | 'delete';

/**
 * Who may make a call:
 * - a list of API-key scopes: a logged-in user (as the role rules allow) or an API key with one of them;
 * - 'any': every caller, any key included (GET /api/me);
 * - 'session': logged-in users only (`who` says which), never an API key;
 * - 'public': no login (the call carries its own proof, if any: see `security`).
 */
export type Access = readonly ApiKeyScope[] | 'any' | 'session' | 'public';

export interface DocumentedCall {
  method: Method;
  /** OpenAPI form: `{id}` for a path parameter. */
  path: string;
  summary: string;
  access: Access;
  /** Roles or product tier the call needs beyond its access, for the reader ("admins", "root users", …). */
  who?: string;
  /** Longer text (markdown). */
  description?: string;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body may be left out entirely (it then reads as `{}`). */
  optionalBody?: boolean;
  response?: z.ZodType;
  /** The success status when not 200. */
  status?: 201 | 202 | 204 | 101;
  /** Answers that are not JSON (CSV, HTML, JavaScript, …): content type of the success answer. */
  produces?: string;
  /** Path parameters that take only some values. */
  pathEnums?: Record<string, readonly string[]>;
  /** Security requirements other than the session and API-key ones `access` implies. */
  security?: Array<Record<string, string[]>>;
}

/** The scopes (decision 0840, 1047), short. */
export const R = ['reports:read'] as const satisfies readonly ApiKeyScope[];
export const W = ['operations:write'] as const satisfies readonly ApiKeyScope[];
export const J = ['jobs:write'] as const satisfies readonly ApiKeyScope[];
