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

/** reports-admin §5: at least 8 characters, a digit, an uppercase and a lowercase letter. */
export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < 8) problems.push('Password must be at least 8 characters.');
  if (!/\d/.test(password)) problems.push('Password must contain a digit.');
  if (!/[A-Z]/.test(password)) problems.push('Password must contain an uppercase letter.');
  if (!/[a-z]/.test(password)) problems.push('Password must contain a lowercase letter.');
  return problems;
}
