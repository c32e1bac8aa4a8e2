import { request, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { serveApi } from './serve';

// Decision 1176: idle keep-alive connections outlive a proxy's 60 s idle upstream connection, and the answers say so.

describe('the API server', () => {
  it('announces a 65 s keep-alive and answers again on the same connection', async () => {
    const app = new Hono().get('/', (c) => c.text('ok'));
    const server = await new Promise<ReturnType<typeof serveApi>>((resolve) => {
      const s = serveApi({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
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
      expect(await get()).toEqual({ keepAlive: 'timeout=65', reused: false, body: 'ok' });
      expect(await get()).toEqual({ keepAlive: 'timeout=65', reused: true, body: 'ok' });
    } finally {
      agent.destroy();
      await new Promise((r) => server.close(r));
    }
  });
});
