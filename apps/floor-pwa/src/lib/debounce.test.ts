import { describe, expect, it } from 'vitest';
import { debounce } from './debounce';

describe('debounce', () => {
  it('runs once, after the last call, with its arguments', () => {
    let now = 0;
    const queue: Array<{ at: number; fn: () => void; id: number }> = [];
    let next = 0;
    const timers = {
      set: (fn: () => void, ms: number) => {
        queue.push({ at: now + ms, fn, id: ++next });
        return next;
      },
      clear: (h: unknown) => {
        const i = queue.findIndex((q) => q.id === h);
        if (i >= 0) queue.splice(i, 1);
      },
    };
    const advance = (ms: number) => {
      now += ms;
      for (const q of queue.filter((x) => x.at <= now)) {
        timers.clear(q.id);
        q.fn();
      }
    };
    const calls: string[] = [];
    const d = debounce((s: string) => calls.push(s), 200, timers);
    d('a');
    advance(150);
    d('b');
    advance(199);
    expect(calls).toEqual([]);
    advance(1);
    expect(calls).toEqual(['b']);
    d('c');
    d.cancel();
    advance(500);
    expect(calls).toEqual(['b']);
  });
});
