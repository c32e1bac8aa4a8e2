import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { machineUtilizationHref, navSection, OFFICE_ROUTES, reportsFor } from './routes';

const pageOf = (path: string) => matchRoutes([...OFFICE_ROUTES], path)?.[0]?.route.id ?? 'notFound';

describe('office routes', () => {
  it.each([
    ['/app', 'machines'],
    ['/app/', 'machines'],
    ['/app/machines', 'machines'],
    ['/app/reports', 'reports'],
    ['/reports/downtime', 'reports'],
    ['/dashboard/utilization', 'utilization'],
    ['/dashboard/oee', 'oee'],
    ['/dashboard/utilizationdeprecated', 'utilizationDeprecated'],
    ['/machines/m1/cycles', 'cycles'],
    ['/app/machines/m1/standard-timeline', 'standardTimeline'],
    ['/reports', 'notFound'],
    ['/dashboard/downtime', 'downtime'],
    ['/machine/m1/downtime', 'downtime'],
    ['/machine/m1/quality', 'machineQuality'],
    ['/machines/m1/quality', 'machineQuality'],
    ['/app/machines/m1/part-corrections', 'partCorrections'],
    ['/dashboard/quality', 'quality'],
    ['/machine/m1/cycles', 'cycles'],
    ['/machine/m1/overrides', 'overrides'],
    ['/machine/m1/parts', 'parts'],
    ['/dashboard/parts', 'parts'],
    ['/machine/m1/utilization', 'machineUtilization'],
    ['/reports/cycles', 'notFound'],
    ['/machine/m1/timeline', 'timeline'],
    ['/machine/m1/diagnostics', 'machineDiagnostics'],
    ['/machine/m1/conditions', 'machineConditions'],
    ['/machine/m1/export', 'machineExport'],
    ['/reports/operationreport', 'jobs'],
    ['/dashboard/jobreport', 'jobReport'],
    ['/reports/machineoperationreport', 'machineJob'],
    ['/reports/production-runs', 'productionRuns'],
    ['/app/production/production-runs/r1/edit', 'productionRunEdit'],
    ['/app/production/production-runs/r1', 'notFound'],
    ['/app/production/schedule', 'schedule'],
    ['/app/jobs', 'jobsAdmin'],
    ['/app/jobs/j1', 'jobEdit'],
  ])('%s → %s', (path, id) => {
    expect(pageOf(path)).toBe(id);
  });

  it('puts report pages and both report indexes under Reports in the navigation', () => {
    expect(navSection('/app/reports')).toBe('reports');
    expect(navSection('/app/admin')).toBe('admin');
    expect(navSection('/app/admin/shifts')).toBe('admin');
    expect(navSection('/app/internal')).toBe('internal');
    expect(navSection('/app/internal/companies')).toBe('internal');
    expect(navSection('/app/internal/adapters')).toBe('internal');
    expect(navSection('/app/accounts/api-keys')).toBe('accounts');
    expect(navSection('/app/accounts/users')).toBe('users');
    expect(navSection('/app/accounts/invites')).toBe('users');
    expect(navSection('/app/profile')).toBe('profile');
    expect(navSection('/app/jobs')).toBe('jobs');
    expect(navSection('/app/jobs/j1')).toBe('jobs');
    expect(navSection('/dashboard/utilizationdeprecated')).toBe('reports');
    expect(navSection('/machines/m1/cycles')).toBe('reports');
    expect(navSection('/machines/m1/quality')).toBe('reports');
    expect(navSection('/reports/downtime')).toBe('reports');
    expect(navSection('/dashboard/utilization')).toBe('reports');
    expect(navSection('/dashboard/oee')).toBe('reports');
    expect(navSection('/dashboard/downtime')).toBe('reports');
    expect(navSection('/machine/m1/downtime')).toBe('reports');
    expect(navSection('/dashboard/quality')).toBe('reports');
    expect(navSection('/machine/m1/cycles')).toBe('reports');
    expect(navSection('/machine/m1/timeline')).toBe('reports');
    expect(navSection('/machine/m1/quality')).toBe('reports');
    expect(navSection('/app/machines/m1/part-corrections')).toBe('reports');
    expect(navSection('/app/machines/m1/standard-timeline')).toBe('reports');
    expect(navSection('/machine/m1/overrides')).toBe('reports');
    expect(navSection('/machine/m1/parts')).toBe('reports');
    expect(navSection('/dashboard/parts')).toBe('reports');
    expect(navSection('/machine/m1/utilization')).toBe('reports');
    expect(navSection('/reports/operationreport')).toBe('reports');
    expect(navSection('/dashboard/jobreport')).toBe('reports');
    expect(navSection('/reports/machineoperationreport')).toBe('reports');
    expect(navSection('/reports/production-runs')).toBe('reports');
    expect(navSection('/app/production/production-runs/r1/edit')).toBe('reports');
    expect(navSection('/app/production/schedule')).toBe('reports');
    expect(navSection('/app/')).toBe('machines');
    // The machine pages of decision 0810 open from the Machines page.
    expect(navSection('/machine/m1/diagnostics')).toBe('machines');
    expect(navSection('/machine/m1/export')).toBe('machines');
    expect(navSection('/nope')).toBeNull();
  });
});

describe('reportsFor (reports-admin §6)', () => {
  it.each([
    [
      ['PerformanceDashboard', 'Utilization', 'FullProduct'],
      ['oee', 'utilization', 'downtime', 'quality', 'parts', 'jobs', 'productionRuns'],
    ],
    [
      ['PerformanceDashboard', 'Utilization'],
      ['utilization', 'downtime', 'quality'],
    ],
    [[], []],
  ])('permissions %j → %j', (permissions, ids) => {
    expect(reportsFor({ permissions }).map((r) => r.id)).toEqual(ids);
  });
});

describe('machineUtilizationHref (reports-admin §2 /machine/{id}/utilization)', () => {
  it('opens the Utilization report drilled into the machine, keeping the dates and dropping a group', () => {
    expect(machineUtilizationHref('m1', '?interval=week&start=1&end=2&group=g1')).toBe(
      '/dashboard/utilization?interval=week&start=1&end=2&machine=m1',
    );
    expect(machineUtilizationHref('m 2', '')).toBe('/dashboard/utilization?machine=m+2');
  });
});
