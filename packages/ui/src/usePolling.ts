import { useCallback, useEffect, useRef, useState } from 'react';

export interface PollState<T> {
  /** The last successful answer; kept while later polls fail so screens show stale data, not nothing. */
  data: T | undefined;
  /** The last failure, cleared by the next success. */
  error: unknown;
  /** Failures since the last success (live-operations §8: a list load is "failed" after more than 10). */
  consecutiveFailures: number;
  /** Client time of the last success. */
  lastSuccessAt: number | null;
  /** True until the first answer (success or failure) for the current key. */
  loading: boolean;
}

export interface Polling<T> extends PollState<T> {
  /** Poll now instead of waiting for the next tick. */
  refresh: () => void;
}

const INITIAL = {
  data: undefined,
  error: undefined,
  consecutiveFailures: 0,
  lastSuccessAt: null,
  loading: true,
};

/**
 * Calls `fn` at once and then `intervalMs` after each answer (never two requests in flight). Changing `key`
 * (a filter, a route parameter) aborts the request in flight and polls at once with the new `fn`.
 * The request in flight is aborted on unmount.
 */
export function usePolling<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  intervalMs: number,
  key: string = '',
): Polling<T> {
  const [state, setState] = useState<PollState<T>>(INITIAL);
  const [generation, setGeneration] = useState(0);
  const fnRef = useRef(fn);
  useEffect(() => {
    fnRef.current = fn;
  });

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;

    const tick = async () => {
      try {
        const data = await fnRef.current(controller.signal);
        if (controller.signal.aborted) return;
        setState({
          data,
          error: undefined,
          consecutiveFailures: 0,
          lastSuccessAt: Date.now(),
          loading: false,
        });
      } catch (error) {
        if (controller.signal.aborted) return;
        setState((s) => ({ ...s, error, consecutiveFailures: s.consecutiveFailures + 1, loading: false }));
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void tick(), intervalMs);
    };
    void tick();

    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [intervalMs, key, generation]);

  const refresh = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, refresh };
}
