import { useEffect, useSyncExternalStore } from 'react';

// One shared one-second ticker for every "time in state" on the page, so 200 tiles update in the same frame
// and only the components that show a clock re-render.
const subscribers = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(cb: () => void): () => void {
  subscribers.add(cb);
  if (!timer) timer = setInterval(() => subscribers.forEach((s) => s()), 1000);
  return () => {
    subscribers.delete(cb);
    if (subscribers.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** Client time floored to the second: stable between ticks, as useSyncExternalStore requires. */
const snapshot = () => Math.floor(Date.now() / 1000) * 1000;

/**
 * Server time from the client clock plus an offset, ticking every second.
 * @param offsetMs server time minus client time (see `serverOffset`).
 */
export function useServerNow(offsetMs: number): number {
  return useSyncExternalStore(subscribe, snapshot, snapshot) + offsetMs;
}

/** Server minus client clock, from a response's server `now` and the client time it arrived. */
export function serverOffset(serverNow: number, clientReceivedAt: number): number {
  return serverNow - clientReceivedAt;
}

/** live-operations §1: the page reloads itself every 24 hours. */
export const PAGE_RELOAD_MS = 86_400_000;

export function usePeriodicReload(ms: number = PAGE_RELOAD_MS): void {
  useEffect(() => {
    const id = setTimeout(() => globalThis.location.reload(), ms);
    return () => clearTimeout(id);
  }, [ms]);
}
