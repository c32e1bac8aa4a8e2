import { ApiError, t, useLiveChannel } from '@takt/ui';
import type { LiveChannelStatus } from '@takt/ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api';
import {
  applyObservations,
  mergeAnswers,
  nextRefreshMs,
  parseDiagnostics,
  parseObservations,
} from './diagnostics';
import type { DiagnosticsAnswer, RawObservation } from './diagnostics';

/** How often the page checks whether its answer is due again (nextRefreshMs). */
const REFRESH_TICK_MS = 1_000;

export interface MachineDiagnostics {
  answer: DiagnosticsAnswer | null;
  /** The error text of the last failed load (kept with the last answer shown). */
  error: string | null;
  loading: boolean;
  /** Server clock minus client clock, from the answer. */
  offsetMs: number;
  /** The live channel's state, or null when the page does not follow it. */
  channel: LiveChannelStatus | null;
}

/**
 * GET /api/machines/:id/diagnostics, asked again when nextRefreshMs says (sooner while the link is not shown up)
 * and on the channel's reinit;
 * with `live`, the `diagnostics` channel's raw observations are folded in as they arrive (reports-admin §7
 * "join … diagnostics (stream raw), scoped by machine_id").
 */
export function useMachineDiagnostics(machineId: string, live: boolean): MachineDiagnostics {
  const [answer, setAnswer] = useState<DiagnosticsAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [offsetMs, setOffsetMs] = useState(0);
  // Observations that arrive before the first answer wait for it.
  const early = useRef<RawObservation[]>([]);
  const controller = useRef<AbortController | null>(null);
  // What the refresh timer reads: the answer shown, the server's clock offset, when the last load began.
  const shownRef = useRef<{ answer: DiagnosticsAnswer | null; offsetMs: number }>({
    answer: null,
    offsetMs: 0,
  });
  shownRef.current = { answer, offsetMs };
  const loadedAt = useRef(0);
  const inFlight = useRef(false);

  const load = useCallback(() => {
    loadedAt.current = Date.now();
    inFlight.current = true;
    controller.current?.abort();
    const c = new AbortController();
    controller.current = c;
    setLoading(true);
    api
      .request(`/api/machines/${encodeURIComponent(machineId)}/diagnostics`, {
        signal: c.signal,
        parse: parseDiagnostics,
      })
      .then((fresh) => {
        const received = Date.now();
        if (fresh.serverNow != null) setOffsetMs(fresh.serverNow - received);
        setAnswer((shown) => applyObservations(mergeAnswers(fresh, shown), early.current.splice(0)));
        setError(null);
        setLoading(false);
        inFlight.current = false;
      })
      .catch((err: unknown) => {
        if (c.signal.aborted) return;
        inFlight.current = false;
        setError(err instanceof ApiError && !err.isNetworkError ? err.message : t('machineTools.loadFailed'));
        setLoading(false);
      });
  }, [machineId]);

  useEffect(() => {
    setAnswer(null);
    load();
    const timer = setInterval(() => {
      const now = Date.now();
      const { answer: shown, offsetMs: offset } = shownRef.current;
      // A slow answer is waited for, not asked again over and over.
      if (!inFlight.current && now - loadedAt.current >= nextRefreshMs(shown, now + offset)) load();
    }, REFRESH_TICK_MS);
    return () => {
      clearInterval(timer);
      controller.current?.abort();
    };
  }, [load]);

  const channel = useLiveChannel(
    live
      ? {
          machineId,
          name: 'diagnostics',
          config: { stream: 'raw' },
          onState: (payload) => {
            const rows = parseObservations(payload);
            setAnswer((shown) => {
              if (shown) return applyObservations(shown, rows);
              early.current.push(...rows);
              return shown;
            });
          },
          // History was rewritten: what the page shows is no base any more.
          onReinit: load,
        }
      : null,
  );

  return { answer, error, loading, offsetMs, channel: live ? channel : null };
}
