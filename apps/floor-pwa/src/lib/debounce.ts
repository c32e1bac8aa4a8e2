import { useCallback, useEffect, useRef, useState } from 'react';

// live-operations §9: "Dashboard job-action debounce 200 ms". The job search's debounce is the job picker's
// (components/jobPicker/jobs.ts).
export const JOB_ACTION_DEBOUNCE_MS = 200;

export interface Timers {
  set: (fn: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
}

export const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  cancel(): void;
}

/** Trailing debounce: `fn` runs once, `ms` after the last call, with the last call's arguments. */
export function debounce<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number,
  timers: Timers = realTimers,
): Debounced<A> {
  let handle: unknown = null;
  const d = (...args: A) => {
    if (handle !== null) timers.clear(handle);
    handle = timers.set(() => {
      handle = null;
      fn(...args);
    }, ms);
  };
  d.cancel = () => {
    if (handle !== null) timers.clear(handle);
    handle = null;
  };
  return d;
}

/** A stable debounced callback that always calls the latest `fn`; cancelled on unmount. */
export function useDebouncedCallback<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number,
): (...args: A) => void {
  const fnRef = useRef(fn);
  useEffect(() => {
    fnRef.current = fn;
  });
  const [d] = useState(() => debounce<A>((...args) => fnRef.current(...args), ms));
  useEffect(() => () => d.cancel(), [d]);
  return useCallback((...args: A) => d(...args), [d]);
}
