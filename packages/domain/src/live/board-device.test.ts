import { describe, expect, it } from 'vitest';
import { boardPathOf, isBoardView } from './board-device';

describe('board devices (TVs, decision 1041)', () => {
  it.each([
    ['opdash', null, null],
    ['', null, null],
    ['utilization', null, '/dashboards/live/utilization?tv=1'],
    ['downtime', null, '/dashboards/live/downtime?tv=1'],
    ['oee', null, '/dashboards/live/oee?tv=1'],
    ['partsgoal', null, '/dashboards/live/partsgoal?tv=1'],
    ['oee', 'm 1', '/dashboards/machine/m%201/oee?tablet=1&switcher=false&tv=1'],
    ['opdash', 'm1', null],
  ])('view %j, machine %j opens %j', (dashboardView, machine_id, path) => {
    expect(boardPathOf({ dashboardView, machine_id })).toBe(path);
    expect(isBoardView(dashboardView)).toBe(path !== null);
  });
});
