import type { CompanyScope, Executor, InvitesTable } from '@takt/db';

// Invites and password links (reports-admin §2; decision 0880). SQL only; tokens arrive hashed.

export interface InviteRecord {
  id: string;
  companyId: string;
  email: string;
  role: InvitesTable['role'];
  invitedBy: string | null;
  createdAt: number;
  sentAt: number;
  expiresAt: number;
  /** The brand shown instead of Takt (decision 1117); null: Takt. */
  brandOverride: string | null;
}

const toInvite = (r: InvitesTable): InviteRecord => ({
  id: r.id,
  companyId: r.company_id,
  email: r.email,
  role: r.role,
  invitedBy: r.invited_by,
  createdAt: r.created_at,
  sentAt: r.sent_at,
  expiresAt: r.expires_at,
  brandOverride: r.brand_override ?? null,
});

/** The company's open invites, newest first; `invitedBy` is the inviter's name when they still exist. */
export async function listInvites(scope: CompanyScope): Promise<InviteRecord[]> {
  const rows = await scope
    .selectFrom('invites')
    .leftJoin('users', 'users.id', 'invites.invited_by')
    .selectAll('invites')
    .select('users.display_name as inviter')
    .orderBy('invites.created_at', 'desc')
    .orderBy('invites.email')
    .execute();
  return rows.map((r) => ({ ...toInvite(r), invitedBy: r.inviter ?? null }));
}

export async function getInvite(scope: CompanyScope, id: string): Promise<InviteRecord | undefined> {
  const row = await scope.selectFrom('invites').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toInvite(row);
}

export async function findInviteByEmail(
  scope: CompanyScope,
  email: string,
): Promise<InviteRecord | undefined> {
  const row = await scope.selectFrom('invites').selectAll().where('email', '=', email).executeTakeFirst();
  return row && toInvite(row);
}

export async function insertInvite(
  scope: CompanyScope,
  input: Omit<InviteRecord, 'companyId'> & { tokenHash: string },
): Promise<void> {
  await scope
    .insertInto('invites', {
      id: input.id,
      email: input.email,
      role: input.role,
      token_hash: input.tokenHash,
      invited_by: input.invitedBy,
      created_at: input.createdAt,
      sent_at: input.sentAt,
      expires_at: input.expiresAt,
      brand_override: input.brandOverride,
    })
    .execute();
}

/** A new link for an invite (resend): the old link stops working. */
export async function renewInvite(
  scope: CompanyScope,
  id: string,
  change: { tokenHash: string; sentAt: number; expiresAt: number },
): Promise<boolean> {
  const result = await scope
    .updateTable('invites')
    .set({ token_hash: change.tokenHash, sent_at: change.sentAt, expires_at: change.expiresAt })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteInvite(scope: CompanyScope, id: string): Promise<boolean> {
  const result = await scope.deleteFrom('invites').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The open invite of a link token, of any company (the link is all the visitor has). */
export async function findInviteByToken(db: Executor, tokenHash: string): Promise<InviteRecord | undefined> {
  const row = await db
    .selectFrom('invites')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && toInvite(row);
}

export interface PasswordLinkRecord {
  tokenHash: string;
  companyId: string;
  userId: string;
  expiresAt: number;
  usedAt: number | null;
}

export async function insertPasswordLink(
  scope: CompanyScope,
  input: { tokenHash: string; userId: string; createdAt: number; expiresAt: number },
): Promise<void> {
  await scope
    .insertInto('password_resets', {
      token_hash: input.tokenHash,
      user_id: input.userId,
      created_at: input.createdAt,
      expires_at: input.expiresAt,
      used_at: null,
    })
    .execute();
}

/** A password link of a token, of any company (the link is all the visitor has). */
export async function findPasswordLink(
  db: Executor,
  tokenHash: string,
): Promise<PasswordLinkRecord | undefined> {
  const row = await db
    .selectFrom('password_resets')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return (
    row && {
      tokenHash: row.token_hash,
      companyId: row.company_id,
      userId: row.user_id,
      expiresAt: row.expires_at,
      usedAt: row.used_at,
    }
  );
}

/**
 * Spend every unused link of a user (mutates): the one just used, and any older one still in a mailbox.
 * Answers whether `tokenHash` itself was still unused, so two tabs using one link cannot both succeed.
 */
export async function spendPasswordLinks(
  scope: CompanyScope,
  userId: string,
  tokenHash: string,
  now: number,
): Promise<boolean> {
  const own = await scope
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  await scope
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
  return Number(own.numUpdatedRows) > 0;
}

export async function getShiftNotifications(
  scope: CompanyScope,
  userId: string,
): Promise<{ notify: boolean; shifts: string[] } | undefined> {
  const row = await scope
    .selectFrom('shift_notifications')
    .select(['notify', 'shift_ids'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row && { notify: row.notify === 1, shifts: JSON.parse(row.shift_ids) as string[] };
}

export async function saveShiftNotifications(
  scope: CompanyScope,
  userId: string,
  value: { notify: boolean; shifts: string[] },
  now: number,
): Promise<void> {
  await scope.deleteFrom('shift_notifications').where('user_id', '=', userId).execute();
  await scope
    .insertInto('shift_notifications', {
      user_id: userId,
      notify: value.notify ? 1 : 0,
      shift_ids: JSON.stringify(value.shifts),
      updated_at: now,
    })
    .execute();
}
