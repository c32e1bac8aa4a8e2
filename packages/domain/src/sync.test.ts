import { describe, expect, it } from 'vitest';
import { laterWriteWins, syncBatchSchema } from './sync';

describe('laterWriteWins (offline conflict rule)', () => {
  // Each row: current, incoming, does incoming win? — checked in both directions.
  const rows: Array<[{ occurredAt: number; id: string }, { occurredAt: number; id: string }, boolean]> = [
    [{ occurredAt: 1000, id: 'a' }, { occurredAt: 2000, id: 'a' }, true],
    [{ occurredAt: 2000, id: 'a' }, { occurredAt: 1000, id: 'z' }, false],
    [{ occurredAt: 1000, id: 'a' }, { occurredAt: 1000, id: 'b' }, true],
    [{ occurredAt: 1000, id: 'b' }, { occurredAt: 1000, id: 'a' }, false],
  ];
  it.each(rows)('current %o, incoming %o → %s', (current, incoming, wins) => {
    expect(laterWriteWins(current, incoming)).toBe(wins);
    // The rule is a total order: exactly one of two different writes wins, whichever arrives first.
    if (current.id !== incoming.id || current.occurredAt !== incoming.occurredAt) {
      expect(laterWriteWins(incoming, current)).toBe(!wins);
    }
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
