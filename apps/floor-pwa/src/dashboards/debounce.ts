import { useCallback, useEffect, useRef, useState } from 'react';

// live-operations §9: dashboard job-action debounce 200 ms; job search debounce 250 ms; job search limit 10.
export const JOB_ACTION_DEBOUNCE_MS = 200;
export const JOB_SEARCH_DEBOUNCE_MS = 250;
export const JOB_SEARCH_LIMIT = 10;

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

/** `value`, `ms` after it stopped changing (the job search box). */
export function useDebouncedValue<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const h = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(h);
  }, [value, ms]);
  return settled;
}
