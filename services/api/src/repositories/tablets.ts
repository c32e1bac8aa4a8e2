import { randomBytes, randomInt } from 'node:crypto';
import type { Selectable } from 'kysely';
import { hashToken } from '../auth/tokens';
import type { TabletsTable, CompanyScope, Executor } from '@takt/db';

// Tablets (live-operations §2, §3). Registration runs before any company is known, so the pending side
// (code issue, lookup by code or token) takes the bare database; everything an admin does goes through the
// company scope, so another company's tablet is simply not found.

export type TabletState = Selectable<TabletsTable>['state'];

export interface Tablet {
  id: string;
  companyId: string | null;
  serial_number: string;
  remote_identifier: string | null;
  machine_id: string | null;
  dashboardView: string;
  state: TabletState;
  associatedBy: string | null;
  lastSeenAt: number | null;
  createdAt: number;
}

export const toTablet = (r: Selectable<TabletsTable>): Tablet => ({
  id: r.id,
  companyId: r.company_id,
  serial_number: r.serial_number,
  remote_identifier: r.remote_identifier,
  machine_id: r.machine_id,
  dashboardView: r.dashboard_view,
  state: r.state,
  associatedBy: r.associated_by,
  lastSeenAt: r.last_seen_at == null ? null : Number(r.last_seen_at),
  createdAt: Number(r.created_at),
});

/** A registration code lives this long; the tablet asks for a new one when it expires. */
export const CODE_TTL_MS = 5 * 60_000;
// No 0/O, 1/I/L: the code is read off a tablet across a workshop and typed in by hand.
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 6;

const newCode = () =>
  Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

/** A device token: `ttb_` + 43 base64url characters (256 bits); only its sha256 is stored. */
export const newTabletToken = () => 'ttb_' + randomBytes(32).toString('base64url');

export const normalizeCode = (code: string) => code.trim().toUpperCase().replace(/[\s-]/g, '');

/** A code not shown by another live pending registration (31^6 codes: a retry is rare). */
async function freshCode(db: Executor, now: number): Promise<string> {
  let code = newCode();
  for (let i = 0; i < 5 && (await findPendingByCode(db, code, now)); i++) code = newCode();
  return code;
}

/**
 * A new pending registration for `serialNumber` with its own code (decision 0992): every call makes its own
 * row, never reuses another's by serial number, so whoever shows a code is the only one its association can
 * reach (issue 26 finding 6: a second device asking with the same serial got the first one's code and
 * token). The tablet-auth socket keeps the row's id to itself; "Use this device" associates it at once.
 */
