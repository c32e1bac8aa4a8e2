import { describe, expect, it } from 'vitest';
import type { Timers } from './debounce';
import { SUBMIT_DEBOUNCE_MS, submitGate } from './submit';

/** A simulated clock for the gate's timers. */
function fakeTimers() {
  let now = 0;
  let next = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    set: (fn, ms) => {
      due.set(++next, { at: now + ms, fn });
      return next;
    },
    clear: (h) => void due.delete(h as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [h, d] of [...due].sort((a, b) => a[1].at - b[1].at))
      if (d.at <= now) {
        due.delete(h);
        d.fn();
      }
  };
  return { timers, advance };
}
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('submitGate (live-operations §5: debounced 200 ms, ignored while saving)', () => {
  function run() {
    const clock = fakeTimers();
    const calls: number[] = [];
    let finish: () => void = () => {};
    const events: string[] = [];
    const gate = submitGate<number>(
      async (n) => {
        calls.push(n);
        await new Promise<void>((r) => (finish = r));
      },
      { busy: (b) => events.push(b ? 'busy' : 'idle'), done: () => events.push('done'), failed: () => {} },
      SUBMIT_DEBOUNCE_MS,
      clock.timers,
    );
    return { gate, clock, calls, events, finish: () => finish() };
  }

  it('runs the first press at once and drops the presses of the next 200 ms', async () => {
    const t = run();
    t.gate.submit(1);
    expect(t.calls).toEqual([1]);
    t.finish();
    await flush();
    t.clock.advance(150);
    t.gate.submit(2);
    t.clock.advance(49);
    t.gate.submit(3);
    expect(t.calls).toEqual([1]);
    t.clock.advance(1);
    t.gate.submit(4);
    expect(t.calls).toEqual([1, 4]);
  });

  it('ignores presses while saving, and takes them again once saved', async () => {
    const t = run();
    t.gate.submit(1);
    t.clock.advance(200);
    t.gate.submit(2);
    t.clock.advance(200);
    expect(t.calls).toEqual([1]);
    t.finish();
    await flush();
    expect(t.events).toEqual(['busy', 'idle', 'done']);
    t.gate.submit(3);
    expect(t.calls).toEqual([1, 3]);
  });

  it('reports a failure and lets the operator submit again', async () => {
    const clock = fakeTimers();
    const failed: unknown[] = [];
    let n = 0;
    const gate = submitGate<void>(
      async () => {
        n++;
        throw new Error('no');
      },
      { busy: () => {}, done: () => {}, failed: (e) => failed.push(e) },
      SUBMIT_DEBOUNCE_MS,
      clock.timers,
    );
    gate.submit();
    await flush();
    expect(failed).toHaveLength(1);
    clock.advance(200);
    gate.submit();
    expect(n).toBe(2);
  });
});
