import type { SyncCommandType } from '@takt/domain';
import { t } from '@takt/ui';
import { describe, expect, it } from 'vitest';
import { errorTitleKey, refusalMessage, refusalSummary } from './errors';

describe('errorTitleKey (live-operations §8)', () => {
  it.each<[SyncCommandType, string]>([
    ['start_job', 'Job could not be started'],
    ['reject_part', 'Parts could not be rejected.'],
    ['part_correction', 'Parts could not be rejected.'],
    ['categorize_downtime', 'Downtime reason could not be saved.'],
    ['split_downtime', 'Downtime reason could not be saved.'],
    ['setup_stage', 'Something went wrong'],
    ['start_production', 'Something went wrong'],
    ['stop_job', 'Stop Job'],
    ['operator_login', 'Operator Login'],
  ])('%s → %s', (type, text) => {
    expect(t(errorTitleKey(type))).toBe(text);
  });
});

describe('refusalSummary (nothing is dropped silently)', () => {
  const e = (id: string, machineId: string) => ({ id, machineId });
  it.each([
    ['none', [], 'm1', { latest: null, count: 0, elsewhere: 0 }],
    ['only another machine', [e('a', 'm2')], 'm1', { latest: e('a', 'm2'), count: 1, elsewhere: 1 }],
    [
      'this machine first, all counted',
      [e('a', 'm1'), e('b', 'm2')],
      'm1',
      { latest: e('a', 'm1'), count: 2, elsewhere: 1 },
    ],
    [
      'latest of this machine',
      [e('a', 'm1'), e('b', 'm1'), e('c', 'm3')],
      'm1',
      { latest: e('b', 'm1'), count: 3, elsewhere: 1 },
    ],
  ])('%s', (_, entries, machineId, expected) => {
    expect(refusalSummary(entries, machineId)).toEqual(expected);
  });
});

describe('refusalMessage (live-operations §8 setup texts)', () => {
  const notInSetup = (reason: string) => ({
    code: 'NOT_IN_SETUP',
    message: 'We ran into an issue, please try again.',
    issues: [
      {
        field: 'jsgId',
        code: reason === 'The job is already in production.' ? 'in_production' : 'stopped',
        message: reason,
      },
    ],
  });
  it('says the kept parts when the end of setup is refused after the part count was fixed', () => {
    expect(
      refusalMessage({
        type: 'start_production',
        payload: { keptParts: 3 },
        error: notInSetup('The job is already in production.'),
      }),
    ).toBe(
      'We fixed the part count and kept 3 parts, but there was an error going into production. Please try again.',
    );
  });
  it.each([
    ['nothing adjusted: job stopped', 'start_production', notInSetup('The job has been stopped.')],
    [
      'kept parts refused',
      'start_production',
      {
        code: 'VALIDATION_ERROR',
        message: "There was an error, please re-submit the number of parts you'd like to keep.",
      },
    ],
    ['another command', 'stop_job', notInSetup('The job is already in production.')],
  ] as const)('keeps the server message: %s', (_, type, error) => {
    expect(refusalMessage({ type, payload: { keptParts: 3 }, error })).toBe(error.message);
  });
});
