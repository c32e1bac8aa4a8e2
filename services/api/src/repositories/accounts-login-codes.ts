import type { CompanyScope } from '@takt/db';

// One-time sign-in codes (reports-admin §2 "Login: … code option"; migration 0022, decision 0935). SQL only;
// codes arrive hashed.

export interface LoginCodeRecord {
  userId: string;
  codeHash: string;
  createdAt: number;
  expiresAt: number;
}

/** The user's new code, replacing any open one (the older e-mail's code stops working). Mutates. */
export async function replaceLoginCode(scope: CompanyScope, code: LoginCodeRecord): Promise<void> {
  await scope.deleteFrom('login_codes').where('user_id', '=', code.userId).execute();
  await scope
    .insertInto('login_codes', {
      user_id: code.userId,
      code_hash: code.codeHash,
      created_at: code.createdAt,
      expires_at: code.expiresAt,
    })
    .execute();
}

/**
 * Spend the user's code if it is `codeHash` and still valid at `now`: true once, false for a wrong, used or
 * expired code. The delete is the check, so two sign-ins racing with one code cannot both win. Mutates.
 */
export async function spendLoginCode(
  scope: CompanyScope,
  userId: string,
  codeHash: string,
  now: number,
): Promise<boolean> {
  const r = await scope
    .deleteFrom('login_codes')
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}
