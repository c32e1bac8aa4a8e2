import { describe, expect, it } from 'vitest';
import { ApiError } from '@takt/ui';
import { formError, serverMessageOr } from './form';

describe('form errors (reports-admin §8)', () => {
  it('lists the server issues under the heading, or wraps a message without a list', () => {
    const listed = new ApiError(400, 'VALIDATION_ERROR', 'x', [
      { field: 'name', message: 'Missing required field: Name' },
    ]);
    expect(formError(listed, 'Downtime reason could not be saved.')).toEqual({
      heading: 'Downtime reason could not be saved.',
      lines: ['Missing required field: Name'],
    });
    expect(formError(new ApiError(409, 'CONFLICT', 'In use.'), 'H')).toEqual({
      heading: 'H',
      lines: ['In use.'],
    });
    expect(formError(new ApiError(0, 'NETWORK', 'offline'), 'H').lines).toEqual([
      'An error occurred with your request.',
    ]);
  });

  it("shows the server's message, else 'Unable to submit'", () => {
    expect(
      serverMessageOr(new ApiError(400, 'V', 'Setup stage percentages must total 100'), 'Unable to submit'),
    ).toEqual({
      heading: 'Setup stage percentages must total 100',
      lines: [],
    });
    expect(serverMessageOr(new Error('boom'), 'Unable to submit')).toEqual({
      heading: 'Unable to submit',
      lines: [],
    });
  });
});
