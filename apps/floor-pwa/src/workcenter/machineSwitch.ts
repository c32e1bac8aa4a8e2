import { replaceSegment, withSearchParam } from '@takt/ui';

// live-operations §2 "Machine switch overlay": switching replaces the machine id in the current URL, wherever
// the route keeps it (first segment of /:machineId and /:machineId/:dashboardType, third of
// /dashboards/machine/{id}/{view}); the rest of the path and the query stay, so TV mode and the dashboard type
// survive. From a page without a machine in its path (/switch-machines) the switch opens the workcenter.

/** Key of the chosen machine group in local storage (live-operations §2: "a workcenter machineGroup key"). */
export const MACHINE_GROUP_STORAGE_KEY = 'workcenter.machineGroup';

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};
const segmentsOf = (pathname: string) => pathname.split('/').filter(Boolean).map(decode);

export function switchMachineHref(
  pathname: string,
  search: string,
  currentId: string | null,
  nextId: string,
) {
  const at = currentId == null ? -1 : segmentsOf(pathname).indexOf(currentId);
  if (at >= 0) return replaceSegment(pathname, at, nextId) + search;
  // No machine in the path: the workcenter of the chosen one, without the page's own machineId parameter.
  return `/${encodeURIComponent(nextId)}${withSearchParam(search, 'machineId', null)}`;
}

export function readStoredGroup(storage: Pick<Storage, 'getItem'> | null): string | null {
  try {
    return storage?.getItem(MACHINE_GROUP_STORAGE_KEY) || null;
  } catch {
    return null; // storage blocked (private mode, kiosk policy): the filter just isn't remembered
  }
}

export function storeGroup(storage: Pick<Storage, 'setItem' | 'removeItem'> | null, group: string | null) {
  try {
    if (group) storage?.setItem(MACHINE_GROUP_STORAGE_KEY, group);
    else storage?.removeItem(MACHINE_GROUP_STORAGE_KEY);
  } catch {
    // see readStoredGroup
  }
}

/** window.localStorage, or null where reading it throws (blocked storage). */
export function localStore(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
