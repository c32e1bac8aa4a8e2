import { describe, expect, it } from 'vitest';
import { matchPath, replaceSegment, withSearchParam } from './route-match';

describe('matchPath', () => {
  it.each([
    ['/', '/', {}],
    ['/dashboards/live/:type', '/dashboards/live/downtime', { type: 'downtime' }],
    ['/dashboards/live/:type', '/dashboards/live/downtime/', { type: 'downtime' }],
    ['/:machineId', '/m%201', { machineId: 'm 1' }],
    ['/:machineId/:dashboardType', '/abc/opdash', { machineId: 'abc', dashboardType: 'opdash' }],
    ['/:machineId', '/a/b', null],
    ['/app/machines', '/app', null],
    ['/:machineId', '/%E0%A4%A', null],
  ])('%s ~ %s', (pattern, path, expected) => {
    expect(matchPath(pattern, path)).toEqual(expected);
  });
});

describe('replaceSegment', () => {
  it.each([
    ['/m1', 0, 'm2', '/m2'],
    ['/m1/opdash', 0, 'm 2', '/m%202/opdash'],
    ['/dashboards/machine/m1/view', 2, 'm9', '/dashboards/machine/m9/view'],
    ['/m1', 3, 'x', '/m1'],
  ] as const)('%s [%d] = %s', (path, index, value, expected) => {
    expect(replaceSegment(path, index, value)).toBe(expected);
  });
});

describe('withSearchParam', () => {
  it.each([
    ['', 'group', 'g1', '?group=g1'],
    ['?group=g1&tv=1', 'group', null, '?tv=1'],
    ['?group=g1', 'group', '', ''],
    ['?tv=1', 'group', 'a b', '?tv=1&group=a+b'],
  ] as const)('%s + %s=%s', (search, key, value, expected) => {
    expect(withSearchParam(search, key, value)).toBe(expected);
  });
});
