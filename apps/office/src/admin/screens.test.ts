import { describe, expect, it } from 'vitest';
import { adminScreensFor, isAdminPath, isAdminUser } from './screens';

const me = (isAdmin: boolean, permissions: string[], isRoot = false) => ({ isAdmin, isRoot, permissions });
const FULL = ['PerformanceDashboard', 'Utilization', 'FullProduct'];

describe('administration screens by role and tier (reports-admin §6)', () => {
  it('gives admins of the full product every screen', () => {
    expect(adminScreensFor(me(true, FULL)).map((s) => s.id)).toEqual([
      'machines',
      'machineGroups',
      'reasons',
      'rejectReasons',
      'setupStages',
      'settings',
      'shifts',
      'startOfDay',
      'operators',
      'operatorRuns',
      'tablets',
    ]);
  });

  it('leaves out what FullProduct gates for smaller tiers', () => {
    expect(adminScreensFor(me(true, ['PerformanceDashboard', 'Utilization'])).map((s) => s.id)).toEqual([
      'machines',
      'machineGroups',
      'settings',
      'shifts',
      'startOfDay',
      'tablets',
    ]);
  });

  it('gives managers nothing, root users what admins get', () => {
    expect(adminScreensFor(me(false, FULL))).toEqual([]);
    expect(isAdminUser(me(false, FULL, true))).toBe(true);
    expect(adminScreensFor(me(false, FULL, true))).toHaveLength(11);
  });

  it.each([
    ['/app/admin', true],
    ['/app/admin/', true],
    ['/app/admin/shifts', true],
    ['/app/administrator', false],
    ['/app/reports', false],
  ])('%s is an admin path: %s', (p, expected) => {
    expect(isAdminPath(p)).toBe(expected);
  });
});
