import { describe, expect, it } from 'vitest';
import {
  checkExport,
  defaultDraft,
  EXPORT_TEXTS,
  exportEarliest,
  fromLocalInput,
  inputBounds,
  serverErrors,
  toLocalInput,
} from './export-form';

const TZ = 'America/Chicago';
/** 2026-11-25 08:00 in Chicago (UTC−6). */
const NOW = Date.UTC(2026, 10, 25, 14, 0);

describe('datetime-local values in the company zone', () => {
  it('reads and writes wall times of the zone', () => {
    expect(fromLocalInput('2026-11-25T08:00', TZ)).toBe(NOW);
    expect(toLocalInput(NOW, TZ)).toBe('2026-11-25T08:00');
    expect(toLocalInput(NOW + 59_000, TZ)).toBe('2026-11-25T08:00');
    // Summer time: UTC−5.
    expect(fromLocalInput('2026-07-01T00:30', TZ)).toBe(Date.UTC(2026, 6, 1, 5, 30));
  });
  it.each(['', '2026-11-25', '2026-02-30T10:00', '2026-11-25T24:00', 'yesterday'])(
    '%s is no date',
    (text) => {
      expect(fromLocalInput(text, TZ)).toBeNull();
    },
  );
});

describe('checkExport (reports-admin §5)', () => {
  const check = (start: string, end: string, keys: string[] = []) =>
    checkExport({ start, end, keys }, 'm1', TZ, NOW);

  it('accepts a range in the last two years, up to now, with the chosen fields', () => {
    expect(check('2026-11-24T08:00', '2026-11-25T08:00', ['Sload'])).toEqual({
      errors: {},
      request: { machineId: 'm1', start: NOW - 86_400_000, end: NOW, filterKeys: ['Sload'] },
    });
  });
  it.each([
    ['start after end', '2026-11-25T07:00', '2026-11-25T06:00', { end: EXPORT_TEXTS.startBeforeEnd }],
    ['start equal to end', '2026-11-25T07:00', '2026-11-25T07:00', { end: EXPORT_TEXTS.startBeforeEnd }],
    ['start over two years back', '2024-11-25T07:59', '2026-11-25T07:00', { start: EXPORT_TEXTS.tooOld }],
    ['end in the future', '2026-11-25T07:00', '2026-11-25T09:00', { end: EXPORT_TEXTS.future }],
    ['no start', '', '2026-11-25T07:00', { start: 'Enter a start date and time.' }],
    ['no end', '2026-11-25T07:00', '', { end: 'Enter an end date and time.' }],
    ['a broken date', '2026-13-01T07:00', '2026-11-25T07:00', { start: 'Enter a valid date and time.' }],
  ])('%s', (_, start, end, errors) => {
    const r = check(start, end);
    expect(r.errors).toEqual(errors);
    expect(r.request).toBeNull();
  });
  it('takes exactly two years back, and the current minute as now (sent as now)', () => {
    expect(check('2024-11-25T08:00', '2026-11-25T08:00').errors).toEqual({});
    const r = checkExport(
      { start: '2026-11-25T07:00', end: '2026-11-25T08:00', keys: [] },
      'm1',
      TZ,
      NOW - 30_000,
    );
    expect(r.request?.end).toBe(NOW - 30_000);
  });
  it('uses the spec texts', () => {
    expect(EXPORT_TEXTS.startBeforeEnd).toBe('Start Date must be before End Date');
    expect(EXPORT_TEXTS.queued).toBe("We'll send that to you within an hour.");
  });
});

describe('form defaults and bounds', () => {
  it('starts with the last 24 hours and every field', () => {
    expect(defaultDraft(NOW, TZ)).toEqual({ start: '2026-11-24T08:00', end: '2026-11-25T08:00', keys: [] });
  });
  it('bounds the inputs by two years back and now', () => {
    expect(exportEarliest(NOW)).toBe(Date.UTC(2024, 10, 25, 14, 0));
    expect(inputBounds(NOW, TZ)).toEqual({ min: '2024-11-25T08:00', max: '2026-11-25T08:00' });
  });
});

describe('serverErrors', () => {
  it("puts the 400 answer's problems on their fields", () => {
    expect(
      serverErrors([
        { field: 'start', code: 'out_of_range', message: EXPORT_TEXTS.tooOld },
        { field: 'machineId', code: 'x', message: 'Machine not found.' },
        { code: 'y' },
      ]),
    ).toEqual({ errors: { start: EXPORT_TEXTS.tooOld }, other: ['Machine not found.'] });
    expect(serverErrors(undefined)).toEqual({ errors: {}, other: [] });
  });
});
