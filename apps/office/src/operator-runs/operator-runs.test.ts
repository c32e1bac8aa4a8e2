import { addTexts } from '@takt/ui';
import { officeTexts } from '@takt/ui/office-texts';
import { epochMs } from '@takt/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  correctionBody,
  correctionErrors,
  correctionFormOf,
  listQuery,
  readRunsFilter,
  runRows,
  writeRunsFilter,
} from './operator-runs';
import type { OperatorRun } from '@takt/domain';

// The operator runs screen's rules (decision 1091): its URL, the list call, the rows and the correction form.

beforeAll(() => addTexts(officeTexts));

const clock = { timezone: 'UTC' };
const now = epochMs(Date.UTC(2026, 10, 25, 12));
const HOUR = 3_600_000;
const run = (over: Partial<OperatorRun> = {}): OperatorRun => ({
  id: 'r1',
  machineId: 'm1',
  operatorId: 'o1',
  startAt: now - 3 * HOUR,
  endAt: now - HOUR,
  operator: { name: 'Ann' },
  ...over,
});

describe('the filter in the URL', () => {
  it('reads range, operator and machine, and writes them back', () => {
    const q = new URLSearchParams(
      `interval=day&start=${now - 24 * HOUR}&end=${now}&operator=o1&machine=m2&other=kept`,
    );
    const f = readRunsFilter(q, clock, now);
    expect(f).toMatchObject({
      operatorId: 'o1',
      machineId: 'm2',
      range: { start: now - 24 * HOUR, end: now },
    });
    expect(listQuery(f)).toEqual({ startAt: now - 24 * HOUR, endAt: now, machineId: 'm2', operatorId: 'o1' });
    const cleared = writeRunsFilter(q, { ...f, operatorId: null });
    expect(cleared.get('operator')).toBeNull();
    expect(cleared.get('machine')).toBe('m2');
    expect(cleared.get('other')).toBe('kept');
  });

  it('defaults to the last 30 company days and no operator or machine', () => {
    const f = readRunsFilter(new URLSearchParams(), clock, now);
    expect(f.operatorId).toBeNull();
    expect(f.machineId).toBeNull();
    expect(listQuery(f)).toEqual({ startAt: Date.UTC(2026, 9, 26), endAt: Date.UTC(2026, 10, 26) });
  });
});

describe('rows', () => {
  it('names the machine, shows the duration, and runs an open run to now', () => {
    const rows = runRows(
      [run(), run({ id: 'r2', endAt: null, machineId: 'gone' })],
      new Map([['m1', 'Press']]),
      now,
    );
    expect(rows.map((r) => [r.operator, r.machine, r.open, r.duration])).toEqual([
      ['Ann', 'Press', false, '2:00:00'],
      ['Ann', '-', true, '3:00:00'],
    ]);
  });
});

describe('the correction form', () => {
  const bounds = { min: epochMs(now - 365 * 24 * HOUR), max: now };

  it('starts from the run; an open run stays open unless the box is cleared', () => {
    const open = correctionFormOf(run({ endAt: null }), now);
    expect(open).toMatchObject({ keepOpen: true, endAt: now });
    expect(correctionBody(open)).toEqual({ startAt: now - 3 * HOUR, endAt: null });
    expect(correctionBody({ ...open, keepOpen: false })).toEqual({ startAt: now - 3 * HOUR, endAt: now });
  });

  it('blocks an end not after the start with the spec words, a value outside the bounds, or a half-typed field', () => {
    const f = correctionFormOf(run(), now);
    expect(correctionErrors(f, bounds)).toEqual({ blocked: false });
    expect(correctionErrors({ ...f, endAt: f.startAt }, bounds)).toEqual({
      end: 'Start Date must be before End Date',
      blocked: true,
    });
    expect(correctionErrors({ ...f, endAt: now + 1 }, bounds).blocked).toBe(true);
    expect(correctionErrors({ ...f, startAt: bounds.min - 1 }, bounds).blocked).toBe(true);
    expect(correctionErrors({ ...f, typed: { start: true, end: false } }, bounds).blocked).toBe(true);
    // An open run kept open has no end to check.
    expect(
      correctionErrors({ ...f, keepOpen: true, endAt: 0, typed: { start: true, end: false } }, bounds),
    ).toEqual({
      blocked: false,
    });
  });
});
