// A registered tablet remembers what it is (live-operations §2 "Operator runs and tablets", §6): the device token
// itself is an httpOnly cookie the page cannot read, so the activation answer is kept in local storage. From it
// the workcenter knows it runs in tablet mode (no Dashboard, no TV Mode in the menu), hides the machine
// switcher when the tablet is bound to one machine, and the menu's Remote Identifier names the device.

export const TABLET_DEVICE_KEY = 'takt.tablet';

export interface TabletDevice {
  tabletId: string;
  machineId: string | null;
  /** The name an admin gave the tablet; null until the server sends it. */
  remoteIdentifier: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The `tablet` of POST /tablet/activate's answer, or null when it has no id. */
export function tabletDeviceOf(raw: unknown): TabletDevice | null {
  const t = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : null;
  const tabletId = str(t?.id);
  if (!t || !tabletId) return null;
  return {
    tabletId,
    machineId: str(t.machine_id),
    remoteIdentifier: str(t.remote_identifier) ?? str(t.remoteIdentifier),
  };
}

export function readTabletDevice(storage: Pick<Storage, 'getItem'> | null): TabletDevice | null {
  try {
    const raw = storage?.getItem(TABLET_DEVICE_KEY);
    if (!raw) return null;
    const d = JSON.parse(raw) as Record<string, unknown>;
    return tabletDeviceOf({ id: d.tabletId, machine_id: d.machineId, remote_identifier: d.remoteIdentifier });
  } catch {
    return null; // blocked storage or a damaged value: not a tablet
  }
}

export function writeTabletDevice(storage: Pick<Storage, 'setItem'> | null, device: TabletDevice): void {
  try {
    storage?.setItem(TABLET_DEVICE_KEY, JSON.stringify(device));
  } catch {
    // blocked storage: the tablet works, only without its tablet-mode menu
  }
}

export interface TabletMode {
  /** Tablet mode: the menu hides Dashboard and TV Mode (live-operations §2, §6). */
  tablet: boolean;
  /** The URL does not turn the machine switcher off (switcher=false). */
  switcher: boolean;
  /** A registered tablet bound to one machine (the company's enable_tablet_machine_switching decides). */
  bound: boolean;
}

/** Tablet mode from the URL (?tablet=1, ?switcher=false) and the registration kept on this device. */
export function tabletModeOf(query: URLSearchParams, device: TabletDevice | null): TabletMode {
  return {
    tablet: query.get('tablet') === '1' || device != null,
    switcher: query.get('switcher') !== 'false',
    bound: device?.machineId != null,
  };
}

/**
 * What the menu's Remote Identifier shows: the admin's name for the device. The tablet record is the source:
 * when the session is this tablet's own (decision 0500: user id `tablet:<id>`, display name = remote identifier,
 * else serial number) its current name, so a rename after activation shows; else the remote_identifier of the
 * activation answer; else the tablet id.
 */
export function remoteIdentifierOf(
  device: TabletDevice | null,
  me: { id: string; displayName: string } | null = null,
): string | null {
  if (!device) return null;
  if (me && me.id === `tablet:${device.tabletId}` && me.displayName) return me.displayName;
  return device.remoteIdentifier ?? device.tabletId;
}
