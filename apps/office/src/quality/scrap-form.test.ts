import { describe, expect, it } from 'vitest';
import { ApiError } from '@takt/ui';
import {
  adjustmentHref,
  draftOf,
  endOfToday,
  isDirty,
  newDraft,
  parseWallInput,
  readPrefill,
  reasonsFor,
  saveFailure,
  scrapBody,
  scrapFormView,
  scrapSummary,
  signedCount,
  wallInput,
  withoutPrefill,
} from './scrap-form';
import type { Adjustment, Reason, ScrapDraft, ScrapFormContext } from './scrap-form';

// reports-admin §4 scrap form, §5 scrap rules, §8 save failure; live-operations §5 reject rules.

const TZ = 'America/Chicago';
/** 2025-11-22 08:30:15 CST (UTC−6). */
const NOW = Date.UTC(2025, 10, 22, 14, 30, 15);

const aReason = (over: Partial<Reason> = {}): Reason => ({
  id: 'r-scrap',
  name: 'Burr',
  company_id: 'c1',
  color: '#aa0000',
  scrap: true,
  reject_behavior: 'scrap',
  hidden: false,
  ...over,
});
const SCRAP = aReason();
const NONCONFORM = aReason({ id: 'r-nc', name: 'Scratch', reject_behavior: 'nonconform' });
const OPERATOR = aReason({ id: 'r-op', name: 'Judgement', reject_behavior: 'operator' });
const RECOUNT = aReason({ id: 'r-recount', name: 'Recount', scrap: false });
const ARCHIVED = aReason({ id: 'r-old', name: 'Old', hidden: true });
const REASONS = [SCRAP, NONCONFORM, OPERATOR, RECOUNT, ARCHIVED];

const ctx = (over: Partial<ScrapFormContext> = {}): ScrapFormContext => ({
  kind: 'reject',
  timezone: TZ,
  reasons: REASONS,
  manual: false,
  hideRemoveFlag: false,
  now: NOW,
  ...over,
});
const draft = (over: Partial<ScrapDraft> = {}): ScrapDraft => ({
  ...newDraft('reject', TZ, NOW),
  reasonId: SCRAP.id,
  ...over,
});
const anAdjustment = (over: Partial<Adjustment> = {}): Adjustment => ({
  id: 'a1',
  adjustmenttime: NOW - 3_600_000,
  machine_id: 'm1',
  machine_name: 'Lathe',
  category_id: OPERATOR.id,
  partadjustmentType: { name: 'Judgement', color: '#aa0000' },
  scrapcount: 3,
  count: 0,
  message: 'burr',
  scrap: true,
  jobName: 'Flange',
  deductFromGoodParts: true,
  reject_behavior: 'nonconform',
  ...over,
});

describe('company wall time in the form', () => {
  it.each([
    [NOW, '2025-11-22T08:30:15'],
    // DST ends 2025-11-02 02:00 CDT: 01:30 happens twice; the earlier (CDT) instant shows as 01:30.
    [Date.UTC(2025, 10, 2, 6, 30), '2025-11-02T01:30'],
  ])('shows %i as %s and reads it back', (t, text) => {
    expect(wallInput(TZ, t)).toBe(text);
    expect(parseWallInput(TZ, text)).toBe(t);
  });
  it.each(['', 'yesterday', '2025-13-01T08:00', '2025-11-22T24:00', '2025-02-30T08:00'])(
    'refuses %j',
    (text) => expect(parseWallInput(TZ, text)).toBeNull(),
  );
  it('reads minutes without seconds', () => {
    expect(parseWallInput(TZ, '2025-11-22T08:30')).toBe(Date.UTC(2025, 10, 22, 14, 30));
  });
  it('caps at the end of the company day (reports-admin §5)', () => {
    expect(endOfToday(TZ, NOW)).toBe(Date.UTC(2025, 10, 23, 6));
  });
});

