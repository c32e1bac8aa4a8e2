import { describe, expect, it } from 'vitest';
import { dashboardPath, isTvMode, resolveFloorRoute, workcenterPath } from './routes';

describe('resolveFloorRoute', () => {
  it.each([
    ['/', { name: 'home' }],
    ['/dashboards/live/utilization', { name: 'dashboard', type: 'utilization' }],
    ['/dashboards/live/downtime/', { name: 'dashboard', type: 'downtime' }],
    ['/dashboards/live/cycles', { name: 'dashboard', type: 'cycles' }],
    ['/dashboards/live/bogus', { name: 'notFound' }],
    ['/dashboards/machine/m-7/oee', { name: 'machineDashboard', machineId: 'm-7', type: 'oee' }],
    ['/dashboards/machine/m-7/cycles', { name: 'notFound' }],
    // A tablet's dashboardView opdash (the default) opens the workcenter.
    ['/dashboards/machine/m-7/opdash', { name: 'workcenter', machineId: 'm-7', dashboardType: null }],
    ['/machine/m-7/home/partCount', { name: 'partCount', machineId: 'm-7' }],
    ['/machine/m-7/home', { name: 'notFound' }],
    ['/m-42', { name: 'workcenter', machineId: 'm-42', dashboardType: null }],
    ['/m-42/opdash', { name: 'workcenter', machineId: 'm-42', dashboardType: 'opdash' }],
    ['/machine-1', { name: 'workcenter', machineId: 'machine-1', dashboardType: null }],
    ['/switch-machines', { name: 'switchMachines' }],
    ['/authorize/operator', { name: 'authorizeOperator' }],
    ['/authorize/other', { name: 'notFound' }],
    ['/tablet', { name: 'notFound' }],
    ['/tablet/register', { name: 'tabletRegister' }],
    ['/a/b/c', { name: 'notFound' }],
  ])('%s', (path, expected) => {
    expect(resolveFloorRoute(path)).toEqual(expected);
  });
});

describe('paths', () => {
  it('builds dashboard and workcenter paths', () => {
    expect(dashboardPath('oee')).toBe('/dashboards/live/oee');
    expect(dashboardPath('downtime', 'g 1')).toBe('/dashboards/live/downtime?group=g%201');
    expect(workcenterPath('a/b')).toBe('/a%2Fb');
  });

  it('reads TV mode', () => {
    expect(isTvMode(new URLSearchParams('tv=1'))).toBe(true);
    expect(isTvMode(new URLSearchParams('tv=0'))).toBe(false);
  });
});
