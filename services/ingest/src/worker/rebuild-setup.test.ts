import { describe, expect, it } from 'vitest';
import { setupFrom } from './rebuild';

// A rebuild derives from its first fed observation: the job runs' setup events before it only say whether setup was
// on there (an END hours before would otherwise start the engine's history at it, with no data behind it).
describe('the setup events a rebuild derives from', () => {
  const T = 1_000_000;
  it('drops the events of a setup that ended before', () => {
    expect(
      setupFrom(
        [
          { at: T - 500, value: 'START' },
          { at: T - 100, value: 'END' },
        ],
        T,
      ),
    ).toEqual([]);
  });
  it('starts a setup still on at the first observation there', () => {
    expect(
      setupFrom(
        [
          { at: T + 50, value: 'END' },
          { at: T - 500, value: 'START' },
        ],
        T,
      ),
    ).toEqual([
      { at: T, value: 'START' },
      { at: T + 50, value: 'END' },
    ]);
  });
  it('keeps the events from the first observation on as they are', () => {
    const events = [
      { at: T, value: 'START' as const },
      { at: T + 10, value: 'END' as const },
    ];
    expect(setupFrom([{ at: T - 5, value: 'START' }, ...events], T)).toEqual(events);
  });
});