describe('scrapFormView: the rules as the user types', () => {
  it.each([
    ['1', undefined],
    ['25', undefined],
    ['0', 'Count must be at least 1'],
    ['-2', 'Count must be at least 1'],
    ['1.5', 'Count must be at least 1'],
    ['', 'Count must be at least 1'],
    ['abc', 'Count must be at least 1'],
  ])('reject count %j → %s (count min 1)', (count, error) => {
    expect(scrapFormView(draft({ count }), ctx()).errors.count).toBe(error);
  });
  it.each([
    ['3', undefined],
    ['-2', undefined],
    ['0', 'Count must be a whole number other than 0.'],
    ['', 'Count must be a whole number other than 0.'],
  ])('correction count %j → %s', (count, error) => {
    expect(scrapFormView(draft({ count }), ctx({ kind: 'correction' })).errors.count).toBe(error);
  });
  it('needs a reason for a reject, not for a correction', () => {
    expect(scrapFormView(draft({ reasonId: '' }), ctx()).errors.reason).toBe('Choose a reason.');
    expect(scrapFormView(draft({ reasonId: '' }), ctx({ kind: 'correction' })).valid).toBe(true);
  });
  it('refuses a time after the end of today and an unreadable time', () => {
    expect(scrapFormView(draft({ time: '2025-11-23T00:00:00' }), ctx()).errors.time).toBe(
      'The time cannot be after the end of today.',
    );
    expect(scrapFormView(draft({ time: '2025-11-22T23:59:59' }), ctx()).errors.time).toBeUndefined();
    expect(scrapFormView(draft({ time: '' }), ctx()).errors.time).toBe('Enter a valid date and time.');
  });
  it('limits the message to 250 characters', () => {
    expect(scrapFormView(draft({ message: 'x'.repeat(250) }), ctx()).valid).toBe(true);
    expect(scrapFormView(draft({ message: 'x'.repeat(251) }), ctx()).errors.message).toBe(
      'At most 250 characters',
    );
  });
  it.each([
    ['r-scrap', false, 'scrap'],
    ['r-nc', false, 'nonconform'],
    ['r-op', true, 'nonconform'],
    ['', false, null],
  ] as const)(
    'reason %s: type editable %s, stored as %s (editable only for reject_behavior operator)',
    (reasonId, editable, behavior) => {
      const v = scrapFormView(draft({ reasonId, behavior: 'nonconform' }), ctx());
      expect([v.typeEditable, v.behavior]).toEqual([editable, behavior]);
    },
  );
  it('an operator reason without a choice rejects as scrap', () => {
    expect(scrapFormView(draft({ reasonId: OPERATOR.id, behavior: null }), ctx()).behavior).toBe('scrap');
  });
  it.each([
    [{}, true],
    [{ hideRemoveFlag: true }, false],
    [{ manual: true }, false],
    [{ kind: 'correction' as const }, false],
  ])('"Remove from good parts" shown with %j: %s', (over, shown) => {
    expect(scrapFormView(draft(), ctx(over)).showRemoveFromGood).toBe(shown);
  });
});

describe('scrapBody: what the API gets (reports-admin §5)', () => {
  it('sends count 0 when removed from good parts', () => {
    expect(scrapBody(draft({ count: '3', message: 'burr' }), ctx())).toEqual({
      adjustmenttime: NOW,
      category_id: SCRAP.id,
      scrapcount: 3,
      count: 0,
      message: 'burr',
      scrap: true,
      deductFromGoodParts: true,
    });
  });
  it('sends the scrap count as count when not removed from good parts', () => {
    expect(scrapBody(draft({ count: '3', removeFromGoodParts: false }), ctx())).toMatchObject({
      scrapcount: 3,
      count: 3,
      deductFromGoodParts: false,
    });
  });
  it('manual work centers skip the checkbox: count 0 whatever it said', () => {
    expect(scrapBody(draft({ count: '3', removeFromGoodParts: false }), ctx({ manual: true }))).toMatchObject(
      { scrapcount: 3, count: 0, deductFromGoodParts: true },
    );
  });
  it('a hidden checkbox removes from good parts', () => {
    expect(
      scrapBody(draft({ count: '2', removeFromGoodParts: false }), ctx({ hideRemoveFlag: true })),
    ).toMatchObject({ count: 0, deductFromGoodParts: true });
  });
  it('sends the type only when the reason lets the user choose it', () => {
    expect(scrapBody(draft({ reasonId: OPERATOR.id, behavior: 'nonconform' }), ctx())).toMatchObject({
      reject_behavior: 'nonconform',
    });
    expect(scrapBody(draft({ reasonId: SCRAP.id, behavior: 'nonconform' }), ctx())).not.toHaveProperty(
      'reject_behavior',
    );
  });
  it('sends a correction as a signed count, no scrap, an optional reason, an empty message as null', () => {
    expect(
      scrapBody(draft({ count: '-2', reasonId: '', message: '  ' }), ctx({ kind: 'correction' })),
    ).toEqual({ adjustmenttime: NOW, category_id: null, count: -2, message: null, scrap: false });
  });
});

