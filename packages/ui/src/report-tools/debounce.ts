import { useEffect, useRef, useState } from 'react';

/** reports-admin §9: report debounce 500 ms (re-queries wait until the inputs stop changing). */
export const REPORT_DEBOUNCE_MS = 500;

/**
 * `value` once it has not changed for `ms`. Values are compared by `key` (a query string, say), so a new
 * object with the same content, or an unrelated re-render, does not restart the wait. The first value is
 * used at once: only changes wait.
 */
export function useDebounced<T>(value: T, key: string, ms: number = REPORT_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState({ key, value });
  const latest = useRef(value);
  useEffect(() => {
    latest.current = value;
  });
  useEffect(() => {
    if (key === settled.key) return;
    const timer = setTimeout(() => setSettled({ key, value: latest.current }), ms);
    return () => clearTimeout(timer);
  }, [key, ms, settled.key]);
  return settled.value;
}
