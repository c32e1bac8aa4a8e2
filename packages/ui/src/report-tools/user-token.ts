import { useEffect, useState } from 'react';
import type { ApiClient } from '../api';
import { buildUrl } from '../api';

// reports-admin §7 "GET /api/user-token: temporary token, refreshed every 180000 ms, appended as token query
// to CSV URLs": a CSV opened in a new tab or by a spreadsheet carries no cookie.

/** reports-admin §9: token refresh 180000 ms. */
export const USER_TOKEN_REFRESH_MS = 180_000;

/** A CSV link: the report's query plus format=csv and the token; null until a token is there. */
export function csvUrl(
  path: string,
  query: Record<string, string | number | boolean | null | undefined>,
  token: string | null,
): string | null {
  if (!token) return null;
  return buildUrl(path, { ...query, format: 'csv', token });
}

/** The current user token, fetched now and every 180000 ms; null before the first answer or after a failure. */
export function useUserToken(api: ApiClient, refreshMs: number = USER_TOKEN_REFRESH_MS): string | null {
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    const load = () =>
      api
        .request<{ token: string }>('/api/user-token', { signal: controller.signal })
        .then((r) => setToken(r.token))
        .catch(() => {
          // A failed refresh drops the link rather than offer one that would answer 401.
          if (!controller.signal.aborted) setToken(null);
        });
    void load();
    const timer = setInterval(() => void load(), refreshMs);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [api, refreshMs]);
  return token;
}