describe('drafts, dirtiness and reasons', () => {
  it('prefills from a cycle: its time and its parts (reports-admin §2 adjustmenttime and qty)', () => {
    expect(newDraft('reject', TZ, NOW, 2)).toMatchObject({ time: '2025-11-22T08:30:15', count: '2' });
    expect(newDraft('reject', TZ, NOW, 0).count).toBe('1');
    expect(newDraft('correction', TZ, NOW, -1).count).toBe('-1');
  });
  it('edits a stored reject with its own fields', () => {
    expect(draftOf(anAdjustment(), TZ)).toEqual({
      time: '2025-11-22T07:30:15',
      count: '3',
      reasonId: OPERATOR.id,
      behavior: 'nonconform',
      message: 'burr',
      removeFromGoodParts: true,
    });
    expect(draftOf(anAdjustment({ scrap: false, scrapcount: 0, count: -4 }), TZ).count).toBe('-4');
  });
  it('is dirty once any field differs from what the form opened with (reports-admin §4)', () => {
    const initial = draft();
    expect(isDirty({ ...initial }, initial)).toBe(false);
    expect(isDirty({ ...initial, message: 'x' }, initial)).toBe(true);
    expect(isDirty({ ...initial, removeFromGoodParts: false }, initial)).toBe(true);
  });
  it('offers scrap reasons for rejects, every reason for corrections, archived only when already chosen', () => {
    expect(reasonsFor('reject', REASONS, null).map((r) => r.id)).toEqual(['r-scrap', 'r-nc', 'r-op']);
    expect(reasonsFor('correction', REASONS, null).map((r) => r.id)).toEqual([
      'r-scrap',
      'r-nc',
      'r-op',
      'r-recount',
    ]);
    expect(reasonsFor('reject', REASONS, 'r-old').map((r) => r.id)).toContain('r-old');
  });
});

describe('saveFailure: the server list or single message in the form (reports-admin §8)', () => {
  it('lists the problems under the heading', () => {
    const err = new ApiError(400, 'VALIDATION', 'Parts could not be rejected.', [
      { field: 'scrapcount', code: 'too_small', message: 'Count must be at least 1' },
      { field: 'category_id', code: 'required', message: 'Select a reject reason.' },
    ]);
    expect(saveFailure(err, 'reject')).toEqual({
      message: 'Parts could not be rejected.',
      items: ['Count must be at least 1', 'Select a reject reason.'],
    });
  });
  it('shows a single message when there is no list', () => {
    expect(saveFailure(new ApiError(404, 'NOT_FOUND', 'Part adjustment not found'), 'reject')).toEqual({
      message: 'Part adjustment not found',
      items: [],
    });
    expect(saveFailure('boom', 'correction')).toEqual({
      message: 'Part adjustment could not be saved.',
      items: [],
    });
  });
});

describe('URLs', () => {
  it('reads and clears the prefill', () => {
    const q = new URLSearchParams('start=1&end=2&adjustmenttime=1700000000000&qty=2');
    expect(readPrefill(q)).toEqual({ adjustmenttime: 1_700_000_000_000, qty: 2 });
    expect(withoutPrefill(q).toString()).toBe('start=1&end=2');
    expect(readPrefill(new URLSearchParams('adjustmenttime=soon'))).toBeNull();
    expect(readPrefill(new URLSearchParams('adjustmenttime=5&qty=x'))).toEqual({
      adjustmenttime: 5,
      qty: null,
    });
  });
  it('links a cycle to the prefilled reject and correction forms', () => {
    expect(adjustmentHref('reject', 'm 1', { adjustmenttime: 5, qty: 1, start: 0, end: 10 })).toBe(
      '/machine/m%201/quality?start=0&end=10&adjustmenttime=5&qty=1',
    );
    expect(adjustmentHref('correction', 'm1', { adjustmenttime: 5, qty: 1 })).toBe(
      '/app/machines/m1/part-corrections?adjustmenttime=5&qty=1',
    );
  });
});

describe('the grid', () => {
  it('sums rejects by type and corrections by signed count', () => {
    const rows = [
      anAdjustment({ scrapcount: 3, reject_behavior: 'scrap' }),
      anAdjustment({ id: 'a2', scrapcount: 2, reject_behavior: 'nonconform' }),
    ];
    expect(scrapSummary(rows, 'reject')).toEqual({ entries: 2, parts: 5, scrap: 3, nonconform: 2 });
    expect(scrapSummary([anAdjustment({ count: 4 }), anAdjustment({ count: -1 })], 'correction').parts).toBe(
      3,
    );
    expect([signedCount(3), signedCount(-2), signedCount(0)]).toEqual(['+3', '−2', '0']);
  });
});
