import { describe, expect, it } from 'vitest';
import { MACHINE_GROUP_STORAGE_KEY, readStoredGroup, storeGroup, switchMachineHref } from './machineSwitch';

describe('switchMachineHref (live-operations §2: the machine id swapped in the URL)', () => {
  it.each([
    ['/m-1', '', 'm-1', 'm-2', '/m-2'],
    ['/m-1/opdash', '?tv=1', 'm-1', 'm-2', '/m-2/opdash?tv=1'],
    // The machine dashboard keeps the id in the third path segment.
    ['/dashboards/machine/m-1/oee', '?tablet=1', 'm-1', 'm 2', '/dashboards/machine/m%202/oee?tablet=1'],
    ['/a%2Fb', '', 'a/b', 'c', '/c'],
    // /switch-machines has no machine in its path: the chosen machine's workcenter opens.
    ['/switch-machines', '?machineId=m-1&tv=1', 'm-1', 'm-3', '/m-3?tv=1'],
    ['/switch-machines', '', null, 'm-3', '/m-3'],
  ])('%s%s, %s → %s', (path, search, current, next, expected) => {
    expect(switchMachineHref(path, search, current, next)).toBe(expected);
  });
});

describe('the machine group filter in local storage', () => {
  const memory = () => {
    const m = new Map<string, string>();
    return {
      getItem: (k: string) => m.get(k) ?? null,
      setItem: (k: string, v: string) => void m.set(k, v),
      removeItem: (k: string) => void m.delete(k),
      map: m,
    };
  };

  it('keeps the chosen group under the workcenter machineGroup key, and forgets All Machines', () => {
    const s = memory();
    expect(readStoredGroup(s)).toBeNull();
    storeGroup(s, 'g-7');
    expect(s.map.get(MACHINE_GROUP_STORAGE_KEY)).toBe('g-7');
    expect(MACHINE_GROUP_STORAGE_KEY).toBe('workcenter.machineGroup');
    expect(readStoredGroup(s)).toBe('g-7');
    storeGroup(s, null);
    expect(readStoredGroup(s)).toBeNull();
  });

  it('survives blocked storage', () => {
    const blocked = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
      removeItem: () => {
        throw new Error('blocked');
      },
    };
    expect(readStoredGroup(blocked)).toBeNull();
    expect(() => storeGroup(blocked, 'g')).not.toThrow();
    expect(readStoredGroup(null)).toBeNull();
  });
});
