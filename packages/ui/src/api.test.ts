import { describe, expect, it, vi } from 'vitest';
import { ApiError, buildUrl, createApiClient } from './api';

function reply(status: number, body?: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

function client(...responses: Response[]) {
  const fetch = vi.fn(async () => responses.shift() ?? reply(500));
  const reload = vi.fn();
  return { api: createApiClient({ fetch, reload }), fetch, reload };
}

describe('buildUrl', () => {
  it.each([
    ['/api/dashboard', undefined, '/api/dashboard'],
    ['/api/dashboard', { group: 'g1' }, '/api/dashboard?group=g1'],
    ['/api/dashboard', { group: '', x: null, y: undefined }, '/api/dashboard'],
    ['/api/x?a=1', { b: 2 }, '/api/x?a=1&b=2'],
  ] as const)('%s %j', (path, query, expected) => {
    expect(buildUrl(path, query)).toBe(expected);
  });
});

describe('createApiClient', () => {
  it('returns parsed JSON', async () => {
    const { api } = client(reply(200, { now: 5 }));
    await expect(api.request('/timesync', { parse: (d) => (d as { now: number }).now })).resolves.toBe(5);
  });

  it('reloads on 401 by default and never settles', async () => {
    const { api, reload } = client(reply(401, { error: { code: 'UNAUTHENTICATED', message: 'Log in' } }));
    const settled = vi.fn();
    void api.request('/api/dashboard').then(settled, settled);
    await new Promise((r) => setTimeout(r, 10));
    expect(reload).toHaveBeenCalledOnce();
    expect(settled).not.toHaveBeenCalled();
  });

  it('throws the server message on 401 when asked to', async () => {
    const { api, reload } = client(
      reply(401, { error: { code: 'BAD_CREDENTIALS', message: 'Wrong e-mail or password.' } }),
    );
    const err = await api
      .request('/login', { method: 'POST', body: {}, on401: 'throw' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, code: 'BAD_CREDENTIALS', message: 'Wrong e-mail or password.' });
    expect(reload).not.toHaveBeenCalled();
  });

  it('maps a non-JSON error and a network failure', async () => {
    const { api } = client(
      new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    await expect(api.request('/api/x')).rejects.toMatchObject({
      status: 502,
      code: 'HTTP_502',
      message: 'Bad Gateway',
    });
    const failing = createApiClient({ fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(failing.request('/api/x')).rejects.toMatchObject({ status: 0, isNetworkError: true });
  });

  it('answers 204 with undefined', async () => {
    const { api } = client(reply(204));
    await expect(api.request('/logout', { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it('sends JSON bodies', async () => {
    const { api, fetch } = client(reply(200, {}));
    await api.request('/login', { method: 'POST', body: { email: 'a@b.c' } });
    expect(fetch).toHaveBeenCalledWith(
      '/login',
      expect.objectContaining({
        method: 'POST',
        body: '{"email":"a@b.c"}',
        headers: expect.objectContaining({ 'Content-Type': 'application/json' }),
      }),
    );
  });

  it('notifies once when MM-API-Version changes', async () => {
    const { api } = client(
      reply(200, {}, { 'MM-API-Version': '1.0.0' }),
      reply(200, {}, { 'MM-API-Version': '1.0.0' }),
      reply(200, {}, { 'MM-API-Version': '1.1.0' }),
      reply(200, {}, { 'MM-API-Version': '1.1.0' }),
    );
    const listener = vi.fn();
    api.onVersionChange(listener);
    for (let i = 0; i < 4; i++) await api.request('/api/x');
    expect(api.version).toBe('1.0.0');
    expect(listener).toHaveBeenCalledOnce();
    expect(listener).toHaveBeenCalledWith('1.1.0', '1.0.0');
  });
});

describe('primed requests (started by the page before the app ran)', () => {
  const primedClient = (primed: Record<string, { at: number; res: Promise<Response> }>) => {
    const fetch = vi.fn(async () => reply(200, { from: 'network' }));
    return { api: createApiClient({ fetch, reload: vi.fn(), primed }), fetch };
  };

  it('answers the first GET of the same URL from the primed request, later ones from the network', async () => {
    const { api, fetch } = primedClient({
      '/api/me': { at: Date.now(), res: Promise.resolve(reply(200, { from: 'primed' })) },
    });
    await expect(api.request('/api/me')).resolves.toEqual({ from: 'primed' });
    expect(fetch).not.toHaveBeenCalled();
    await expect(api.request('/api/me')).resolves.toEqual({ from: 'network' });
    expect(fetch).toHaveBeenCalledOnce();
  });

  it('asks again for a primed 401 (sent before the login on this page); reports a primed network failure', async () => {
    const { api, fetch } = primedClient({
      '/api/dashboard': {
        at: Date.now(),
        res: Promise.resolve(reply(401, { error: { code: 'X', message: 'no' } })),
      },
      '/api/me': { at: Date.now(), res: Promise.reject(new TypeError('Failed to fetch')) },
    });
    await expect(api.request('/api/dashboard')).resolves.toEqual({ from: 'network' });
    expect(fetch).toHaveBeenCalledOnce();
    await expect(api.request('/api/me')).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
  });

  it('asks the network for a stale primed answer, another URL, or another method', async () => {
    const { api, fetch } = primedClient({
      '/api/me': { at: Date.now() - 60_000, res: Promise.resolve(reply(200, { from: 'primed' })) },
      '/api/x': { at: Date.now(), res: Promise.resolve(reply(200, { from: 'primed' })) },
    });
    await expect(api.request('/api/me')).resolves.toEqual({ from: 'network' });
    await expect(api.request('/api/x', { query: { a: 1 } })).resolves.toEqual({ from: 'network' });
    await expect(api.request('/api/x', { method: 'POST', body: {} })).resolves.toEqual({ from: 'network' });
    expect(fetch).toHaveBeenCalledTimes(3);
  });
});
