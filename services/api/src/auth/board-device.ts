import { boardPathOf } from '@takt/domain';
import type { Caller } from '../http/context';

// A board device (a TV, decision 1041): a registered tablet whose dashboardView names a live board. Its device
// credential reads the live board's data and nothing else: the calls below, GET only, its own company (the
// caller's company scope, as for every caller). Everything else answers 403 before any route runs.

/** The calls the live boards make (apps/floor-pwa/src/dashboards, pages/LiveDashboardPage.tsx). */
export const BOARD_DEVICE_CALLS: ReadonlySet<string> = new Set([
  '/api/me',
  '/api/dashboard',
  '/api/dashboard/utilization',
  '/api/dashboard/parts',
  '/api/dashboard/status',
  '/api/dashboard/cycles',
]);

/** The board a caller shows when it is a board device, else null. */
export const boardOfCaller = (caller: Caller): string | null =>
  caller.kind === 'tablet' ? boardPathOf(caller.tablet) : null;

/** May a board device make this call? GET (and HEAD) of the board's data calls only. */
export const boardDeviceMayCall = (method: string, path: string): boolean =>
  (method === 'GET' || method === 'HEAD') && BOARD_DEVICE_CALLS.has(path.replace(/\/+$/, ''));