export async function requestCode(
  db: Executor,
  serialNumber: string,
  now: number,
): Promise<{ tablet: Tablet; code: string; expiresAt: number }> {
  const code = await freshCode(db, now);
  const expiresAt = now + CODE_TTL_MS;
  const id = crypto.randomUUID();
  await db
    .insertInto('tablets')
    .values({
      id,
      company_id: null,
      serial_number: serialNumber,
      code,
      code_expires_at: expiresAt,
      created_at: now,
    })
    .execute();
  const row = await db.selectFrom('tablets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { tablet: toTablet(row), code, expiresAt };
}

/**
 * The code of the pending registration `id`: kept while it is valid, a new one (new expiry) once expired;
 * undefined when the row is no longer pending (claimed, or cleared as stale). Mutates the row's code.
 */
export async function renewCode(
  db: Executor,
  id: string,
  now: number,
): Promise<{ tablet: Tablet; code: string; expiresAt: number } | undefined> {
  const pending = await db
    .selectFrom('tablets')
    .selectAll()
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where('company_id', 'is', null)
    .executeTakeFirst();
  if (!pending) return undefined;
  if (pending.code && pending.code_expires_at != null && Number(pending.code_expires_at) > now) {
    return { tablet: toTablet(pending), code: pending.code, expiresAt: Number(pending.code_expires_at) };
  }
  const code = await freshCode(db, now);
  const expiresAt = now + CODE_TTL_MS;
  const r = await db
    .updateTable('tablets')
    .set({ code, code_expires_at: expiresAt })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where('company_id', 'is', null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return undefined;
  return { tablet: { ...toTablet(pending) }, code, expiresAt };
}

/** Forgets a pending registration nobody claimed (its socket closed). Mutates tablets. */
export async function deletePendingTablet(db: Executor, id: string): Promise<void> {
  await db
    .deleteFrom('tablets')
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where('company_id', 'is', null)
    .execute();
}

/** Pending registrations whose code is still valid, on every API process (the global bound, decision 0992). */
export async function countLivePending(db: Executor, now: number): Promise<number> {
  const row = await db
    .selectFrom('tablets')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('state', '=', 'pending')
    .where('company_id', 'is', null)
    .where('code_expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Drops pending registrations whose code expired before `before` (their socket is gone: a live socket renews
 * its code as it expires). Answers how many went. Mutates tablets.
 */
export async function deleteStalePending(db: Executor, before: number): Promise<number> {
  const r = await db
    .deleteFrom('tablets')
    .where('state', '=', 'pending')
    .where('company_id', 'is', null)
    .where((eb) => eb.or([eb('code_expires_at', '<', before), eb('code_expires_at', 'is', null)]))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The pending tablet showing `code`, if the code has not expired. */
export async function findPendingByCode(
  db: Executor,
  code: string,
  now: number,
): Promise<Tablet | undefined> {
  const row = await db
    .selectFrom('tablets')
    .selectAll()
    .where('code', '=', normalizeCode(code))
    .where('state', '=', 'pending')
    .where('code_expires_at', '>', now)
    .executeTakeFirst();
  return row && toTablet(row);
}

/** Claim a pending tablet for a company; false when someone else claimed it first. */
export async function associateTablet(
  db: Executor,
  id: string,
  input: { companyId: string; machineId: string | null; remoteIdentifier: string | null; userId: string },
): Promise<boolean> {
  const r = await db
    .updateTable('tablets')
    .set({
      company_id: input.companyId,
      machine_id: input.machineId,
      remote_identifier: input.remoteIdentifier,
      associated_by: input.userId,
      state: 'associated',
      code: null,
      code_expires_at: null,
    })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where('company_id', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The device token of a just-associated tablet, made once: null when it was issued already. */
export async function issueTabletToken(db: Executor, id: string): Promise<string | null> {
  const token = newTabletToken();
  const r = await db
    .updateTable('tablets')
    .set({ token_hash: hashToken(token) })
    .where('id', '=', id)
    .where('state', '=', 'associated')
    .where('token_hash', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1 ? token : null;
}

export async function findTabletByToken(db: Executor, token: string): Promise<Tablet | undefined> {
  const row = await db
    .selectFrom('tablets')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  return row && toTablet(row);
}

/** The registered tablet's first (or repeated) activation; undefined for an unknown or revoked token. */
export async function activateTablet(db: Executor, token: string, now: number): Promise<Tablet | undefined> {
  await db
    .updateTable('tablets')
    .set({ state: 'active', last_seen_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('state', 'in', ['associated', 'active'])
    .where('company_id', 'is not', null)
    .execute();
  const tablet = await findTabletByToken(db, token);
  return tablet?.state === 'active' ? tablet : undefined;
}

export async function touchTablet(db: Executor, id: string, now: number): Promise<void> {
  await db.updateTable('tablets').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function listTablets(scope: CompanyScope): Promise<Tablet[]> {
  const rows = await scope.selectFrom('tablets').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(toTablet);
}

export async function getTablet(scope: CompanyScope, id: string): Promise<Tablet | undefined> {
  const row = await scope.selectFrom('tablets').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toTablet(row);
}

export async function updateTablet(
  scope: CompanyScope,
  id: string,
  patch: { remote_identifier?: string | null; machine_id?: string | null; dashboardView?: string },
): Promise<void> {
  const set: Partial<{
    remote_identifier: string | null;
    machine_id: string | null;
    dashboard_view: string;
  }> = {};
  if (patch.remote_identifier !== undefined) set.remote_identifier = patch.remote_identifier;
  if (patch.machine_id !== undefined) set.machine_id = patch.machine_id;
  if (patch.dashboardView !== undefined) set.dashboard_view = patch.dashboardView;
  if (Object.keys(set).length) await scope.updateTable('tablets').set(set).where('id', '=', id).execute();
}

export async function deleteTablet(scope: CompanyScope, id: string): Promise<boolean> {
  const r = await scope.deleteFrom('tablets').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** Revoke access: the token stops working at once (401), the row stays listed as revoked. */
export async function revokeTablet(scope: CompanyScope, id: string): Promise<boolean> {
  const r = await scope
    .updateTable('tablets')
    .set({ state: 'revoked' })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Purge: deletes the company's revoked tablets (decision 0890), the rows a revoke leaves listed. Answers how
 * many went. Mutates the tablets table.
 */
export async function deleteRevokedTablets(scope: CompanyScope): Promise<number> {
  const r = await scope.deleteFrom('tablets').where('state', '=', 'revoked').executeTakeFirst();
  return Number(r.numDeletedRows);
}
