import { describe, expect, it } from 'vitest';
import { clockOffset, correctedNow, measureOffset } from './timesync';
import { newCommandId } from './ids';

describe('clockOffset', () => {
  it.each([
    // sent, server now, received, offset
    [1000, 1100, 1200, 0],
    [1000, 61_100, 1200, 60_000],
    [1000, 100, 1200, -1000],
  ])('sent %i, server %i, received %i → %i', (s, n, r, o) => expect(clockOffset(s, n, r)).toBe(o));

  it('corrects a tablet that runs 2 minutes slow', () => {
    expect(correctedNow(1_000_000, 120_000)).toBe(1_120_000);
  });

  it('measures with an injected clock', async () => {
    const times = [5000, 5200];
    const offset = await measureOffset(
      async () => ({ now: 9100 }),
      () => times.shift()!,
    );
    expect(offset).toBe(4000);
  });
});

describe('newCommandId', () => {
  it('makes RFC 4122 version 4 ids', () => {
    const id = newCommandId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newCommandId()).not.toBe(id);
  });
});
