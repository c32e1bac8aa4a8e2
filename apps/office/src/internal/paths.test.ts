import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { INTERNAL_PATHS, INTERNAL_SCREENS, isInternalPath, isRootUser } from './paths';

// reports-admin §2 "Internal screens", §6 root only.

describe('internal paths', () => {
  const routes = [{ path: INTERNAL_PATHS.index }, ...INTERNAL_SCREENS.map((s) => ({ path: s.path }))];
  it.each([
    ['/app/internal', '/app/internal'],
    ['/app/internal/companies', '/app/internal/companies'],
    ['/app/internal/machines', '/app/internal/machines'],
    ['/app/internal/gateways', '/app/internal/gateways'],
    ['/app/internal/adapters', '/app/internal/adapters'],
    ['/app/internal/system', '/app/internal/system'],
  ])('%s opens %s', (path, route) => {
    expect(matchRoutes(routes, path)?.[0]?.route.path).toBe(route);
  });

  it('marks the navigation entry and admits root users only', () => {
    expect(isInternalPath('/app/internal/')).toBe(true);
    expect(isInternalPath('/app/internals')).toBe(false);
    expect(isInternalPath('/app/admin')).toBe(false);
    expect(isRootUser({ isRoot: true })).toBe(true);
    expect(isRootUser({ isRoot: false })).toBe(false);
  });
});
