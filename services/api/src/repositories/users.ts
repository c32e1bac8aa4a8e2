import type { CompanyScope, Executor, UsersTable } from '@takt/db';

export interface User {
  id: string;
  companyId: string;
  email: string;
  displayName: string;
  role: UsersTable['role'];
  isRoot: boolean;
  locked: boolean;
}

export const toUser = (r: UsersTable): User => ({
  id: r.id,
  companyId: r.company_id,
  email: r.email,
  displayName: r.display_name,
  role: r.role,
  isRoot: r.is_root === 1,
  locked: r.locked === 1,
});

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Login looks a user up by e-mail before any company is known: the one unscoped user query. */
export async function findUserForLogin(
  db: Executor,
  email: string,
): Promise<{ user: User; passwordHash: string } | undefined> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  return row && { user: toUser(row), passwordHash: row.password_hash };
}

export async function getUser(scope: CompanyScope, id: string): Promise<User | undefined> {
  const row = await scope.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toUser(row);
}

export async function createUser(
  scope: CompanyScope,
  input: { email: string; displayName: string; passwordHash: string; role: User['role']; isRoot?: boolean },
  now: number,
): Promise<User> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('users', {
      id,
      email: normalizeEmail(input.email),
      display_name: input.displayName,
      password_hash: input.passwordHash,
      role: input.role,
      is_root: input.isRoot ? 1 : 0,
      locked: 0,
      created_at: now,
    })
    .execute();
  const user = await getUser(scope, id);
  if (!user) throw new Error('user vanished after insert');
  return user;
}
