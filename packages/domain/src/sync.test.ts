import { describe, expect, it } from 'vitest';
import { laterWriteWins, syncBatchSchema } from './sync';

describe('laterWriteWins (offline conflict rule, decision 0008)', () => {
  // Each row: stored, incoming occurredAt, does incoming replace stored? — checked in both arrival orders.
  const rows: Array<[number, number, boolean]> = [
    [1000, 2000, true],
    [2000, 1000, false],
    [1000, 1000, false],
  ];
  it.each(rows)('stored at %i, incoming at %i → %s', (stored, incoming, wins) => {
    expect(laterWriteWins({ occurredAt: stored }, { occurredAt: incoming })).toBe(wins);
    // Whichever arrives first, the later write is what stays; a tie keeps whichever was stored.
    if (stored !== incoming)
      expect(laterWriteWins({ occurredAt: incoming }, { occurredAt: stored })).toBe(!wins);
  });
});

describe('sync batch schema', () => {
  const cmd = {
    id: '0b9d3c1e-6b0a-4d4f-9a61-2f4b1c2d3e4f',
    type: 'reject_part',
    machineId: 'm1',
    payload: {},
    occurredAt: 1_700_000_000_000,
  };
  it('accepts a well-formed batch', () => {
    expect(syncBatchSchema.safeParse({ commands: [cmd] }).success).toBe(true);
  });
  it.each([
    ['an empty batch', { commands: [] }],
    ['a non-UUID id', { commands: [{ ...cmd, id: '42' }] }],
    ['an unknown type', { commands: [{ ...cmd, type: 'launch_rocket' }] }],
    ['a missing machine', { commands: [{ ...cmd, machineId: '' }] }],
    ['a non-numeric occurredAt', { commands: [{ ...cmd, occurredAt: 'yesterday' }] }],
  ])('refuses %s', (_what, batch) => {
    expect(syncBatchSchema.safeParse(batch).success).toBe(false);
  });
});
