import { DASHBOARD_TYPES } from '../dashboard';
import type { DashboardType } from '../dashboard';

// TVs on the wall (issue 28 point 3, decision 1041). A TV is registered like a tablet (live-operations §2: a code
// an admin types) and its Tablet.dashboardView (§3, default `opdash`: the workcenter view) names the live board it
// shows. A device whose view is a board is a *board device*: view only, its company only.

/** The operator tablet's view (live-operations §3 Tablet.dashboardView default): the workcenter. */
export const WORKCENTER_VIEW = 'opdash';

/** The views a registered device may have: the workcenter, or one of the live boards. */
export const DEVICE_VIEWS = [WORKCENTER_VIEW, ...DASHBOARD_TYPES] as const;

/** True when a device's dashboardView names a live board (the device is a TV). */
export const isBoardView = (view: string | null | undefined): view is DashboardType =>
  (DASHBOARD_TYPES as readonly string[]).includes(view ?? '');

/**
 * Where a board device opens, in TV mode (live-operations §2 routes): the live board of all machines, or, for a
 * device bound to one machine, that machine's dashboard (`?tablet=1&switcher=false`). Null for an operator
 * tablet (its view is the workcenter).
 */
export function boardPathOf(device: { machine_id: string | null; dashboardView: string }): string | null {
  const view = device.dashboardView;
  if (!isBoardView(view)) return null;
  return device.machine_id
    ? `/dashboards/machine/${encodeURIComponent(device.machine_id)}/${view}?tablet=1&switcher=false&tv=1`
    : `/dashboards/live/${view}?tv=1`;
}
