import { describe, expect, it } from 'vitest';
import { downtimeObservation, dueAt, episodeStep, shiftChoiceAllows, utilizationObservation } from './rules';

// Decisions 0901, 0902: the condition, episode and delay rules by table.

const MIN = 60_000;

describe('downtime condition', () => {
  it.each([
    ['ACTIVE', 100, false],
    ['SETUP', 100, false],
    ['INACTIVE', 100, true],
    ['FAULT', 100, true],
    ['UNAVAILABLE', 100, true],
    ['UNAVAILABLE', null, false],
  ] as const)('%s since %s → holds %s', (state, since, holds) => {
    expect(downtimeObservation({ state, since }).holds).toBe(holds);
  });
});

describe('utilization condition', () => {
  it.each([
    [1, 'success', false],
    [1, 'warning', true],
    [1, 'danger', true],
    [2, 'warning', false],
    [2, 'danger', true],
    [0, 'unavailable', false],
    [2, undefined, false],
  ] as const)('level %s, status %s → holds %s', (level, status, holds) => {
    expect(utilizationObservation(level, status, 5).holds).toBe(holds);
  });
});

describe('episode steps', () => {
  const ep = { since: 10, seenAt: 20 };
  it.each([
    [undefined, { holds: false }, false, { kind: 'idle' }],
    [ep, { holds: false }, false, { kind: 'close' }],
    [undefined, { holds: true, since: 30 }, false, { kind: 'open', since: 30 }],
    [ep, { holds: true, since: 30 }, false, { kind: 'continue' }],
    [ep, { holds: true, since: 30 }, true, { kind: 'reopen', since: 30 }],
  ] as const)('%j seeing %j (interrupted %s) → %j', (existing, seen, interrupted, step) => {
    expect(episodeStep(existing, seen, interrupted)).toEqual(step);
  });
});

describe('when the e-mail is due', () => {
  it.each([
    ['downtime', 1, 10, 5, 10 * MIN],
    ['downtime', 2, 10, 5, 15 * MIN],
    ['downtime', 2, 0, 5, 5 * MIN],
    ['utilization', 2, 10, 5, 10 * MIN],
    ['utilization', 1, 0, 5, 0],
  ] as const)(
    '%s level %s, delay %s, failure delay %s → since + %s ms',
    (type, level, delayMinutes, failure, due) => {
      expect(dueAt({ type, level, delayMinutes }, 1000, failure)).toBe(1000 + due);
    },
  );
});

describe('shift choice (decision 0936)', () => {
  it.each([
    ['no saved choice', undefined, null, true],
    ['notifications off', { notify: false, shifts: [] }, 'day', false],
    ['notifications off, shift chosen', { notify: false, shifts: ['day'] }, 'day', false],
    ['every shift', { notify: true, shifts: [] }, null, true],
    ['in a chosen shift', { notify: true, shifts: ['day', 'late'] }, 'late', true],
    ['in another shift', { notify: true, shifts: ['day'] }, 'night', false],
    ['between shifts', { notify: true, shifts: ['day'] }, null, false],
  ] as const)('%s → %s', (_, choice, shift, allowed) => {
    expect(shiftChoiceAllows(choice, shift)).toBe(allowed);
  });
});
