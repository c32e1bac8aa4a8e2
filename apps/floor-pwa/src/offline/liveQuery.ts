import { liveQuery } from 'dexie';
import { useEffect, useRef, useState } from 'react';

/**
 * Re-runs a Dexie query whenever the tables it read change (in this tab or another), so the screen follows
 * the store: the outbox count, the pulled data with its overlays. `key` restarts the query (a machine id).
 */
export function useLiveQuery<T>(query: () => Promise<T>, key: string, initial: T): T {
  const [value, setValue] = useState<{ key: string; value: T }>({ key, value: initial });
  const queryRef = useRef(query);
  useEffect(() => {
    queryRef.current = query;
  });
  useEffect(() => {
    const sub = liveQuery(() => queryRef.current()).subscribe({
      next: (v) => setValue({ key, value: v }),
      error: (e: unknown) => console.error('[floor] live query failed', e),
    });
    return () => sub.unsubscribe();
  }, [key]);
  // A new key shows the initial value until its first answer, never the previous machine's data.
  return value.key === key ? value.value : initial;
}
