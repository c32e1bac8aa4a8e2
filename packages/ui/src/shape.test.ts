import { describe, expect, it } from 'vitest';
import { checkLogin, parseDashboardResponse, parseMe, ShapeError } from './shape';
import { machine } from './test-builders';

const me = (over: Record<string, unknown> = {}) => ({
  id: 'u1',
  email: 'ada@takt.example',
  displayName: 'Ada',
  role: 'admin',
  isRoot: false,
  isAdmin: true,
  isOperator: false,
  permissions: ['FullProduct'],
  company: { id: 'c1', name: 'Demo', timezone: 'Europe/Berlin', locale: 'de-DE', product_tier: 'full' },
  ...over,
});

describe('parseMe (the fields of the domain meSchema)', () => {
  it('keeps the known fields and drops others', () => {
    expect(parseMe({ ...me(), extra: 1 })).toEqual(me());
  });
  it.each([
    ['role', { role: 'boss' }],
    ['isAdmin', { isAdmin: 'yes' }],
    ['permissions[1]', { permissions: ['FullProduct', 3] }],
    ['company.product_tier', { company: { ...me().company, product_tier: 'gold' } }],
    ['company', { company: null }],
  ])('names %s when it is wrong', (path, over) => {
    expect(() => parseMe(me(over))).toThrow(new ShapeError(path));
  });
  it('refuses a non-object', () => {
    expect(() => parseMe(null)).toThrow(ShapeError);
  });
  it("keeps a TV's board (decision 1041)", () => {
    expect(parseMe({ ...me(), board: '/dashboards/live/oee?tv=1' }).board).toBe('/dashboards/live/oee?tv=1');
    expect(() => parseMe({ ...me(), board: 3 })).toThrow(new ShapeError('board'));
  });
});

describe('parseDashboardResponse', () => {
  it('keeps fields the API adds to a machine (loose), not to the answer', () => {
    const res = parseDashboardResponse({
      machines: [machine({ utilization: 80 })],
      groups: [],
      now: 9,
      x: 1,
    });
    expect(res).toEqual({ machines: [machine({ utilization: 80 })], groups: [], now: 9 });
  });
  it.each([
    ['machines[0].status', { status: 'RUNNING' }],
    ['machines[0].statusSince', { statusSince: '1' }],
    ['machines[0].connection', { connection: 'UP' }],
  ])('names %s when it is wrong', (path, over) => {
    expect(() => parseDashboardResponse({ machines: [machine(over)], groups: [], now: 1 })).toThrow(
      new ShapeError(path),
    );
  });
});

describe('checkLogin (the rules and texts of loginRequestSchema)', () => {
  it.each([
    [{ email: ' ada@takt.example ', password: 'x' }, {}, { email: 'ada@takt.example', password: 'x' }],
    [
      { email: '', password: '' },
      { email: 'Missing required field: Email', password: 'Missing required field: Password' },
      undefined,
    ],
    [{ email: 'ada', password: 'x' }, { email: 'Enter a valid e-mail address' }, undefined],
    [{ email: 'ada@takt', password: 'x' }, { email: 'Enter a valid e-mail address' }, undefined],
  ])('%j', (values, errors, data) => {
    expect(checkLogin(values)).toEqual(data ? { data, errors } : { errors });
  });
});
