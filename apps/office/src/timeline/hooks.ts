import { ApiError, localeZone, tr, useSession } from '@takt/ui';
import { useEffect, useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { api } from '../api';
import { useMinuteNow } from '../company-clock';
import type { TimeWindow } from './draw';
import { averageCycleMs, parseDowntime, parseOperation, partCycles, partMarks } from './model';
import type { DowntimeRow, OperationAnswer } from './model';

// What the machine timeline and the standard timeline (reports-admin §2) load the same way: the lanes' data
// of a range (GET /api/reports/operation and /api/downtime) and the zoomed window.

/** What a timeline page reads first: the machine in the path, the user's locale and tier, the minute, the query. */
export function useTimelineBasics(offsetMs: number) {
  const { id: machineId = '' } = useParams();
  const { me } = useSession();
  const now = useMinuteNow(offsetMs);
  const [query, setQuery] = useSearchParams();
  return {
    machineId,
    lz: localeZone(me),
    fullProduct: me.permissions.includes('FullProduct'),
    now,
    query,
    setQuery,
    search: query.toString(),
  };
}

/** reports-admin §9: which parts the window marks slow or fast, from the loaded parts' average cycle. */
export function usePartMarks(operation: OperationAnswer | null, view: TimeWindow, fullProduct: boolean) {
  const averageMs = useMemo(() => (operation ? averageCycleMs(partCycles(operation.parts)) : 0), [operation]);
  return partMarks(view.end - view.start, averageMs, fullProduct);
}

export type TimelineLoad =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | {
      kind: 'ready';
      key: string;
      operation: OperationAnswer;
      downtime: DowntimeRow[];
    };

function errorText(err: unknown): string {
  return err instanceof ApiError && err.status === 400 ? err.message : tr('reports.requestError');
}

/**
 * The lanes' data of one machine over a range; a change of `version` reloads it (after a save) without
 * blanking what is shown.
 */
export function useTimelineData(machineId: string, range: TimeWindow, version: number): TimelineLoad {
  const [load, setLoad] = useState<TimelineLoad>({ kind: 'loading' });
  const { start, end } = range;
  useEffect(() => {
    const controller = new AbortController();
    const signal = controller.signal;
    const key = `${machineId}|${start}|${end}`;
    const q = { machineId, start, end };
    setLoad((l) => (l.kind === 'ready' && l.key === key ? l : { kind: 'loading' }));
    Promise.all([
      api.request('/api/reports/operation', { query: q, signal, parse: parseOperation }),
      api.request('/api/downtime', { query: q, signal, parse: parseDowntime }),
    ])
      .then(([operation, downtime]) => setLoad({ kind: 'ready', key, operation, downtime: downtime.items }))
      .catch((err: unknown) => {
        if (!signal.aborted) setLoad({ kind: 'error', message: errorText(err) });
      });
    return () => controller.abort();
  }, [machineId, start, end, version]);
  return load;
}

/** The visible window: `initial` until zoomed, and again whenever `key` (the machine and range) changes. */
export function useTimelineView(key: string, initial: TimeWindow): [TimeWindow, (w: TimeWindow) => void] {
  const [view, setView] = useState<TimeWindow>(initial);
  const [viewKey, setViewKey] = useState(key);
  if (viewKey !== key) {
    setViewKey(key);
    setView(initial);
  }
  return [view, setView];
}
