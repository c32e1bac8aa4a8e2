import { describe, expect, it } from 'vitest';
import { limitedLog } from './log';

describe('limitedLog', () => {
  it('passes the first message per key, holds back repeats for a minute, then says how many it held', () => {
    let t = 0;
    const lines: string[] = [];
    const logLimited = limitedLog(
      (m) => lines.push(m),
      () => t,
    );
    const steps: Array<[number, string, string]> = [
      [0, 'a', 'a1'],
      [1_000, 'a', 'a2'],
      [2_000, 'b', 'b1'],
      [59_999, 'a', 'a3'],
      [60_000, 'a', 'a4'],
      [61_999, 'b', 'b2'],
      [62_000, 'b', 'b3'],
      [200_000, 'a', 'a5'],
    ];
    for (const [at, key, message] of steps) {
      t = at;
      logLimited(key, message);
    }
    expect(lines).toEqual(['a1', 'b1', 'a4 (and 2 more like it)', 'b3 (and 1 more like it)', 'a5']);
  });
});
