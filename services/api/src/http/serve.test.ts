import { request, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '../env';
import { serveApi } from './serve';

// Decision 1176: idle keep-alive connections outlive a proxy's 60 s idle upstream connection, and the answers say so.

describe('the API server', () => {
  it.each([
    [undefined, 'timeout=65'],
    [620_000, 'timeout=620'],
  ])(
    'keeps idle connections %s ms (default 65 s), announces %s and answers again on the same connection',
    async (keepAliveMs, announced) => {
      const app = new Hono().get('/', (c) => c.text('ok'));
      const server = await new Promise<ReturnType<typeof serveApi>>((resolve) => {
        const s = serveApi(
          { fetch: app.fetch, port: 0, hostname: '127.0.0.1' },
          () => resolve(s),
          keepAliveMs,
        );
      });
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const get = () =>
        new Promise<{ keepAlive: string | string[] | undefined; reused: boolean; body: string }>(
          (resolve, reject) => {
            const req = request(
              { host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/', agent },
              (res) => {
                let body = '';
                res.on('data', (d: Buffer) => (body += d.toString()));
                res.on('end', () =>
                  resolve({ keepAlive: res.headers['keep-alive'], reused: req.reusedSocket, body }),
                );
              },
            );
            req.on('error', reject);
            req.end();
          },
        );
      try {
        expect(await get()).toEqual({ keepAlive: announced, reused: false, body: 'ok' });
        expect(await get()).toEqual({ keepAlive: announced, reused: true, body: 'ok' });
      } finally {
        agent.destroy();
        await new Promise((r) => server.close(r));
      }
    },
  );
});

describe('TAKT_KEEP_ALIVE_SECONDS', () => {
  it('defaults to 65 s and refuses what no proxy would need', () => {
    expect(parseEnv({}).TAKT_KEEP_ALIVE_SECONDS).toBe(65);
    expect(parseEnv({ TAKT_KEEP_ALIVE_SECONDS: '620' }).TAKT_KEEP_ALIVE_SECONDS).toBe(620);
    for (const bad of ['0', '4', '3601', 'soon', '6.5'])
      expect(() => parseEnv({ TAKT_KEEP_ALIVE_SECONDS: bad })).toThrow(/TAKT_KEEP_ALIVE_SECONDS/);
  });
});
