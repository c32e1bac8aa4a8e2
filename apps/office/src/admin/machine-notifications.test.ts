import { describe, expect, it } from 'vitest';
import type { MachineNotificationView } from '@takt/domain';
import {
  accountText,
  listWith,
  newNotificationForm,
  notificationErrors,
  notificationFormOf,
  summaryText,
} from './machine-notifications';

// reports-admin §3 Machine notification (delayMinutes default 10; level 2 Failure, otherwise Warning).

const n = (over: Partial<MachineNotificationView> = {}): MachineNotificationView => ({
  id: 'n1',
  accountId: 'u1',
  type: 'downtime',
  level: 1,
  delayMinutes: 10,
  ...over,
});

describe('the notification form', () => {
  it('starts as a downtime Warning after the default 10 minutes', () => {
    expect(newNotificationForm()).toEqual({ accountId: '', type: 'downtime', level: 'warning', delay: '10' });
  });

  it('reads any level but 2 as Warning', () => {
    expect(notificationFormOf(n({ level: 2 })).level).toBe('failure');
    expect(notificationFormOf(n({ level: 0 })).level).toBe('warning');
    expect(notificationFormOf(n({ level: 3 })).level).toBe('warning');
  });

  it.each([
    ['u2', '10', {}],
    ['', '10', { accountId: 'Missing required field: Account' }],
    ['u1', '10', { accountId: 'This account already has a downtime notification for this machine.' }],
    ['u2', '-1', { delay: 'The delay must be from 0 to 1440 minutes' }],
    ['u2', '2.5', { delay: 'The delay must be from 0 to 1440 minutes' }],
    ['u2', '1441', { delay: 'The delay must be from 0 to 1440 minutes' }],
    ['u2', '0', {}],
  ])('account %j, delay %j → %j', (accountId, delay, errors) => {
    expect(notificationErrors({ ...newNotificationForm(), accountId, delay }, [n()])).toEqual(errors);
  });
});

describe('the list to save', () => {
  const list = [n(), n({ id: 'n2', accountId: 'u2', type: 'utilization', level: 2, delayMinutes: 30 })];
  it('adds, replaces and removes one notification', () => {
    const form = { accountId: 'u3', type: 'utilization' as const, level: 'failure' as const, delay: ' 5 ' };
    expect(listWith(list, { index: null, form })).toHaveLength(3);
    expect(listWith(list, { index: null, form })[2]).toEqual({
      accountId: 'u3',
      type: 'utilization',
      level: 2,
      delayMinutes: 5,
    });
    expect(listWith(list, { index: 0, form }).map((x) => x.accountId)).toEqual(['u3', 'u2']);
    expect(listWith(list, { remove: 0 })).toEqual([
      { accountId: 'u2', type: 'utilization', level: 2, delayMinutes: 30 },
    ]);
  });
});

describe('texts', () => {
  it('names the account and sums a notification up', () => {
    const accounts = [
      { id: 'u1', displayName: 'Ana Diaz', email: 'ana@plant.example' },
      { id: 'u2', displayName: 'bo@plant.example', email: 'bo@plant.example' },
    ];
    expect(accountText(accounts, 'u1')).toBe('Ana Diaz (ana@plant.example)');
    expect(accountText(accounts, 'u2')).toBe('bo@plant.example');
    expect(accountText(accounts, 'u9')).toBe('Unknown account');
    expect(summaryText(n({ level: 2, delayMinutes: 15 }))).toBe('Downtime · Failure · after 15 min');
  });
});
