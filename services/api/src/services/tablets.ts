import type { CompanyScope, Executor } from '@takt/db';
import { ApiError, notAuthenticated, notFound } from '../http/errors';
import { enforceRate, giveBackHit, rateLimit } from '../http/rate-limit';
import type { LiveBus } from '../live/bus';
import { pushToTablets } from '../live/tablet-auth';
import { getMachine } from '../repositories/machines';
import {
  activateTablet,
  associateTablet,
  deleteRevokedTablets,
  deleteTablet,
  findPendingByCode,
  getTablet,
  listTablets,
  revokeTablet,
  updateTablet,
} from '../repositories/tablets';
import type { Tablet } from '../repositories/tablets';

// live-operations §2 "Operator runs (admin) and tablets", §3 Tablet, §7 Tablets, §8 tablet texts: the
// admin's tablet calls (company scoped; another company's tablet is 404) and the device's activation.

export const TABLET_TEXTS = {
  codeInvalid: 'The code is invalid or has expired.',
  tooManyWrongCodes: 'Too many codes that match no tablet. Try again in a few minutes.',
  refreshOne: (label: string) => `Unable to refresh tablet ${label}`,
  restartOne: (label: string) => `Unable to restart application on tablet ${label}`,
  refreshAllFailed: 'Unable to refresh one or more tablets',
  refreshAllOk: 'Refreshing All Tablets',
};

/**
 * Codes an admin's company may type that match no waiting tablet (decision 0992): a code is 6 of 31 characters,
 * so guessing another plant's code takes millions of tries; this keeps it so. A code that works is given back.
 */
export const WRONG_CODES = rateLimit('tablet-associate', 20, 10 * 60_000);

const label = (t: Tablet) => t.remote_identifier || t.serial_number || t.id;

async function machineExists(scope: CompanyScope, id: string): Promise<void> {
  if (!(await getMachine(scope, id))) throw notFound('Machine');
}

export async function tabletOr404(scope: CompanyScope, id: string): Promise<Tablet> {
  const t = await getTablet(scope, id);
  if (!t) throw notFound('Tablet');
  return t;
}

export const companyTablets = (scope: CompanyScope): Promise<Tablet[]> => listTablets(scope);

/**
 * Claims the pending tablet showing `code` for the company (and a machine) and tells it so; `notified` is
 * false when its socket was not reached. Mutates the tablet's row.
 */
export async function associateByCode(
  scope: CompanyScope,
  deps: { db: Executor; bus: LiveBus; now: number; userId: string },
  input: { code: string; machineId: string | null; remoteIdentifier: string | null; dashboardView?: string },
): Promise<Tablet & { notified: boolean }> {
  if (input.machineId) await machineExists(scope, input.machineId);
  // Counted before the lookup, so a guess over the limit learns nothing; given back when the code works.
  await enforceRate(
    deps.db,
    WRONG_CODES,
    scope.companyId,
    deps.now,
    'TOO_MANY_REQUESTS',
    TABLET_TEXTS.tooManyWrongCodes,
  );
  const pending = await findPendingByCode(deps.db, input.code, deps.now);
  if (!pending) throw new ApiError(404, 'CODE_NOT_FOUND', TABLET_TEXTS.codeInvalid);
  await giveBackHit(deps.db, WRONG_CODES, scope.companyId);
  const claimed = await associateTablet(deps.db, pending.id, {
    companyId: scope.companyId,
    machineId: input.machineId,
    remoteIdentifier: input.remoteIdentifier,
    userId: deps.userId,
  });
  if (!claimed) throw new ApiError(404, 'CODE_NOT_FOUND', TABLET_TEXTS.codeInvalid);
  // A TV is registered like a tablet, its board chosen with the code (decision 1041).
  if (input.dashboardView) await updateTablet(scope, pending.id, { dashboardView: input.dashboardView });
  // The tablet's socket may be held by another API process: the bus reaches it there.
  const { notPushed } = await pushToTablets(deps.bus, scope.companyId, [pending.id], 'associated');
  const tablet = await tabletOr404(scope, pending.id);
  return { ...tablet, notified: notPushed.length === 0 };
}

/** Asks every active tablet of the company to reload. */
export async function refreshAllTablets(scope: CompanyScope, bus: LiveBus) {
  const tablets = (await listTablets(scope)).filter((t) => t.state === 'active');
  const result = await pushToTablets(
    bus,
    scope.companyId,
    tablets.map((t) => t.id),
    'refresh',
  );
  return {
    ...result,
    message: result.notPushed.length ? TABLET_TEXTS.refreshAllFailed : TABLET_TEXTS.refreshAllOk,
  };
}

/**
 * Changes a tablet's label, machine or view; answers the tablet as stored. An active device whose view changed is
 * asked to reload (not awaited: the answer does not wait for its acknowledgement), so a TV shows its new board
 * at once (decision 1041).
 */
export async function changeTablet(
  scope: CompanyScope,
  id: string,
  patch: {
    remote_identifier?: string | null | undefined;
    machine_id?: string | null | undefined;
    dashboardView?: string | undefined;
  },
  bus?: LiveBus,
): Promise<Tablet> {
  const before = await tabletOr404(scope, id);
  if (patch.machine_id) await machineExists(scope, patch.machine_id);
  await updateTablet(scope, id, patch);
  const after = await tabletOr404(scope, id);
  if (bus && after.state === 'active' && after.dashboardView !== before.dashboardView)
    void pushToTablets(bus, scope.companyId, [id], 'refresh').catch(() => undefined);
  return after;
}

export async function removeTablet(scope: CompanyScope, id: string): Promise<void> {
  if (!(await deleteTablet(scope, id))) throw notFound('Tablet');
}

/** Revokes a tablet (its token answers 401 from now on); answers the tablet as stored. */
export async function revokeTabletById(scope: CompanyScope, id: string): Promise<Tablet> {
  if (!(await revokeTablet(scope, id))) throw notFound('Tablet');
  return tabletOr404(scope, id);
}

/** Asks one tablet to reload or restart; 409 with §8's text when its socket was not reached. */
export async function pushTabletAction(
  scope: CompanyScope,
  bus: LiveBus,
  id: string,
  action: 'refresh' | 'restart',
) {
  const tablet = await tabletOr404(scope, id);
  const result = await pushToTablets(bus, scope.companyId, [tablet.id], action);
  if (result.notPushed.length) {
    const text = action === 'refresh' ? TABLET_TEXTS.refreshOne : TABLET_TEXTS.restartOne;
    throw new ApiError(409, 'TABLET_UNREACHABLE', text(label(tablet)));
  }
  return result;
}

/** reports-admin §7 "purge tablets (returns purgedTabletCount)": the company's revoked tablets go (decision 0890). */
export async function purgeTablets(scope: CompanyScope): Promise<{ purgedTabletCount: number }> {
  return { purgedTabletCount: await deleteRevokedTablets(scope) };
}

/** The device's own call: its registration token activates it; 401 for an unknown or unclaimed token. */
export async function activateDevice(
  db: Executor,
  token: string | null,
  now: number,
): Promise<{ tablet: Tablet; token: string }> {
  if (!token) throw notAuthenticated();
  const tablet = await activateTablet(db, token, now);
  if (!tablet) throw notAuthenticated();
  return { tablet, token };
}
