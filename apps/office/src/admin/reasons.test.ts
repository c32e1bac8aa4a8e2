import { describe, expect, it } from 'vitest';
import {
  msToMinutes,
  newReasonForm,
  plannedText,
  reasonBody,
  reasonErrors,
  reasonFormOf,
  rejectBody,
  rejectErrors,
  newRejectForm,
} from './reasons';

describe('downtime reason form', () => {
  it('starts unplanned, grey, with the 5-minute limit ready (reports-admin §3, §5)', () => {
    expect(newReasonForm()).toEqual({
      name: '',
      plannedBehavior: 'unplanned',
      limitMinutes: '5',
      color: '#828282',
    });
  });

  it('enters the limit in minutes and stores it in ms, only for plannedWithLimit', () => {
    const f = { ...newReasonForm(), name: ' Lunch ', plannedBehavior: 'plannedWithLimit' as const };
    expect(reasonBody({ ...f, limitMinutes: '7.5' })).toEqual({
      name: 'Lunch',
      plannedBehavior: 'plannedWithLimit',
      plannedLimitMs: 450_000,
      color: '#828282',
    });
    expect(reasonBody({ ...f, plannedBehavior: 'planned' }).plannedLimitMs).toBeNull();
  });

  it.each([
    [{ name: '' }, { name: 'Missing required field: Name' }],
    [{ name: 'a'.repeat(251) }, { name: 'At most 250 characters' }],
    [
      { plannedBehavior: 'plannedWithLimit', limitMinutes: '' },
      { limitMinutes: 'Enter the limit in minutes.' },
    ],
    [
      { plannedBehavior: 'plannedWithLimit', limitMinutes: '0' },
      { limitMinutes: 'The limit must be more than 0 minutes.' },
    ],
    [{ plannedBehavior: 'planned', limitMinutes: '' }, {}],
    [{ color: 'red' }, { color: 'Pick a colour.' }],
  ] as const)('errors of %o', (over, expected) => {
    expect(reasonErrors({ ...newReasonForm(), name: 'Lunch', ...over })).toEqual(expected);
  });

  it('shows a stored limit in minutes', () => {
    const stored = {
      id: 'r',
      companyId: 'c',
      name: 'Break',
      plannedBehavior: 'plannedWithLimit' as const,
      plannedLimitMs: 600_000,
      color: '#123456',
      hidden: false,
    };
    expect(reasonFormOf(stored).limitMinutes).toBe('10');
    expect(plannedText(stored)).toBe('Planned up to 10 min');
    expect(plannedText({ plannedBehavior: 'operator', plannedLimitMs: null })).toBe('Operator decides');
    expect(msToMinutes(12_345)).toBe(0.21);
  });
});

describe('reject reason form', () => {
  it('starts as scrap, offered when rejecting', () => {
    expect(rejectBody({ ...newRejectForm(), name: ' Burr ' })).toEqual({
      name: 'Burr',
      reject_behavior: 'scrap',
      scrap: true,
      color: '#828282',
    });
    expect(rejectErrors(newRejectForm())).toEqual({ name: 'Missing required field: Name' });
  });
});
