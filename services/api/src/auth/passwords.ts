import { hash, verify } from '@node-rs/argon2';

// argon2id with the library defaults (OWASP-recommended memory and time cost).
export const hashPassword = (password: string): Promise<string> => hash(password);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * An argon2id hash of a random string nobody knows, made with the same library defaults as real hashes, so
 * checking a password against it costs what checking a real one costs (decision 0988).
 */
const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$npr1gcZgQlnwGrEJtohDTQ$GfC12v2oE1RxXv9FCD1K4Quc1hDyaRVB5EZJI125K+o';

/**
 * Checks a login's password with the same work whether or not the account exists (decision 0988): an unknown
 * e-mail, or a user without a usable password hash, is checked against DUMMY_HASH and fails, so the answer's
 * time does not tell who has an account. `counted` is called once per argon2 check (the metrics counter).
 */
export async function checkLoginPassword(
  passwordHash: string | undefined,
  password: string,
  counted?: () => void,
): Promise<boolean> {
  counted?.();
  const usable = passwordHash !== undefined && passwordHash.startsWith('$argon2');
  const ok = await verifyPassword(usable ? passwordHash : DUMMY_HASH, password);
  return usable && ok;
}

/** reports-admin §5: at least 8 characters, a digit, an uppercase and a lowercase letter. */
export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < 8) problems.push('Password must be at least 8 characters.');
  if (!/\d/.test(password)) problems.push('Password must contain a digit.');
  if (!/[A-Z]/.test(password)) problems.push('Password must contain an uppercase letter.');
  if (!/[a-z]/.test(password)) problems.push('Password must contain a lowercase letter.');
  return problems;
}
