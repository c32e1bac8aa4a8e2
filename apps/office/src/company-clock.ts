import type { CompanyClock, EpochMs, Me, TimeContext } from '@takt/domain';
import { epochMs } from '@takt/domain';
import { useEffect, useState } from 'react';
import { api } from './api';

// The company calendar the date tools need: zone from /api/me, start of day from GET /api/timecontext
// (reports-admin §9 "Company-day offset comes from the current time context"), and the server's clock from
// GET /timesync so quick links ("Today") follow the server, not a wrong desk clock.

interface TimeContextAnswer {
  currentTimeContext: TimeContext | null;
  futureTimeContext: TimeContext | null;
}

export type ClockState =
  { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; clock: CompanyClock; offsetMs: number };

export function useCompanyClock(me: Me): ClockState {
  const [state, setState] = useState<ClockState>({ kind: 'loading' });
  const timezone = me.company.timezone;
  useEffect(() => {
    const controller = new AbortController();
    const sentAt = Date.now();
    Promise.all([
      api.request<TimeContextAnswer>('/api/timecontext', { signal: controller.signal }),
      api.request<{ now: number }>('/timesync', { signal: controller.signal }).catch(() => null),
    ])
      .then(([tc, sync]) => {
        const receivedAt = Date.now();
        // Half the round trip: the server read its clock about midway.
        const offsetMs = sync ? sync.now - (sentAt + receivedAt) / 2 : 0;
        setState({
          kind: 'ready',
          clock: {
            timezone,
            currentTimeContext: tc.currentTimeContext,
            futureTimeContext: tc.futureTimeContext,
          },
          offsetMs,
        });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ kind: 'failed' });
      });
    return () => controller.abort();
  }, [timezone]);
  return state;
}

/** Server time, refreshed once a minute (quick links only move at period boundaries). */
export function useMinuteNow(offsetMs: number): EpochMs {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return epochMs(Math.floor((now + offsetMs) / 60_000) * 60_000);
}
