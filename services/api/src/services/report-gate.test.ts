import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { companyScope } from '@takt/db';
import { companyRow, DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import type { Caller } from '../http/context';
import type { ServiceCtx } from './context';
import { gated, REPORT_LEND_MS, REPORT_SLOTS, useReportGate } from './report-gate';
import { sharedAnswer } from './report-shared';

// Decision 1239: report computations run a few at a time per database handle (REPORT_SLOTS; PostgreSQL not gated
// yet), first come first served; a slot is passed on when its computation settles (or fails), or after REPORT_LEND_MS; a report computed
// inside another takes no second slot; callers of an answer waiting for a slot wait with it.

/** A computation the test ends by hand, and whether it has started. */
function held() {
  let end!: (fail?: boolean) => void;
  const state = { started: false };
  const compute = () => {
    state.started = true;
    return new Promise<string>((resolve, reject) => {
      end = (fail) => (fail ? reject(new Error('failed')) : resolve('done'));
    });
  };
  return { state, compute, end: (fail?: boolean) => end(fail) };
}

/** Lets the gate's promise callbacks run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe.each(DIALECTS)('the report gate on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(dialect);
  });
  afterAll(async () => {
    await t.cleanup();
  });
  beforeEach(() => useReportGate(t.db));
  afterEach(() => vi.useRealTimers());

  it("starts the dialect's REPORT_SLOTS computations at once, every one without a gate", async () => {
    const calls = Array.from({ length: 4 }, held);
    const answers = calls.map((c) => gated(t.db, c.compute));
    await settle();
    const slots = REPORT_SLOTS[dialect] || calls.length;
    expect(calls.map((c) => c.state.started)).toEqual(calls.map((_, i) => i < slots));
    for (const c of calls) {
      c.end();
      await settle();
    }
    expect(await Promise.all(answers)).toEqual(calls.map(() => 'done'));
  });

  it('runs its slots at once and the rest in order of arrival, a failure passing its slot on', async () => {
    const slots = 2;
    useReportGate(t.db, slots);
    const calls = Array.from({ length: slots + 3 }, held);
    const answers = calls.map((c) => gated(t.db, c.compute));
    answers.forEach((a) => a.catch(() => undefined));
    await settle();
    const started = () => calls.map((c) => c.state.started);
    expect(started()).toEqual(calls.map((_, i) => i < slots));
    // The first one fails: the next in order takes its slot, and the failure reaches its own caller only.
    calls[0]!.end(true);
    await expect(answers[0]).rejects.toThrow('failed');
    await settle();
    expect(started()).toEqual(calls.map((_, i) => i < slots + 1));
    for (const [i, c] of calls.entries()) {
      if (i === 0) continue;
      c.end();
      await expect(answers[i]).resolves.toBe('done');
    }
    // Every slot is free again: as many new ones start at once.
    const more = Array.from({ length: slots }, held);
    const moreAnswers = more.map((c) => gated(t.db, c.compute));
    await settle();
    expect(more.every((c) => c.state.started)).toBe(true);
    more.forEach((c) => c.end());
    await Promise.all(moreAnswers);
  });

  it('lets a report computed inside another run without a second slot', async () => {
    useReportGate(t.db, 1);
    const inner = held();
    const outer = gated(t.db, async () => `outer ${await gated(t.db, inner.compute)}`);
    await settle();
    expect(inner.state.started).toBe(true);
    inner.end();
    await expect(outer).resolves.toBe('outer done');
  });

  it('passes a slot held past REPORT_LEND_MS on to the next computation', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    useReportGate(t.db, 1);
    const [slow, next, last] = [held(), held(), held()];
    const answers = [slow, next, last].map((c) => gated(t.db, c.compute));
    await settle();
    expect(next.state.started).toBe(false);
    vi.advanceTimersByTime(REPORT_LEND_MS);
    await settle();
    expect(next.state.started).toBe(true);
    // The slow one ending gives nothing back (it lent its slot): the last still waits for the next.
    slow.end();
    await settle();
    expect(last.state.started).toBe(false);
    next.end();
    await settle();
    expect(last.state.started).toBe(true);
    last.end();
    expect(await Promise.all(answers)).toEqual(['done', 'done', 'done']);
  });

  it('gives callers of an answer waiting for a slot that one computation', async () => {
    useReportGate(t.db, 1);
    const companyId = `gate-${dialect}`;
    await t.db.insertInto('companies').values(companyRow(companyId)).execute();
    const ctx: ServiceCtx = {
      scope: companyScope(t.db, companyId),
      at: 1_000,
      now: 1_000,
      caller: {
        kind: 'user',
        user: { role: 'manager', isRoot: false },
        company: { productTier: 'FullProduct' },
      } as unknown as Caller,
    };
    const range = { start: 0, end: 500 };
    const busy = held();
    const running = sharedAnswer(ctx, 'gate-busy', {}, range, busy.compute);
    let computed = 0;
    const same = () =>
      sharedAnswer(ctx, 'gate-same', {}, range, async () => {
        computed++;
        return { computed };
      });
    const [a, b] = [same(), same()];
    // Both read the data version with the busy one, which took the only slot; the first of them waits for it.
    await vi.waitFor(() => expect(busy.state.started).toBe(true));
    await settle();
    expect(computed).toBe(0);
    busy.end();
    await running;
    expect(await a).toBe(await b);
    expect(computed).toBe(1);
  });
});
