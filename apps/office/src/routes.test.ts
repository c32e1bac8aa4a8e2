import { describe, expect, it } from 'vitest';
import { resolveOfficeRoute } from './routes';

describe('resolveOfficeRoute', () => {
  it.each([
    ['/app', 'machines'],
    ['/app/', 'machines'],
    ['/app/machines', 'machines'],
    ['/app/machines/m1/standard-timeline', 'notFound'],
    ['/reports', 'notFound'],
    ['/machine/m1/downtime', 'notFound'],
  ])('%s → %s', (path, name) => {
    expect(resolveOfficeRoute(path).name).toBe(name);
  });
});
