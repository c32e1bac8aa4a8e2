// The one way both apps talk to the API: JSON in and out, errors as values with codes, 401 → reload
// (live-operations §8: "HTTP 401 on any call: the page reloads"), and MM-API-Version change detection
// for the new-version notice (live-operations §1, ARCHITECTURE.md "Conventions").

export const API_VERSION_HEADER = 'MM-API-Version';

/** An error answered by the API (`{ error: { code, message, issues? } }`) or a transport failure. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The request never got an HTTP answer (offline, server down, DNS). */
  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
  /**
   * 'reload' (default): a 401 reloads the page, which then shows the login screen.
   * 'throw': the caller handles it — the login call itself, and the "who am I" probe at start-up
   * (reloading there would loop forever).
   */
  on401?: 'reload' | 'throw';
  /** Validates and types the JSON answer (a zod schema's `parse`, for example). */
  parse?: (data: unknown) => T;
}

export type VersionListener = (version: string, previous: string) => void;

export interface ApiClient {
  request<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  /** Called when the MM-API-Version header differs from the first one seen. Returns an unsubscribe. */
  onVersionChange(listener: VersionListener): () => void;
  /** The first API version this page saw, or null before any response. */
  readonly version: string | null;
}

/** A GET the page started before the app's JavaScript ran (see apps/floor-pwa/index.html). */
export interface PrimedRequest {
  /** Date.now() when it was sent. */
  at: number;
  res: Promise<Response>;
}

export interface ApiClientOptions {
  fetch?: typeof fetch;
  reload?: () => void;
  baseUrl?: string;
  /**
   * GETs already on the wire, by URL: the first request for one of them within PRIMED_TTL_MS takes its
   * answer instead of asking again, so a cold start does not wait for the bundle before its first calls.
   */
  primed?: Record<string, PrimedRequest>;
}

/** A primed answer older than this is not used: the app asks again. */
export const PRIMED_TTL_MS = 10_000;

export function buildUrl(path: string, query?: RequestOptions<unknown>['query'], baseUrl = ''): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v != null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return `${baseUrl}${path}${qs ? (path.includes('?') ? '&' : '?') + qs : ''}`;
}

async function errorFrom(res: Response): Promise<ApiError> {
  let code = `HTTP_${res.status}`;
  let message = res.statusText || `Request failed with status ${res.status}`;
  let issues: unknown;
  try {
    const data = (await res.json()) as { error?: { code?: unknown; message?: unknown; issues?: unknown } };
    if (data?.error) {
      if (typeof data.error.code === 'string') code = data.error.code;
      if (typeof data.error.message === 'string' && data.error.message) message = data.error.message;
      issues = data.error.issues;
    }
  } catch {
    // Not JSON (a proxy's error page, say): keep the status text.
  }
  return new ApiError(res.status, code, message, issues);
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const reload = options.reload ?? (() => globalThis.location.reload());
  const listeners = new Set<VersionListener>();
  let firstVersion: string | null = null;
  let lastNotified: string | null = null;
  const primed = new Map(Object.entries(options.primed ?? {}));

  /** The primed answer for a GET of `url`, once: later requests go to the network. */
  function takePrimed(url: string, method: string, signal?: AbortSignal): Promise<Response> | null {
    const hit = method === 'GET' ? primed.get(url) : undefined;
    if (!hit) return null;
    primed.delete(url);
    if (Date.now() - hit.at > PRIMED_TTL_MS || signal?.aborted) return null;
    return hit.res;
  }

  function noteVersion(res: Response) {
    const v = res.headers.get(API_VERSION_HEADER);
    if (!v) return;
    if (firstVersion == null) {
      firstVersion = v;
      return;
    }
    // Notify once per new version, not on every later response.
    if (v !== firstVersion && v !== lastNotified) {
      lastNotified = v;
      for (const l of listeners) l(v, firstVersion);
    }
  }

  async function request<T>(path: string, opts: RequestOptions<T> = {}): Promise<T> {
    const { method = 'GET', body, query, signal, on401 = 'reload', parse } = opts;
    const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'fetch' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const url = buildUrl(path, query, options.baseUrl);
    let res: Response;
    try {
      const fresh = () =>
        doFetch(url, {
          method,
          headers,
          credentials: 'same-origin',
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          ...(signal ? { signal } : {}),
        });
      const primedRes = takePrimed(url, method, signal);
      // A primed 401 was asked before the user logged in on this page: ask again with today's session,
      // rather than reload the page the user just logged in on.
      res = primedRes ? await primedRes.then((r) => (r.status === 401 ? fresh() : r)) : await fresh();
    } catch (e) {
      if (signal?.aborted) throw e;
      throw new ApiError(0, 'NETWORK_ERROR', e instanceof Error ? e.message : 'Network error');
    }
    noteVersion(res);
    if (res.status === 401 && on401 === 'reload') {
      reload();
      // The page is going away; never settle so no caller flashes an error first.
      return new Promise<T>(() => {});
    }
    if (!res.ok) throw await errorFrom(res);
    if (res.status === 204 || res.headers.get('Content-Length') === '0') return undefined as T;
    const data: unknown = await res.json();
    return parse ? parse(data) : (data as T);
  }

  return {
    request,
    onVersionChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get version() {
      return firstVersion;
    },
  };
}
