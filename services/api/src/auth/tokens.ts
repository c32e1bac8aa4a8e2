import { createHash, randomBytes } from 'node:crypto';

// Gateway tokens (ARCHITECTURE.md "Callers": gateways authenticate by gateway token). The token is made
// once, shown once at creation (or reset) and only its sha256 is stored, like sessions: a copy of the
// database does not yield working tokens. 32 random bytes make guessing and hash collisions hopeless, so a
// plain lookup by hash is enough (no per-token salt, no timing-safe compare of secrets in memory).

const GATEWAY_TOKEN_PREFIX = 'tgw_';

/** A new gateway token: `tgw_` + 43 base64url characters (256 bits). */
export function newGatewayToken(): string {
  return GATEWAY_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** What is stored and looked up: sha256 of the token, hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The token of an `Authorization: Bearer <token>` header; null when missing or malformed, so the caller
 * answers 401 without touching the database for obvious junk.
 */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S{1,512})\s*$/i.exec(header);
  return m?.[1] ?? null;
}

/** A token that could be one of ours (cheap pre-check before hashing). */
export function looksLikeGatewayToken(token: string): boolean {
  return token.startsWith(GATEWAY_TOKEN_PREFIX) && token.length === GATEWAY_TOKEN_PREFIX.length + 43;
}
