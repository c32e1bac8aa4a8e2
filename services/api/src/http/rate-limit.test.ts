import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { giveBackHit, rateLimit, resetHits, takeHit } from './rate-limit';
import { pruneRateLimits } from '../services/rate-limits';

// The shared rate limiter (decision 0987): atomic across concurrent requests, windows, Retry-After.

describe.each(DIALECTS)('rate limits on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(dialect);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('allows exactly the limit out of many concurrent hits, and says when to retry', async () => {
    const rule = rateLimit('t1', 5, 60_000);
    const decisions = await Promise.all(
      Array.from({ length: 60 }, () => takeHit(t.db, rule, 'who', 1_000_000)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    const refused = decisions.filter((d) => !d.allowed);
    expect(refused).toHaveLength(55);
    expect(refused.every((d) => d.retryAfterS === 60)).toBe(true);
    // Another key has its own counter.
    expect((await takeHit(t.db, rule, 'other', 1_000_000)).allowed).toBe(true);
  });

  it('opens again when the window ends, and gives back or resets hits', async () => {
    const rule = rateLimit('t2', 2, 10_000);
    const at = 5_000_000;
    expect((await takeHit(t.db, rule, 'a', at)).remaining).toBe(1);
    expect((await takeHit(t.db, rule, 'a', at + 1_000)).allowed).toBe(true);
    const refused = await takeHit(t.db, rule, 'a', at + 2_500);
    expect(refused).toEqual({ allowed: false, remaining: 0, retryAfterS: 8 });
    expect((await takeHit(t.db, rule, 'a', at + 10_000)).allowed).toBe(true);
    expect((await takeHit(t.db, rule, 'a', at + 10_001)).allowed).toBe(true);
    expect((await takeHit(t.db, rule, 'a', at + 10_002)).allowed).toBe(false);
    await giveBackHit(t.db, rule, 'a');
    expect((await takeHit(t.db, rule, 'a', at + 10_003)).allowed).toBe(true);
    expect((await takeHit(t.db, rule, 'a', at + 10_004)).allowed).toBe(false);
    await resetHits(t.db, rule, 'a');
    expect((await takeHit(t.db, rule, 'a', at + 10_005)).allowed).toBe(true);
  });

  it('drops counters whose window is long over', async () => {
    const rule = rateLimit('t3', 1, 1_000);
    await takeHit(t.db, rule, 'old', 100);
    await takeHit(t.db, rule, 'new', 10_000_000_000);
    await pruneRateLimits(t.db, 10_000_000_000);
    const keys = (await t.db.selectFrom('rate_limits').select('key').execute()).map((r) => r.key);
    expect(keys).toContain('t3:new');
    expect(keys).not.toContain('t3:old');
  });
});
