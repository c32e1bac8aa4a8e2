import { describe, expect, it } from 'vitest';
import { appForPath } from './static';

// Which built app serves a page (ARCHITECTURE.md "Process model"; live-operations §2 and reports-admin §2 routes).
describe('appForPath', () => {
  it.each([
    ['/machine/m1/home/partCount', 'floor'],
    ['/machine/m%201/home/partCount', 'floor'],
    ['/m1', 'floor'],
    ['/dashboards/machine/m1/opdash', 'floor'],
    ['/machine/m1/cycles', 'office'],
    ['/machines/m1/cycles', 'office'],
    ['/machines/m1/quality', 'office'],
    ['/machine/m1/downtime', 'office'],
    ['/dashboard/utilizationdeprecated', 'office'],
    ['/app/machines', 'office'],
  ])('%s → %s', (path, app) => {
    expect(appForPath(path)).toBe(app);
  });
});
