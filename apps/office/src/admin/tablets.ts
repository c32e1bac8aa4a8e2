import { DEVICE_VIEWS, isBoardView } from '@takt/domain';
import { t } from '@takt/ui';
import { missingField, setErrors } from './form';

// The Tablets screen (live-operations §2 "Tablet management: register, edit, delete, revoke access, refresh,
// restart, refresh all", §3 Tablet, §8 tablet texts; reports-admin §4 "Tablet actions: register, refresh,
// restart, revoke, purge", §7 "purge tablets (returns purgedTabletCount)", §8 "Tablet refresh", "Purge").
// Calls /api/tablets (decision 0890).

export type TabletState = 'pending' | 'associated' | 'active' | 'revoked';

/** A tablet as GET /api/tablets lists it. */
export interface AdminTablet {
  id: string;
  serial_number: string;
  remote_identifier: string | null;
  machine_id: string | null;
  dashboardView: string;
  state: TabletState;
  lastSeenAt: number | null;
  createdAt: number;
}

/** POST /api/tablets/refresh-all's answer. */
export interface RefreshAllResult {
  pushed: string[];
  notPushed: string[];
  message: string;
}

/** How the screen names a tablet: the admin's name for it, else its serial number, else its id (as the API does). */
export const tabletLabel = (tb: Pick<AdminTablet, 'remote_identifier' | 'serial_number' | 'id'>): string =>
  tb.remote_identifier || tb.serial_number || tb.id;

export const tabletStateText = (state: TabletState): string => t(`admin.tablets.state.${state}`);

/** Tablets in service first (by name), revoked ones after them. */
export function sortTablets(all: readonly AdminTablet[]): AdminTablet[] {
  const rank = (tb: AdminTablet) => (tb.state === 'revoked' ? 1 : 0);
  return [...all].sort(
    (a, b) => rank(a) - rank(b) || tabletLabel(a).localeCompare(tabletLabel(b)) || a.id.localeCompare(b.id),
  );
}

/** Purge deletes the revoked ones (decision 0890): how many it would take. */
export const revokedCount = (all: readonly AdminTablet[]): number =>
  all.filter((tb) => tb.state === 'revoked').length;

/** Refresh and restart reach a tablet that is in service (a revoked one has no socket to listen on). */
export const mayPush = (tb: Pick<AdminTablet, 'state'>): boolean => tb.state === 'active';

// ---------- Register and edit ----------

export interface TabletForm {
  code: string;
  remoteIdentifier: string;
  /** '' for any machine (not bound). */
  machineId: string;
  /** What the device shows (decision 1041): `opdash` (the workcenter, an operator tablet) or a live board (a TV). */
  view: string;
}

export const newTabletForm = (): TabletForm => ({
  code: '',
  remoteIdentifier: '',
  machineId: '',
  view: DEVICE_VIEWS[0],
});

export const tabletFormOf = (tb: AdminTablet): TabletForm => ({
  code: '',
  remoteIdentifier: tb.remote_identifier ?? '',
  machineId: tb.machine_id ?? '',
  view: tb.dashboardView,
});

/** The choices of "Shows": the workcenter, then each live board (a TV). */
export const viewChoices = (): Array<{ value: string; label: string }> =>
  DEVICE_VIEWS.map((v) => ({ value: v, label: viewText(v) }));

/** How the list says what a device shows. */
export const viewText = (view: string): string =>
  isBoardView(view)
    ? t('admin.tablets.view.board', { board: t(`dashboard.${view}`) })
    : t('admin.tablets.view.workcenter');

/** The code is read off the tablet: spaces, dashes and case do not matter (the API forgives them too). */
export const normalizeCode = (code: string): string => code.trim().toUpperCase().replace(/[\s-]/g, '');

/** `registering`: the code is asked for (a new tablet); an edit has none. */
export const tabletErrors = (f: TabletForm, registering: boolean) =>
  setErrors({
    code: registering && normalizeCode(f.code) === '' ? missingField(t('admin.tablets.code')) : null,
    remoteIdentifier: f.remoteIdentifier.trim().length > 200 ? t('admin.tooLong', { max: 200 }) : null,
  });

/** POST /api/tablets/associate's body. */
export const registerBody = (f: TabletForm) => ({
  code: normalizeCode(f.code),
  machineId: f.machineId === '' ? null : f.machineId,
  remote_identifier: f.remoteIdentifier.trim() || null,
  dashboardView: f.view,
});

/** PUT /api/tablets/{id}'s body. */
export const editBody = (f: TabletForm) => ({
  machine_id: f.machineId === '' ? null : f.machineId,
  remote_identifier: f.remoteIdentifier.trim() || null,
  dashboardView: f.view,
});

// ---------- Outcomes as the screen says them ----------

/**
 * live-operations §8: refresh all says "Refreshing All Tablets", or opens the dialog "Unable to refresh one or
 * more tablets" listing the ids of the tablets not pushed.
 */
export type RefreshAllOutcome = { kind: 'ok'; message: string } | { kind: 'notPushed'; ids: string[] };

export const refreshAllOutcome = (r: Pick<RefreshAllResult, 'notPushed'>): RefreshAllOutcome =>
  r.notPushed.length === 0
    ? { kind: 'ok', message: t('admin.tablets.refreshAllOk') }
    : { kind: 'notPushed', ids: [...r.notPushed] };

/** live-operations §8 "'Error: ' plus message on refresh-all failure"; reports-admin §8 purge "'Error: {message}'". */
export const errorText = (message: string): string => t('admin.tablets.error', { message });

/** reports-admin §8 "success '{count} tablets deleted'". */
export const purgedText = (purgedTabletCount: number): string =>
  t('admin.tablets.purged', { count: purgedTabletCount });

/**
 * live-operations §8 "Unable to refresh tablet ..." and "Unable to restart application on tablet ...": the
 * server's text when it sent one (it names the tablet as it knows it), else the same words here.
 */
export function pushFailedText(action: 'refresh' | 'restart', name: string, serverMessage: string | null) {
  if (serverMessage) return serverMessage;
  return t(action === 'refresh' ? 'admin.tablets.refreshOneFailed' : 'admin.tablets.restartOneFailed', {
    name,
  });
}
