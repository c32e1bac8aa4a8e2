import { describe, expect, it } from 'vitest';
import {
  readTabletDevice,
  remoteIdentifierOf,
  TABLET_DEVICE_KEY,
  tabletDeviceOf,
  tabletModeOf,
  writeTabletDevice,
} from './device';

const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
};

describe('the registered tablet on this device', () => {
  it('reads the activation answer and keeps it', () => {
    const device = tabletDeviceOf({ id: 't-1', machine_id: 'm-4', dashboardView: 'opdash' });
    expect(device).toEqual({ tabletId: 't-1', machineId: 'm-4', remoteIdentifier: null });
    const s = memory();
    writeTabletDevice(s, device!);
    expect(s.m.has(TABLET_DEVICE_KEY)).toBe(true);
    expect(readTabletDevice(s)).toEqual(device);
  });

  it.each([null, undefined, {}, { id: '' }, 'x'])('is no tablet for %j', (raw) => {
    expect(tabletDeviceOf(raw)).toBeNull();
  });

  it('ignores a damaged stored value', () => {
    const s = memory();
    s.setItem(TABLET_DEVICE_KEY, '{oops');
    expect(readTabletDevice(s)).toBeNull();
    expect(readTabletDevice(null)).toBeNull();
  });

  it('names the device by its remote identifier, else its id', () => {
    expect(remoteIdentifierOf({ tabletId: 't-1', machineId: null, remoteIdentifier: 'Cell 4' })).toBe(
      'Cell 4',
    );
    expect(remoteIdentifierOf({ tabletId: 't-1', machineId: null, remoteIdentifier: null })).toBe('t-1');
    expect(remoteIdentifierOf(null)).toBeNull();
  });
  it('prefers the name the tablet record has now when the session is this tablet', () => {
    const device = { tabletId: 't-1', machineId: null, remoteIdentifier: 'Cell 4' };
    expect(remoteIdentifierOf(device, { id: 'tablet:t-1', displayName: 'Cell 4 (left)' })).toBe(
      'Cell 4 (left)',
    );
    // An admin signed in on the tablet is not the tablet.
    expect(remoteIdentifierOf(device, { id: 'u-1', displayName: 'Ana Admin' })).toBe('Cell 4');
  });
});

describe('tablet mode (live-operations §2, §6: hides Dashboard and TV Mode; switcher=false when bound)', () => {
  const bound = { tabletId: 't', machineId: 'm-1', remoteIdentifier: null };
  const free = { tabletId: 't', machineId: null, remoteIdentifier: null };
  it.each([
    ['', null, { tablet: false, switcher: true, bound: false }],
    ['tablet=1', null, { tablet: true, switcher: true, bound: false }],
    ['tablet=1&switcher=false', null, { tablet: true, switcher: false, bound: false }],
    ['', free, { tablet: true, switcher: true, bound: false }],
    ['', bound, { tablet: true, switcher: true, bound: true }],
  ] as const)('?%s with %j', (q, device, expected) => {
    expect(tabletModeOf(new URLSearchParams(q), device)).toEqual(expected);
  });
});
