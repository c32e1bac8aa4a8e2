import { describe, expect, it } from 'vitest';
import { ApiError, t } from '@takt/ui';
import { errorText, purgedText, refreshOutcome } from './system';

// reports-admin §8 System texts, verbatim.

describe('System page texts and outcomes', () => {
  it('quotes the spec', () => {
    expect(t('internal.system.invalidResponse')).toBe('Invalid Response');
    expect(t('internal.system.unableToIncrement')).toBe('Unable to increment version.');
    expect(t('internal.system.refreshAllFailed')).toBe('Unable to refresh one or more tablets');
    expect(purgedText(3)).toBe('3 tablets deleted');
    expect(errorText(new ApiError(500, 'INTERNAL', 'Database unavailable'))).toBe(
      'Error: Database unavailable',
    );
    expect(errorText(new ApiError(0, 'NETWORK_ERROR', 'Failed to fetch'))).toBe(
      'Error: An error occurred with your request.',
    );
  });

  it.each([
    [
      { pushed: ['a', 'b'], notPushed: [], notPushedTablets: [] },
      { kind: 'ok', count: 2 },
    ],
    [{ pushed: [], notPushed: [], notPushedTablets: [] }, { kind: 'none' }],
    [
      {
        pushed: ['a'],
        notPushed: ['b', 'c'],
        notPushedTablets: [{ id: 'b', company: 'Acme', label: 'Lathe' }],
      },
      {
        kind: 'notPushed',
        tablets: [
          { id: 'b', company: 'Acme', label: 'Lathe' },
          { id: 'c', company: '', label: '' },
        ],
      },
    ],
  ])('%o → %o', (result, outcome) => {
    expect(refreshOutcome(result)).toEqual(outcome);
  });
});
